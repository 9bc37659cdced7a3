/**
 * "Delete this service?" — a native modal dialog (focus stays inside, Escape cancels, the page behind is
 * inert) before an admin action that is hard to take back. `useConfirm()` returns a function that resolves
 * to the answer, and the element to render once. The confirm button is red only for what destroys or takes
 * away ('danger', the default); sending, reverting or resetting something that can be undone asks in the
 * primary colour ('primary'), so red keeps its meaning.
 */
import { useCallback, useEffect, useId, useRef, useState, type ReactNode } from 'react';

export type ConfirmTone = 'danger' | 'primary';

interface Request {
  title: string;
  body: ReactNode;
  confirmLabel: string;
  tone: ConfirmTone;
  resolve(ok: boolean): void;
}

const CONFIRM_BUTTON: Record<ConfirmTone, string> = {
  danger: 'bg-red-600 hover:bg-red-700',
  primary: 'bg-brand-600 hover:bg-brand-700',
};

export function useConfirm(): [(title: string, body: ReactNode, confirmLabel?: string, tone?: ConfirmTone) => Promise<boolean>, ReactNode] {
  const [request, setRequest] = useState<Request>();
  const ask = useCallback(
    (title: string, body: ReactNode, confirmLabel = 'Delete', tone: ConfirmTone = 'danger') =>
      new Promise<boolean>((resolve) => setRequest({ title, body, confirmLabel, tone, resolve })),
    [],
  );
  const close = (ok: boolean) => {
    request?.resolve(ok);
    setRequest(undefined);
  };
  return [ask, request ? <ConfirmDialog key={request.title} request={request} onClose={close} /> : null];
}

function ConfirmDialog({ request, onClose }: { request: Request; onClose(ok: boolean): void }) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const answered = useRef(false);
  useEffect(() => {
    const opener = document.activeElement as HTMLElement | null;
    ref.current?.showModal();
    return () => opener?.focus();
  }, []);
  const answer = (ok: boolean) => {
    if (answered.current) return;
    answered.current = true;
    ref.current?.close();
    onClose(ok);
  };
  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      onCancel={(e) => {
        e.preventDefault();
        answer(false);
      }}
      className="m-auto w-[calc(100%-2rem)] max-w-md rounded-2xl bg-white p-6 text-ink shadow-2xl backdrop:bg-slate-900/50"
    >
      <h2 id={titleId} className="text-lg font-semibold">
        {request.title}
      </h2>
      <div className="mt-2 text-sm text-slate-700">{request.body}</div>
      <div className="mt-6 flex flex-wrap justify-end gap-2">
        <button type="button" autoFocus onClick={() => answer(false)} className="inline-flex h-10 items-center rounded-lg border border-slate-300 px-4 text-sm font-semibold hover:bg-slate-50">
          Cancel
        </button>
        <button type="button" onClick={() => answer(true)} className={`inline-flex h-10 items-center rounded-lg px-4 text-sm font-semibold text-white ${CONFIRM_BUTTON[request.tone]}`} data-confirm-tone={request.tone}>
          {request.confirmLabel}
        </button>
      </div>
    </dialog>
  );
}
