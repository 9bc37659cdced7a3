/**
 * "Delete this service?" — a native modal dialog (focus stays inside, Escape cancels, the page behind is
 * inert) for every destructive admin action. `useConfirm()` returns a function that resolves to the
 * answer, and the element to render once.
 */
import { useCallback, useEffect, useId, useRef, useState, type ReactNode } from 'react';

interface Request {
  title: string;
  body: ReactNode;
  confirmLabel: string;
  resolve(ok: boolean): void;
}

export function useConfirm(): [(title: string, body: ReactNode, confirmLabel?: string) => Promise<boolean>, ReactNode] {
  const [request, setRequest] = useState<Request>();
  const ask = useCallback(
    (title: string, body: ReactNode, confirmLabel = 'Delete') => new Promise<boolean>((resolve) => setRequest({ title, body, confirmLabel, resolve })),
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
        <button type="button" onClick={() => answer(true)} className="inline-flex h-10 items-center rounded-lg bg-red-600 px-4 text-sm font-semibold text-white hover:bg-red-700">
          {request.confirmLabel}
        </button>
      </div>
    </dialog>
  );
}
