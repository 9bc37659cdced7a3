/**
 * The seed's user settings dialog: name, email, role and the change-password form (section 5 rules and
 * texts). A native modal <dialog>: the page behind is inert (focus stays inside), Escape closes it, and
 * it is labelled by its heading.
 */
import { useStore } from '@nanostores/react';
import { useEffect, useId, useRef, useState, type SubmitEvent } from 'react';
import { AUTH_MESSAGES } from '../../shared/auth-messages';
import { $session, displayName } from '../../stores/session';
import { authRequest } from '../auth/api';
import { Alert, PasswordField } from '../auth/ui';
import { changePasswordFailureText, validateNewPassword } from './validate';

export default function SettingsDialog({ onClosed }: { onClosed(): void }) {
  const { user } = useStore($session);
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const [newPassword, setNewPassword] = useState('');
  const [confirmPassword, setConfirmPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ tone: 'error' | 'success'; text: string }>();

  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
  }, []);

  if (!user) return null;

  async function submit(e: SubmitEvent) {
    e.preventDefault();
    setMessage(undefined);
    const invalid = validateNewPassword(newPassword, confirmPassword);
    if (invalid) return setMessage({ tone: 'error', text: invalid });
    setBusy(true);
    const res = await authRequest('/account/change-password', { newPassword, confirmPassword });
    setBusy(false);
    if (res.ok) {
      setNewPassword('');
      setConfirmPassword('');
      return setMessage({ tone: 'success', text: AUTH_MESSAGES.PASSWORD_UPDATED });
    }
    setMessage({ tone: 'error', text: changePasswordFailureText(res) });
  }

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
        <form onSubmit={submit} noValidate className="space-y-4 border-t border-slate-200 pt-5" aria-labelledby={`${titleId}-pw`}>
          <h3 id={`${titleId}-pw`} className="font-semibold">
            Change password
          </h3>
          {message && <Alert tone={message.tone}>{message.text}</Alert>}
          <PasswordField label="New password" name="newPassword" autoComplete="new-password" required value={newPassword} onChange={(e) => setNewPassword(e.target.value)} />
          <PasswordField label="Confirm new password" name="confirmPassword" autoComplete="new-password" required value={confirmPassword} onChange={(e) => setConfirmPassword(e.target.value)} />
          <button
            type="submit"
            disabled={busy || !newPassword || !confirmPassword}
            className="inline-flex h-11 w-full items-center justify-center rounded-full bg-brand-600 px-5 text-sm font-semibold text-white shadow-sm hover:bg-brand-700 disabled:cursor-not-allowed disabled:bg-slate-400"
          >
            {busy ? 'Updating...' : 'Update password'}
          </button>
        </form>
      </div>
    </dialog>
  );
}
