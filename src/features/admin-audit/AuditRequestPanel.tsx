/**
 * The working side of one audit request (/admin/audit/[id]): its status (any of the four, forwards or
 * back), who it is assigned to, and the team's internal notes (never shown to the requester). Each change
 * goes through an admin.audit.* Action and is recorded in the activity log by the service.
 */
import { actions } from 'astro:actions';
import { useState } from 'react';
import { callAction, IDEMPOTENT_RETRY_MS } from '../../components/admin/call-action';
import { Section, SelectInput, TextArea } from '../../components/admin/fields';
import { toast } from '../../components/admin/toasts';
import { formatInZone } from '../../shared/dates';
import { AUDIT_LIMITS, AUDIT_STATUS_LABELS, AUDIT_STATUSES, type AuditStatus } from '../../shared/schemas/audit';

export interface PanelNote {
  id: string;
  authorName: string;
  body: string;
  createdAt: string;
}

interface Props {
  id: string;
  status: AuditStatus;
  assigneeId: string | null;
  admins: { id: string; label: string }[];
  notes: PanelNote[];
  /** The site's time zone (decision 032): the page header names it. */
  timeZone: string;
}

const NOBODY = '';

export default function AuditRequestPanel(props: Props) {
  const [status, setStatus] = useState<AuditStatus>(props.status);
  const [assignee, setAssignee] = useState(props.assigneeId ?? NOBODY);
  const [notes, setNotes] = useState(props.notes);
  const [draft, setDraft] = useState('');
  const [noteError, setNoteError] = useState<string | undefined>();
  const [busy, setBusy] = useState<'status' | 'assign' | 'note' | undefined>();

  async function changeStatus(next: AuditStatus) {
    const previous = status;
    setStatus(next);
    setBusy('status');
    // Setting a status is idempotent: safe to retry through a dropped connection.
    const outcome = await callAction(() => actions.admin.audit.setStatus({ id: props.id, status: next }), { retryForMs: IDEMPOTENT_RETRY_MS });
    setBusy(undefined);
    if (outcome.ok) toast('success', `Status: ${AUDIT_STATUS_LABELS[next]}.`);
    else {
      setStatus(previous);
      toast('error', outcome.message);
    }
  }

  async function changeAssignee(next: string) {
    const previous = assignee;
    setAssignee(next);
    setBusy('assign');
    const outcome = await callAction(() => actions.admin.audit.assign({ id: props.id, assigneeId: next === NOBODY ? null : next }), { retryForMs: IDEMPOTENT_RETRY_MS });
    setBusy(undefined);
    if (outcome.ok) toast('success', next === NOBODY ? 'Unassigned.' : `Assigned to ${props.admins.find((a) => a.id === next)?.label ?? 'the admin'}.`);
    else {
      setAssignee(previous);
      toast('error', outcome.message);
    }
  }

  async function addNote() {
    const body = draft.trim();
    if (!body) {
      setNoteError('Note must not be empty');
      return;
    }
    setBusy('note');
    // Not retried: a note sent twice would be stored twice.
    const outcome = await callAction<PanelNote>(() => actions.admin.audit.addNote({ id: props.id, body }));
    setBusy(undefined);
    if (outcome.ok) {
      setNotes((n) => [...n, outcome.data]);
      setDraft('');
      setNoteError(undefined);
      toast('success', 'Note added.');
    } else if (outcome.kind === 'invalid') setNoteError(outcome.fieldErrors.body ?? outcome.message);
    else toast('error', outcome.message);
  }

  return (
    <div className="grid gap-6">
      <Section title="Status and owner">
        <div className="grid gap-4">
          <SelectInput
              label="Status"
              value={status}
              onValue={(v) => void changeStatus(v)}
              options={AUDIT_STATUSES.map((s) => ({ value: s, label: AUDIT_STATUS_LABELS[s] }))}
            hint={busy === 'status' ? 'Saving…' : 'Changes are saved at once and recorded in the activity log.'}
          />
          <SelectInput
            label="Assigned to"
            value={assignee}
            onValue={(v) => void changeAssignee(v)}
            options={[{ value: NOBODY, label: 'Nobody' }, ...props.admins.map((a) => ({ value: a.id, label: a.label }))]}
            hint={busy === 'assign' ? 'Saving…' : 'Any admin of the site.'}
          />
        </div>
      </Section>
      <Section title="Internal notes" description="Only admins see these; the requester never does.">
        {notes.length === 0 ? (
          <p className="text-sm text-slate-600">No notes yet.</p>
        ) : (
          <ol className="grid gap-3" aria-label="Notes, oldest first">
            {notes.map((n) => (
              <li key={n.id} className="rounded-lg border border-slate-200 bg-slate-50 p-3" data-testid="audit-note">
                <p className="text-xs text-slate-600">
                  <span className="font-semibold text-slate-800">{n.authorName}</span> · <time dateTime={n.createdAt}>{formatInZone(n.createdAt, props.timeZone)}</time>
                </p>
                <p className="mt-1 text-sm break-words whitespace-pre-wrap text-ink">{n.body}</p>
              </li>
            ))}
          </ol>
        )}
        <form
          className="mt-4 grid gap-3"
          onSubmit={(e) => {
            e.preventDefault();
            void addNote();
          }}
        >
          <TextArea label="New note" value={draft} onValue={setDraft} error={noteError} rows={3} maxLength={AUDIT_LIMITS.note} hint={`Up to ${AUDIT_LIMITS.note} characters.`} />
          <div>
            <button type="submit" disabled={busy === 'note'} className="inline-flex h-10 items-center rounded-lg bg-brand-600 px-4 text-sm font-semibold text-white hover:bg-brand-700 disabled:opacity-60">
              {busy === 'note' ? 'Adding…' : 'Add note'}
            </button>
          </div>
        </form>
      </Section>
    </div>
  );
}
