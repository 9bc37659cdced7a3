/**
 * Enrolling people other than by the trigger (issue 35, decision 054): everyone who already agreed when a
 * sequence is turned on, or one person by hand from their page. Both go through the same SQL as "who is
 * waiting" (enrolment-repository.ts): consent on the trigger's form, never in this sequence before, not the
 * team, no stop (unsubscribed, replied, booked, a client or not a fit). Day 0 is the enrolment: the first
 * step is due then, as the trigger would have timed it. Admin only, one transaction, in the activity log.
 */
import { eq } from 'drizzle-orm';
import { db } from '../../db';
import { leadSequenceEnrollments } from '../../db/schema';
import { jobsQueued } from '../../jobs/queue';
import { normalizeEmail } from '../../../shared/lead-people';
import { SEQUENCE_TRIGGER_LABELS, SEQUENCE_TRIGGERS, type SequenceTrigger } from '../../../shared/schemas/lead-sequences';
import { enrolRefusalMessage, enrolRefusalOf, type EnrolFacts } from '../../../shared/sequence-enrolment';
import { insertActivity } from '../activity/repository';
import { LeadError } from '../leads/errors';
import { isLead, LEAD_CHANGE_ACTIONS, LEAD_ENTITY } from '../leads/work-repository';
import { requireAdmin } from '../users/service';
import { consentsOf, enrolWaiting, NOBODY_WAITING, sequenceNumbers, NO_NUMBERS, waitingCounts } from './enrolment-repository';
import * as repo from './repository';
import { stepDueAt, timingNow, type Timing } from './schedule';

/** The activity log's action for a person enrolled by hand (their timeline shows it). */
const ENROLLED_BY_HAND = 'sequence-enrolled' satisfies (typeof LEAD_CHANGE_ACTIONS)[number];

/** The first step's time for people enrolled now, or a refusal when the sequence is off. */
function firstStepAt(sequence: repo.SequenceRow, timing: Timing): Date {
  const first = sequence.active ? sequence.steps[0] : undefined;
  if (!first) throw new LeadError('CONFLICT', 'The sequence is off: turn it on and save it before enrolling anyone.');
  return stepDueAt(timing.now, first, timing.now, timing.quiet, timing.timeZone);
}

/** The trigger's sequence numbers and who it may still take, as its card shows them. */
export async function sequenceCardNumbers(trigger: SequenceTrigger) {
  const [numbers, waiting] = await Promise.all([sequenceNumbers(), waitingCounts([trigger])]);
  return { numbers: numbers[trigger] ?? NO_NUMBERS, waiting: waiting[trigger] ?? NOBODY_WAITING };
}

/** Enrols everyone who agreed and is waiting for the trigger's sequence (which must be on). Returns how many. */
export async function enrolEveryoneWaiting(actorId: string | undefined, trigger: SequenceTrigger): Promise<{ enrolled: number; firstStepAt: Date }> {
  // Read before the transaction (PGlite has one connection).
  const timing = await timingNow();
  const result = await db().transaction(async (tx) => {
    const actor = await requireAdmin(actorId, tx);
    // Locked: a save turning it off meanwhile waits, then stops everyone this enrolled.
    const sequence = await repo.lockSequence(trigger, tx);
    const at = firstStepAt(sequence, timing);
    const enrolled = await enrolWaiting(tx, trigger, { now: timing.now, firstAt: at });
    if (enrolled > 0) {
      await insertActivity(tx, {
        actorId: actor.id,
        actorEmail: actor.email,
        action: 'enrol',
        entityType: 'lead-sequence',
        entityId: trigger,
        summary: `${enrolled} ${enrolled === 1 ? 'person' : 'people'} who had agreed enrolled in “${SEQUENCE_TRIGGER_LABELS[trigger]}”`,
        before: null,
        after: { enrolled, enrolledAt: timing.now.toISOString(), firstStepAt: at.toISOString() },
      });
    }
    return { enrolled, firstStepAt: at };
  });
  if (result.enrolled > 0) jobsQueued();
  return result;
}

/** Per trigger, what decides whether the person may be enrolled (enrolRefusalOf). */
async function enrolFactsOf(email: string, ex: repo.Executor): Promise<Record<SequenceTrigger, EnrolFacts>> {
  const sequences = await repo.listSequences(ex);
  const enrolled = await ex.select({ trigger: leadSequenceEnrollments.trigger }).from(leadSequenceEnrollments).where(eq(leadSequenceEnrollments.email, email));
  const consents = await consentsOf(email, ex);
  const stop = await repo.stopReasonOf(email, ex);
  const team = await repo.isAdminEmail(email, ex);
  const facts = (trigger: SequenceTrigger): EnrolFacts => {
    const sequence = sequences.find((s) => s.trigger === trigger);
    return { sequenceOn: Boolean(sequence?.active && sequence.steps.length > 0), enrolled: enrolled.some((e) => e.trigger === trigger), consented: consents[trigger], stop, team };
  };
  return Object.fromEntries(SEQUENCE_TRIGGERS.map((t) => [t, facts(t)])) as Record<SequenceTrigger, EnrolFacts>;
}

export interface EnrolOption {
  trigger: SequenceTrigger;
  /** Why it is not offered; undefined: it is. */
  refusal?: string;
}

/** The sequences the person page offers to enrol them in, and why the others are not offered. */
export async function enrolOptionsOf(email: string): Promise<EnrolOption[]> {
  const facts = await enrolFactsOf(normalizeEmail(email), db());
  return SEQUENCE_TRIGGERS.map((trigger) => {
    const refusal = enrolRefusalOf(facts[trigger]);
    return refusal ? { trigger, refusal: enrolRefusalMessage(refusal, trigger) } : { trigger };
  });
}

/** Enrols one person by hand (409 with the reason when the rules refuse it); their timeline says who did it. */
export async function enrolPerson(actorId: string | undefined, email: string, trigger: SequenceTrigger): Promise<{ firstStepAt: Date }> {
  const key = normalizeEmail(email);
  const timing = await timingNow();
  const result = await db().transaction(async (tx) => {
    const actor = await requireAdmin(actorId, tx);
    if (!(await isLead(key, tx))) throw new LeadError('NOT_FOUND', 'No lead has this email address.');
    const sequence = await repo.lockSequence(trigger, tx);
    const refusal = enrolRefusalOf((await enrolFactsOf(key, tx))[trigger]);
    if (refusal) throw new LeadError('CONFLICT', `Not enrolled. ${enrolRefusalMessage(refusal, trigger)}`);
    const at = firstStepAt(sequence, timing);
    if ((await enrolWaiting(tx, trigger, { now: timing.now, firstAt: at }, key)) === 0) throw new LeadError('CONFLICT', 'Not enrolled: they were enrolled meanwhile. Reload the page.');
    await insertActivity(tx, {
      actorId: actor.id,
      actorEmail: actor.email,
      action: ENROLLED_BY_HAND,
      entityType: LEAD_ENTITY,
      entityId: key,
      summary: `Enrolled ${key} in “${SEQUENCE_TRIGGER_LABELS[trigger]}” by hand`,
      before: null,
      after: { trigger, firstStepAt: at.toISOString() },
    });
    return { firstStepAt: at };
  });
  jobsQueued();
  return result;
}
