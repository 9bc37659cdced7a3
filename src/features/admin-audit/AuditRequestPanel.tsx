/**
 * The working side of one audit request (/admin/audit/[id]): the requester's stage and owner, the same
 * pair their lead page shows (issue 35: one person, one stage, one owner; a request keeps no status of its
 * own), and the team's internal notes on the request (never shown to the requester). Each change goes
 * through an admin.* Action and is recorded in the activity log by the service.
 */
import { actions } from 'astro:actions';
import { useRef } from 'react';
import NotesSection, { type NoteItem } from '../../components/admin/NotesSection';
import StageAndOwner from '../../components/admin/StageAndOwner';
import { Section } from '../../components/admin/fields';
import { useKeepTypedValues } from '../../components/forms/keep-typed-values';
import { AUDIT_LIMITS } from '../../shared/schemas/audit';
import type { LeadStage } from '../../shared/schemas/lead-work';

interface Props {
  id: string;
  /** The requester's lower-cased email: their lead. */
  email: string;
  /** False for the team's own requests (an admin trying the form): no lead, so no stage or owner. */
  isLead: boolean;
  stage: LeadStage;
  ownerId: string | null;
  admins: { id: string; label: string }[];
  /** Their lead page, where the stage and owner also show. */
  personHref: string;
  notes: NoteItem[];
  /** The site's time zone (decision 032): the page header names it. */
  timeZone: string;
}

export default function AuditRequestPanel(props: Props) {
  const root = useRef<HTMLDivElement>(null);
  useKeepTypedValues(root);
  return (
    <div ref={root} className="grid gap-6">
      {props.isLead ? (
        <StageAndOwner
          email={props.email}
          stage={props.stage}
          ownerId={props.ownerId}
          admins={props.admins}
          description={
            <>
              The person’s, the same on{' '}
              <a href={props.personHref} className="font-medium text-brand-700 underline underline-offset-2 hover:no-underline">
                their lead page
              </a>{' '}
              and every request of theirs.
            </>
          }
        />
      ) : (
        <Section title="Stage and owner">
          <p className="text-sm text-slate-600" data-team-request>
            Sent by your team (an admin’s account or address): the team is no lead, so it has no stage or owner.
          </p>
        </Section>
      )}
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
