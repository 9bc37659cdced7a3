/**
 * The website check's controls on /admin/audit/[id] (issue 22): while the newest run is queued or running,
 * it says so and asks the server every few seconds, reloading the page once the findings are in; "Run
 * again" queues a new run (of the request's website, or of an address the admin corrects), kept beside
 * the earlier ones so the page can show what changed.
 */
import { actions } from 'astro:actions';
import { useEffect, useRef, useState } from 'react';
import { callAction } from '../../components/admin/call-action';
import { TextInput } from '../../components/admin/fields';
import { toast } from '../../components/admin/toasts';
import { useKeepTypedValues } from '../../components/forms/keep-typed-values';

interface Props {
  id: string;
  /** The address the next run checks unless the admin changes it. */
  url: string;
  /** The newest run's state, when there is one. */
  latest: { id: string; status: string } | undefined;
}

const POLL_MS = 2500;
const isUnderWay = (status: string | undefined) => status === 'queued' || status === 'running';

export default function SiteCheckControls(props: Props) {
  const root = useRef<HTMLFormElement>(null);
  useKeepTypedValues(root);
  const [latest, setLatest] = useState(props.latest);
  const [url, setUrl] = useState(props.url);
  const [urlError, setUrlError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const waiting = isUnderWay(latest?.status);

  useEffect(() => {
    if (!waiting) return;
    const timer = setInterval(async () => {
      const outcome = await callAction<{ id: string; status: string } | null>(() => actions.admin.audit.siteCheckState({ id: props.id }));
      if (outcome.ok && outcome.data && !isUnderWay(outcome.data.status)) {
        clearInterval(timer);
        window.location.reload();
      }
    }, POLL_MS);
    return () => clearInterval(timer);
  }, [waiting, props.id]);

  async function runAgain() {
    setBusy(true);
    // Not retried: a second call would be refused while the first run is under way anyway.
    const outcome = await callAction<{ runId: string }>(() => actions.admin.audit.runSiteCheck({ id: props.id, url: url.trim() }));
    setBusy(false);
    if (outcome.ok) {
      setUrlError(undefined);
      setLatest({ id: outcome.data.runId, status: 'queued' });
      toast('success', 'Website check queued.');
    } else if (outcome.kind === 'invalid') setUrlError(outcome.fieldErrors.url ?? outcome.message);
    else toast('error', outcome.message);
  }

  if (waiting) {
    return (
      <p role="status" className="flex items-center gap-3 rounded-xl border border-brand-200 bg-brand-50 p-4 text-sm text-brand-900" data-site-check-waiting>
        <span aria-hidden="true" className="size-4 shrink-0 animate-spin rounded-full border-2 border-brand-300 border-t-brand-700" />
        {latest?.status === 'running' ? 'Checking the website now.' : 'The website check is queued.'} This usually takes under a minute; the page updates by itself.
      </p>
    );
  }
  return (
    <form
      ref={root}
      className="grid gap-3"
      onSubmit={(e) => {
        e.preventDefault();
        void runAgain();
      }}
    >
      <TextInput label="Website to check" value={url} onValue={setUrl} error={urlError} inputMode="url" autoComplete="off" maxLength={2100} placeholder="https://example.com" />
      <div>
        <button type="submit" disabled={busy} className="inline-flex h-10 items-center rounded-lg bg-brand-600 px-4 text-sm font-semibold text-white hover:bg-brand-700 disabled:opacity-60">
          {busy ? 'Queuing…' : latest ? 'Run again' : 'Check website'}
        </button>
      </div>
    </form>
  );
}
