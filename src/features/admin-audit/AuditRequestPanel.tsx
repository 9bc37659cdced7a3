/**
 * The working side of one audit request (/admin/audit/[id]): its status (any of the four, forwards or
 * back), who it is assigned to, and the team's internal notes (never shown to the requester). Each change
 * goes through an admin.audit.* Action and is recorded in the activity log by the service.
 */
import { actions } from 'astro:actions';
import { useState } from 'react';
import { callAction, IDEMPOTENT_RETRY_MS } from '../../components/admin/call-action';
import NotesSection, { type NoteItem } from '../../components/admin/NotesSection';
import { Section, SelectInput } from '../../components/admin/fields';
import { toast } from '../../components/admin/toasts';
import { AUDIT_LIMITS, AUDIT_STATUS_LABELS, AUDIT_STATUSES, type AuditStatus } from '../../shared/schemas/audit';


interface Props {
  id: string;
  status: AuditStatus;
  assigneeId: string | null;
  admins: { id: string; label: string }[];
  notes: NoteItem[];
  /** The site's time zone (decision 032): the page header names it. */
  timeZone: string;
}

const NOBODY = '';

export default function AuditRequestPanel(props: Props) {
  const [status, setStatus] = useState<AuditStatus>(props.status);
  const [assignee, setAssignee] = useState(props.assigneeId ?? NOBODY);
  const [busy, setBusy] = useState<'status' | 'assign' | undefined>();

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
      <NotesSection
        notes={props.notes}
        maxLength={AUDIT_LIMITS.note}
        timeZone={props.timeZone}
        description="Only admins see these; the requester never does."
        add={(body) => actions.admin.audit.addNote({ id: props.id, body })}
        itemTestId="audit-note"
      />
    </div>
  );
}
