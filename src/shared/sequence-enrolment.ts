/**
 * Enrolling beyond the trigger (issue 35, decision 054): who waits for a sequence and its numbers, as the
 * editor shows them; whether the person page offers a sequence, and the sentence that says why not (the
 * server refuses the same cases with the same words).
 */
import { SEQUENCE_STOP_LABELS, type SequenceStopReason, type SequenceTrigger } from './schemas/lead-sequences';

/** A stop that holds for the person whatever the sequence (a sequence turned off is the sequence's matter). */
export type PersonStop = Exclude<SequenceStopReason, 'turned-off'>;

export interface EnrolFacts {
  /** On, with at least one step. */
  sequenceOn: boolean;
  /** In this trigger's sequence now or before (a person goes through it once). */
  enrolled: boolean;
  /** Agreed on the form this trigger relies on (its latest one). */
  consented: boolean;
  stop: PersonStop | undefined;
  /** The address is an admin's (the team is never a lead). */
  team: boolean;
}

export type EnrolRefusal = 'enrolled' | 'no-consent' | PersonStop | 'team' | 'off';

/** Why the person cannot be enrolled, the person's own reasons before the sequence's; undefined: they can. */
export function enrolRefusalOf(f: EnrolFacts): EnrolRefusal | undefined {
  if (f.enrolled) return 'enrolled';
  if (!f.consented) return 'no-consent';
  if (f.stop) return f.stop;
  if (f.team) return 'team';
  if (!f.sequenceOn) return 'off';
  return undefined;
}

/** What consent each trigger needs, as "no consent" says it. */
const NO_CONSENT: Record<SequenceTrigger, string> = {
  'audit-requested': 'they never requested a free audit, whose form asks for the consent',
  'report-sent': 'no audit report was sent to them, and this sequence follows a report',
  'chat-lead': 'they did not tick “Email me follow-ups” on their latest chat contact form',
};

export function enrolRefusalMessage(refusal: EnrolRefusal, trigger: SequenceTrigger): string {
  switch (refusal) {
    case 'enrolled':
      return 'They are already in this sequence (a person goes through each sequence once).';
    case 'no-consent':
      return `No consent recorded: ${NO_CONSENT[trigger]}.`;
    case 'team':
      return 'This is a team member’s address: the team gets no follow-up emails.';
    case 'off':
      return 'The sequence is off: turn it on in Follow-up sequences first.';
    default:
      return `No follow-up emails go to them: ${SEQUENCE_STOP_LABELS[refusal]}.`;
  }
}

/** The people who agreed and a sequence may still take (the editor offers to enrol them). */
export interface Waiting {
  count: number;
  /** When the earliest and the latest of them agreed (ms), null when nobody waits. */
  oldest: number | null;
  newest: number | null;
}

export interface SequenceNumbers {
  /** Everyone ever enrolled, and those still in it. */
  enrolled: number;
  running: number;
  /** Steps that went to the mail queue (skipped steps are not mails). */
  sent: number;
  /** Enrolled people who, since their enrolment, were marked as replied, booked a call, unsubscribed. */
  replied: number;
  booked: number;
  unsubscribed: number;
}
