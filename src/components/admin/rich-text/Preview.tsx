/**
 * The Preview tab: the server's sanitizeHtml of the current text — the very HTML saving stores and the
 * public page renders — shown with the public pages' .prose-content styles.
 */
import { actions } from 'astro:actions';
import { useEffect, useRef, useState } from 'react';
import { callAction } from '../call-action';

type State = { kind: 'loading' } | { kind: 'ready'; html: string } | { kind: 'failed'; message: string };

export function Preview({ html, active }: { html: string; active: boolean }) {
  const [state, setState] = useState<State>();
  const requested = useRef<string>(undefined);

  useEffect(() => {
    if (!active || requested.current === html) return;
    requested.current = html;
    let stale = false;
    let done = false;
    setState({ kind: 'loading' });
    void callAction<{ html: string }>(() => actions.admin.html.preview({ html }), { retryForMs: 10_000 }).then((outcome) => {
      done = true;
      if (stale) return;
      if (!outcome.ok) requested.current = undefined; // opening the tab again tries again
      setState(outcome.ok ? { kind: 'ready', html: outcome.data.html } : { kind: 'failed', message: outcome.message });
    });
    return () => {
      stale = true;
      // Left before the answer came: ask again next time.
      if (!done && requested.current === html) requested.current = undefined;
    };
  }, [active, html]);

  if (!state || state.kind === 'loading') {
    return (
      <p role="status" className="p-4 text-sm text-slate-600">
        Preparing the preview…
      </p>
    );
  }
  if (state.kind === 'failed') {
    return (
      <p role="alert" className="p-4 text-sm text-red-700">
        The preview could not be prepared: {state.message}
      </p>
    );
  }
  return (
    <div>
      <p className="border-b border-slate-200 bg-slate-50 px-4 py-2 text-xs text-slate-600">Exactly what visitors will see once you save (scripts, styles and unsafe links removed).</p>
      {state.html === '' ? (
        <p className="p-4 text-sm text-slate-600">Nothing to show yet.</p>
      ) : (
        <div data-testid="rich-text-preview" className="prose-content max-h-[65vh] overflow-y-auto p-4 sm:p-6 [&>:first-child]:mt-0 [&>:last-child]:mb-0" dangerouslySetInnerHTML={{ __html: state.html }} />
      )}
    </div>
  );
}
