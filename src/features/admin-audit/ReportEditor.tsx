/**
 * The report on /admin/audit/[id] (issue 22): the owner writes a summary, adds a note to any check, leaves
 * checks out, saves, previews exactly what the requester will read, then sends it. Sending saves the draft
 * as shown and mails a private link; the page then reloads with the request's new status.
 */
import { actions } from 'astro:actions';
import { useRef, useState } from 'react';
import { callAction, IDEMPOTENT_RETRY_MS } from '../../components/admin/call-action';
import { useConfirm } from '../../components/admin/ConfirmDialog';
import { TextArea } from '../../components/admin/fields';
import { toast } from '../../components/admin/toasts';
import { CHECK_STATUS_CLASSES, CHECK_STATUS_LABELS } from '../../components/audit/check-status';
import { useKeepTypedValues } from '../../components/forms/keep-typed-values';
import { REPORT_LIMITS, type ReportDraft } from '../../shared/schemas/audit-report';

type CheckStatus = keyof typeof CHECK_STATUS_LABELS;

interface CheckRow {
  id: string;
  title: string;
  status: CheckStatus;
}

interface Props {
  id: string;
  /** Where the report goes (the request's email). */
  recipient: string;
  linkDays: number;
  /** The checks of the newest finished run, worst first. */
  checks: CheckRow[];
  draft: ReportDraft;
  /** The summary is a suggestion written from the top fixes, not yet saved by anyone. */
  suggested?: boolean;
}

const isProblem = (c: CheckRow) => c.status === 'fail' || c.status === 'warn';

