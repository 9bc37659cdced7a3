/**
 * "Import a content file": choose the file, confirm, watch it upload, then read the result — a summary of
 * what was imported, or every problem by position and field with nothing imported (the same report as
 * `npm run content:import`). A lost connection or a server failure is retried for up to 2 minutes (an
 * import replaces records by id, so sending the same file twice is harmless), with the wait shown.
 */
import { useEffect, useRef, useState, type ChangeEvent, type SubmitEvent } from 'react';
import { IDEMPOTENT_RETRY_MS } from '../../components/admin/call-action';
import { useConfirm } from '../../components/admin/ConfirmDialog';
import { toast } from '../../components/admin/toasts';
import { Alert, FieldFrame } from '../../components/forms/field';
import { useKeepTypedValues } from '../../components/forms/keep-typed-values';
import { CONTENT_IMPORT_PATH, FILE_NAME_HEADER } from '../../shared/content-transfer';
import { formatBytes } from '../../shared/media-library';
import { activityHref, EMPTY_ACTIVITY_QUERY } from '../../shared/activity-query';
import { fileProblem, importOutcome, type ImportOutcome } from './outcome';
import { sendFile } from './send-file';

type Phase =
  | { kind: 'idle' }
  | { kind: 'uploading'; fraction: number }
  | { kind: 'importing' }
  | { kind: 'waiting'; attempt: number; seconds: number }
  | { kind: 'finished'; outcome: Exclude<ImportOutcome, { kind: 'retry' }> | { kind: 'failed'; message: string } };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const percent = (f: number) => `${Math.round(f * 100)}%`;

