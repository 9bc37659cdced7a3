/**
 * The working side of one audit request (/admin/audit/[id]): its status (any of the four, forwards or
 * back), who it is assigned to, and the team's internal notes (never shown to the requester). Each change
 * goes through an admin.audit.* Action and is recorded in the activity log by the service.
 */
import { actions } from 'astro:actions';
import { useRef } from 'react';
import NotesSection, { type NoteItem } from '../../components/admin/NotesSection';
import { Section, SelectInput } from '../../components/admin/fields';
import { useInstantSave } from '../../components/admin/use-instant-save';
import { useKeepTypedValues } from '../../components/forms/keep-typed-values';
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
  const root = useRef<HTMLDivElement>(null);
  useKeepTypedValues(root);
  // Setting a status or an assignee is idempotent: safe to retry through a dropped connection.
  const status = useInstantSave<AuditStatus>(props.status, (next) => actions.admin.audit.setStatus({ id: props.id, status: next }), (next) => `Status: ${AUDIT_STATUS_LABELS[next]}.`);
  const assignee = useInstantSave(
    props.assigneeId ?? NOBODY,
    (next) => actions.admin.audit.assign({ id: props.id, assigneeId: next === NOBODY ? null : next }),
    (next) => (next === NOBODY ? 'Unassigned.' : `Assigned to ${props.admins.find((a) => a.id === next)?.label ?? 'the admin'}.`),
  );

  return (
    <div ref={root} className="grid gap-6">
      <Section title="Status and owner">
        <div className="grid gap-4">
          <SelectInput
            label="Status"
            value={status.value}
            onValue={(v) => void status.change(v)}
            options={AUDIT_STATUSES.map((s) => ({ value: s, label: AUDIT_STATUS_LABELS[s] }))}
            hint={status.saving ? 'Saving…' : 'Changes are saved at once and recorded in the activity log.'}
          />
          <SelectInput
            label="Assigned to"
            value={assignee.value}
            onValue={(v) => void assignee.change(v)}
            options={[{ value: NOBODY, label: 'Nobody' }, ...props.admins.map((a) => ({ value: a.id, label: a.label }))]}
            hint={assignee.saving ? 'Saving…' : 'Any admin of the site.'}
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