export default function ReportEditor(props: Props) {
  const root = useRef<HTMLFormElement>(null);
  useKeepTypedValues(root);
  const [summary, setSummary] = useState(props.draft.summary);
  const [notes, setNotes] = useState<Record<string, string>>(props.draft.notes);
  const [hidden, setHidden] = useState<Set<string>>(new Set(props.draft.hidden));
  const [openNotes, setOpenNotes] = useState<Set<string>>(new Set(Object.keys(props.draft.notes)));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [dirty, setDirty] = useState(false);
  const [busy, setBusy] = useState<'save' | 'send' | undefined>();
  const [confirm, dialog] = useConfirm();

  const changed = <T,>(set: (v: T) => void) => (v: T) => {
    set(v);
    setDirty(true);
  };
  const draft = () => ({ id: props.id, summary, notes, hidden: [...hidden] });
  const shown = props.checks.filter((c) => !hidden.has(c.id)).length;

  async function save(): Promise<boolean> {
    setBusy('save');
    const outcome = await callAction<ReportDraft>(() => actions.admin.audit.saveReport(draft()), { retryForMs: IDEMPOTENT_RETRY_MS });
    setBusy(undefined);
    if (outcome.ok) {
      setErrors({});
      setDirty(false);
      return true;
    }
    if (outcome.kind === 'invalid') setErrors(outcome.fieldErrors);
    toast('error', outcome.message);
    return false;
  }

  async function send() {
    const ok = await confirm(
      'Send the report?',
      <>
        <p>
          <span className="font-medium break-all">{props.recipient}</span> gets an email with a private link to the report as the preview shows it ({shown} of {props.checks.length} checks). The
          link works for {props.linkDays} days.
        </p>
        <p className="mt-2">A lead still at “New” moves to “Contacted”.</p>
      </>,
      'Send report',
      'primary',
    );
    if (!ok) return;
    setBusy('send');
    // Not retried: a second call would send a second email.
    const outcome = await callAction<{ sentTo: string }>(() => actions.admin.audit.sendReport(draft()));
    if (outcome.ok) {
      toast('success', `Report sent to ${outcome.data.sentTo}.`);
      window.location.reload();
      return;
    }
    setBusy(undefined);
    if (outcome.kind === 'invalid') setErrors(outcome.fieldErrors);
    toast('error', outcome.message);
  }

  const toggleHidden = (checkId: string, include: boolean) =>
    changed(setHidden)(
      ((next) => {
        if (include) next.delete(checkId);
        else next.add(checkId);
        return next;
      })(new Set(hidden)),
    );

  const row = (check: CheckRow) => {
    const included = !hidden.has(check.id);
    const noteOpen = openNotes.has(check.id);
    return (
      <li key={check.id} className={`rounded-xl border p-3 ${included ? 'border-slate-200 bg-white' : 'border-dashed border-slate-300 bg-slate-50'}`} data-report-check={check.id}>
        <div className="flex flex-wrap items-center gap-x-3 gap-y-2">
          <label className="flex min-w-0 basis-full items-center gap-2 text-sm sm:flex-1 sm:basis-0">
            <input type="checkbox" checked={included} onChange={(e) => toggleHidden(check.id, e.target.checked)} className="size-4 shrink-0 rounded border-slate-400 text-brand-600" />
            <span className={included ? 'text-ink' : 'text-slate-600 line-through'}>{check.title}</span>
            <span className="sr-only">: include in the report</span>
          </label>
          <span className={`inline-flex items-center rounded-full px-2 py-0.5 text-xs font-semibold ring-1 ring-inset ${CHECK_STATUS_CLASSES[check.status]}`}>{CHECK_STATUS_LABELS[check.status]}</span>
          {!noteOpen && (
            <button type="button" onClick={() => setOpenNotes(new Set(openNotes).add(check.id))} className="text-sm font-medium text-brand-700 hover:underline">
              Add a note<span className="sr-only"> to “{check.title}”</span>
            </button>
          )}
        </div>
        {noteOpen && (
          <TextArea
            className="mt-2"
            label={<span className="text-xs">Your note on “{check.title}”</span>}
            rows={2}
            maxLength={REPORT_LIMITS.note}
            value={notes[check.id] ?? ''}
            onValue={(v) => changed(setNotes)({ ...notes, [check.id]: v })}
            error={errors[`notes.${check.id}`]}
          />
        )}
      </li>
    );
  };

  const problems = props.checks.filter(isProblem);
  const others = props.checks.filter((c) => !isProblem(c));
  return (
    <form
      ref={root}
      className="grid gap-5"
      data-report-editor
      onSubmit={(e) => {
        e.preventDefault();
        void save().then((ok) => ok && toast('success', 'Report draft saved.'));
      }}
    >
      <TextArea
        label="Summary"
        hint={
          props.suggested && !dirty
            ? `A suggestion written from the three fixes that would bring the most clients: make it yours before you send. Plain text, up to ${REPORT_LIMITS.summary} characters.`
            : `Shown at the top of the report, in your words: what you found and what you would do first. Plain text, up to ${REPORT_LIMITS.summary} characters.`
        }
        rows={6}
        maxLength={REPORT_LIMITS.summary}
        value={summary}
        onValue={changed(setSummary)}
        error={errors.summary}
      />
      <fieldset className="grid gap-3">
        <legend className="text-sm font-medium text-ink">
          Checks in the report <span className="font-normal text-slate-600">({shown} of {props.checks.length}; untick one to leave it out)</span>
        </legend>
        {problems.length > 0 && <ul className="grid gap-2">{problems.map(row)}</ul>}
        {others.length > 0 && (
          <details className="rounded-xl border border-slate-200 bg-slate-50 px-3 py-2">
            <summary className="cursor-pointer text-sm font-medium text-ink">Passed and not checked ({others.length})</summary>
            <ul className="mt-2 grid gap-2">{others.map(row)}</ul>
          </details>
        )}
      </fieldset>
      <div className="flex flex-wrap items-center gap-2">
        <button type="submit" disabled={busy !== undefined} className="inline-flex h-10 items-center rounded-lg border border-slate-300 bg-white px-4 text-sm font-semibold text-ink hover:bg-slate-50 disabled:opacity-60">
          {busy === 'save' ? 'Saving…' : 'Save draft'}
        </button>
        <a
          href={`/admin/audit/${props.id}/report`}
          className="inline-flex h-10 items-center rounded-lg border border-slate-300 bg-white px-4 text-sm font-semibold text-ink hover:bg-slate-50"
          onClick={async (e) => {
            // The preview shows the saved draft: what is typed here is saved first.
            if (!dirty) return;
            e.preventDefault();
            const href = e.currentTarget.href;
            if (await save()) window.location.assign(href);
          }}
        >
          Preview
        </a>
        <button type="button" onClick={() => void send()} disabled={busy !== undefined} className="inline-flex h-10 items-center rounded-lg bg-brand-600 px-4 text-sm font-semibold text-white hover:bg-brand-700 disabled:opacity-60">
          {busy === 'send' ? 'Sending…' : 'Send report'}
        </button>
        <span role="status" className="text-sm text-slate-600">
          {dirty ? 'Unsaved changes' : ''}
        </span>
      </div>
      {dialog}
    </form>
  );
}