/** `maxBytes`: the largest file this site imports (contentFileLimitBytes of its media quota). */
export default function ContentImport({ maxBytes }: { maxBytes: number }) {
  const root = useRef<HTMLFormElement>(null);
  useKeepTypedValues(root);
  const [file, setFile] = useState<File>();
  const [fieldError, setFieldError] = useState<string>();
  const [phase, setPhase] = useState<Phase>({ kind: 'idle' });
  const [confirm, dialog] = useConfirm();
  const resultRef = useRef<HTMLDivElement>(null);
  const busy = phase.kind === 'uploading' || phase.kind === 'importing' || phase.kind === 'waiting';

  // The result is where the reader goes next: move focus there (the alert is announced as well).
  useEffect(() => {
    if (phase.kind === 'finished') resultRef.current?.focus();
  }, [phase.kind]);

  // Leaving while the file is on its way would leave the admin unsure whether it was imported.
  useEffect(() => {
    if (!busy) return;
    const warn = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [busy]);

  function choose(e: ChangeEvent<HTMLInputElement>) {
    const chosen = e.target.files?.[0];
    setFile(chosen);
    setFieldError(chosen && fileProblem(chosen, maxBytes));
    setPhase({ kind: 'idle' });
  }

  async function send(chosen: File) {
    const deadline = Date.now() + IDEMPOTENT_RETRY_MS;
    const headers = { 'Content-Type': 'application/octet-stream', [FILE_NAME_HEADER]: encodeURIComponent(chosen.name) };
    for (let attempt = 1; ; attempt++) {
      setPhase({ kind: 'uploading', fraction: 0 });
      const sent = await sendFile(CONTENT_IMPORT_PATH, chosen, headers, (fraction) =>
        setPhase(fraction >= 1 ? { kind: 'importing' } : { kind: 'uploading', fraction }),
      );
      const outcome = sent.kind === 'answer' ? importOutcome(sent.status, sent.body, chosen.name, maxBytes) : ({ kind: 'retry' } as const);
      if (outcome.kind !== 'retry') return outcome;
      const wait = Math.min(15_000, 1000 * 2 ** (attempt - 1));
      if (Date.now() + wait > deadline) {
        return {
          kind: 'failed' as const,
          message:
            sent.kind === 'answer'
              ? 'The import failed on the server and nothing was imported. Please try again later.'
              : 'The server could not be reached, so nothing was imported. Check the connection and import again.',
        };
      }
      for (let left = Math.ceil(wait / 1000); left > 0; left--) {
        setPhase({ kind: 'waiting', attempt, seconds: left });
        await sleep(1000);
      }
    }
  }

  async function submit(e: SubmitEvent<HTMLFormElement>) {
    e.preventDefault();
    if (busy) return;
    if (!file) return setFieldError('Choose a content file first.');
    const problem = fileProblem(file, maxBytes);
    if (problem) return setFieldError(problem);
    const ok = await confirm(
      `Import “${file.name}”?`,
      <>
        <p>Records in the file replace the ones with the same id on this site; records that are only on this site stay. Every record is checked first: if any is wrong, nothing is imported.</p>
        <p className="mt-2 font-medium">An import cannot be reverted from the activity log. Download a backup first if you may want to go back.</p>
      </>,
      'Import',
    );
    if (!ok) return;
    const outcome = await send(file);
    setPhase({ kind: 'finished', outcome });
    if (outcome.kind === 'imported') toast('success', outcome.message);
  }

  return (
    <form ref={root} onSubmit={(e) => void submit(e)} noValidate className="space-y-4" data-content-import>
      <FieldFrame
        label="Content file (.json)"
        error={fieldError}
        hint={`A file saved by “Download the content file” or by npm run content:export, at most ${formatBytes(maxBytes)}.`}
        input={(a11y) => (
          <input
            {...a11y}
            type="file"
            name="file"
            accept=".json,application/json"
            onChange={choose}
            disabled={busy}
            className="block w-full cursor-pointer rounded-lg border border-slate-300 bg-white text-sm text-slate-700 file:mr-3 file:h-11 file:cursor-pointer file:border-0 file:border-r file:border-slate-300 file:bg-slate-50 file:px-4 file:text-sm file:font-semibold file:text-ink hover:file:bg-slate-100 aria-[invalid=true]:border-red-600"
          />
        )}
      />
      <button
        type="submit"
        disabled={busy}
        className="inline-flex h-10 items-center rounded-lg bg-brand-600 px-4 text-sm font-semibold text-white hover:bg-brand-700 disabled:opacity-60"
      >
        {busy ? 'Importing…' : 'Import'}
      </button>

      <div role="status" aria-live="polite" className="text-sm text-slate-700" data-import-progress>
        {phase.kind === 'uploading' && (
          <div className="max-w-md">
            <p>
              Uploading {file?.name}: {percent(phase.fraction)}
            </p>
            <progress value={phase.fraction} max={1} aria-label="Upload progress" className="mt-1 h-2 w-full accent-brand-600" />
          </div>
        )}
        {phase.kind === 'importing' && <p>Uploaded. Checking every record and importing…</p>}
        {phase.kind === 'waiting' && (
          <p>
            No answer from the server. Trying again in {phase.seconds} s (attempt {phase.attempt + 1})…
          </p>
        )}
      </div>

      {phase.kind === 'finished' && (
        <div ref={resultRef} tabIndex={-1} className="outline-none" data-import-result={phase.outcome.kind}>
          <Result outcome={phase.outcome} />
        </div>
      )}
      {dialog}
    </form>
  );
}

function Result({ outcome }: { outcome: Extract<Phase, { kind: 'finished' }>['outcome'] }) {
  if (outcome.kind === 'imported') {
    return (
      <Alert tone="success">
        <p className="font-semibold">{outcome.message}</p>
        <p className="mt-1">The site shows the imported content now.</p>
        {outcome.activityId && (
          <a href={activityHref(EMPTY_ACTIVITY_QUERY, { entry: outcome.activityId })} className="mt-1 inline-block font-medium underline underline-offset-2">
            See it in the activity log
          </a>
        )}
      </Alert>
    );
  }
  if (outcome.kind === 'problems') {
    return (
      <>
        <Alert tone="error">
          <p className="font-semibold">{outcome.message}</p>
          <p className="mt-1">Fix these in the file, then import it again. Each line names the record (its list and position, counting from 0) and the field.</p>
        </Alert>
        <ol
          className="mt-2 max-h-96 space-y-1 overflow-auto rounded-lg border border-red-200 bg-white p-3 font-mono text-xs text-ink"
          tabIndex={0}
          aria-label={`Problems in the file (${outcome.problems.length})`}
          data-problems
        >
          {outcome.problems.map((p, i) => (
            <li key={i} className="[overflow-wrap:anywhere]">
              <span className="font-semibold">{p.path}</span>: {p.message}
            </li>
          ))}
        </ol>
      </>
    );
  }
  return (
    <Alert tone="error">
      <p>{outcome.message}</p>
    </Alert>
  );
}
