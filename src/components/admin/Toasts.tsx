/** The admin toasts (src/components/admin/toasts.ts), bottom right, above the page; polite or assertive by tone. */
import { useStore } from '@nanostores/react';
import { useEffect } from 'react';
import { $toasts, dismissToast, NOTICES, toast, type Notice } from './toasts';

const TONES = {
  success: 'border-green-200 bg-green-50 text-green-900',
  error: 'border-red-200 bg-red-50 text-red-900',
  info: 'border-slate-200 bg-white text-ink',
} as const;

export default function Toasts() {
  const toasts = useStore($toasts);

  useEffect(() => {
    const url = new URL(window.location.href);
    const notice = url.searchParams.get('notice');
    if (notice === null) return;
    if (Object.hasOwn(NOTICES, notice)) toast('success', NOTICES[notice as Notice]);
    url.searchParams.delete('notice');
    history.replaceState(history.state, '', url);
  }, []);

  return (
    <div className="pointer-events-none fixed inset-x-4 bottom-4 z-50 flex flex-col items-end gap-2 sm:left-auto sm:w-96">
      <div role="status" aria-live="polite" className="flex w-full flex-col items-end gap-2">
        {toasts.filter((t) => t.tone !== 'error').map((t) => <ToastCard key={t.id} id={t.id} tone={t.tone} text={t.text} />)}
      </div>
      <div role="alert" aria-live="assertive" className="flex w-full flex-col items-end gap-2">
        {toasts.filter((t) => t.tone === 'error').map((t) => <ToastCard key={t.id} id={t.id} tone={t.tone} text={t.text} />)}
      </div>
    </div>
  );
}

function ToastCard({ id, tone, text }: { id: number; tone: keyof typeof TONES; text: string }) {
  return (
    <div data-toast={tone} className={`pointer-events-auto flex w-full items-start gap-3 rounded-xl border px-4 py-3 text-sm shadow-lg ${TONES[tone]}`}>
      <p className="min-w-0 flex-1 [overflow-wrap:anywhere]">{text}</p>
      <button type="button" onClick={() => dismissToast(id)} className="-mr-1 rounded px-1 text-current opacity-70 hover:opacity-100" aria-label="Dismiss">
        ×
      </button>
    </div>
  );
}
