/**
 * A small modal form (the link and picture dialogs): a native <dialog> (focus stays inside, Escape
 * cancels, the page behind is inert), rendered at the end of <body> so its <form> is not nested in the
 * editor's form, and its submit never reaches the editor's (that would save the record).
 */
import { useEffect, useId, useRef, type ReactNode } from 'react';
import { createPortal } from 'react-dom';

interface Props {
  title: string;
  submitLabel: string;
  onSubmit(): void;
  onClose(): void;
  /** Buttons on the left of the footer (Remove link). */
  extraActions?: ReactNode;
  /** Work in progress (an upload): the submit button waits. */
  busy?: boolean | undefined;
  children: ReactNode;
}

export const dialogButton = 'inline-flex h-10 items-center justify-center rounded-lg px-4 text-sm font-semibold';

export function FormDialog({ title, submitLabel, onSubmit, onClose, extraActions, busy, children }: Props) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    dialog?.showModal();
    return () => dialog?.close();
  }, []);
  return createPortal(
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
      className="m-auto w-[calc(100%-2rem)] max-w-md rounded-2xl bg-white p-5 text-ink shadow-2xl backdrop:bg-slate-900/50 sm:p-6"
    >
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          e.stopPropagation(); // React events bubble through the portal to the editor's form
          onSubmit();
        }}
      >
        <h2 id={titleId} className="text-lg font-semibold">
          {title}
        </h2>
        <div className="mt-4 space-y-4">{children}</div>
        <div className="mt-6 flex flex-wrap items-center gap-2">
          {extraActions}
          <button type="button" onClick={onClose} className={`${dialogButton} ml-auto border border-slate-300 hover:bg-slate-50`}>
            Cancel
          </button>
          <button type="submit" disabled={busy} className={`${dialogButton} bg-brand-600 text-white hover:bg-brand-700 disabled:cursor-not-allowed disabled:opacity-60`}>
            {submitLabel}
          </button>
        </div>
      </form>
    </dialog>,
    document.body,
  );
}
