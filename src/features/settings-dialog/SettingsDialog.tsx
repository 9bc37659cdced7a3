/**
 * The seed's user settings dialog: name, email, role and the change-password form (section 5 rules and
 * texts). A native modal <dialog>: the page behind is inert (focus stays inside), Escape closes it, and
 * it is labelled by its heading.
 */
import { useStore } from '@nanostores/react';
import { useEffect, useId, useRef } from 'react';
import { $session, displayName } from '../../stores/session';
import ChangePasswordForm from './ChangePasswordForm';

export default function SettingsDialog({ onClosed }: { onClosed(): void }) {
  const { user } = useStore($session);
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();

  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
  }, []);

  if (!user) return null;

  const rows: [string, string][] = [
    ['Name', displayName(user)],
    ['Email', user.email],
    ['Role', user.role],
  ];

  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      data-settings-dialog
      onClose={onClosed}
      className="m-auto w-[calc(100%-2rem)] max-w-md rounded-2xl bg-white p-0 text-ink shadow-2xl backdrop:bg-slate-900/50"
    >
      <div className="flex items-start justify-between gap-4 border-b border-slate-200 px-6 py-4">
        <h2 id={titleId} className="text-lg font-semibold">
          Account settings
        </h2>
        <button
          type="button"
          onClick={() => ref.current?.close()}
          className="-mr-2 inline-flex h-9 w-9 items-center justify-center rounded-full text-slate-600 hover:bg-slate-100 hover:text-ink"
        >
          <span className="sr-only">Close</span>
          <svg aria-hidden="true" viewBox="0 0 24 24" className="h-5 w-5 fill-none stroke-current" strokeWidth="2" strokeLinecap="round">
            <path d="M6 6l12 12M18 6 6 18" />
          </svg>
        </button>
      </div>
      <div className="space-y-6 px-6 py-5">
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
          {rows.map(([k, v]) => (
            <div key={k} className="contents">
              <dt className="font-medium text-slate-600">{k}</dt>
              <dd className="[overflow-wrap:anywhere] text-ink" data-field={k.toLowerCase()}>
                {v}
              </dd>
            </div>
          ))}
        </dl>
        <div className="border-t border-slate-200 pt-5">
          <ChangePasswordForm heading={{ id: `${titleId}-pw`, level: 3, className: 'font-semibold' }} />
        </div>
      </div>
    </dialog>
  );
}
