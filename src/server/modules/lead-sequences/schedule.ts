/**
 * When sequence steps go out, and enrolling (decision 049): the part of the sequences the modules that
 * enrol or stop people call in their own transactions (the audit request, the report sent, the chat lead,
 * a booking, the lead's stage). The step's work is in ./service.ts, loaded by the job when it runs.
 */
import { defineJobKind, doublingDelay, enqueueJob } from '../../jobs/queue';
import { minuteOfDayIn } from '../../../shared/dates';
import { normalizeEmail } from '../../../shared/lead-people';
import { MISSED_WHILE_BOOKED, minutesUntilQuietEnds, resumeStepOf, type QuietHours, type SequenceStep, type SequenceStopReason, type SequenceTrigger } from '../../../shared/schemas/lead-sequences';
import { siteTimeZone } from '../site/time-zone';
import * as repo from './repository';

export const SEQUENCE_STEP_JOB = 'sequence-step';
const DAY_MS = 86_400_000;

// When a step goes out ---------------------------------------------------------------------------------

/** `at`, or the end of the quiet hours when `at` falls in them (site time zone). */
export function outsideQuietHours(at: Date, quiet: QuietHours, timeZone: string): Date {
  const wait = minutesUntilQuietEnds(minuteOfDayIn(at, timeZone), quiet);
  if (wait === 0) return at;
  // To the minute the quiet hours end (seconds dropped); across a clock change this is an hour off, still outside them.
  return new Date(Math.floor(at.getTime() / 60_000) * 60_000 + wait * 60_000);
}

/** When step `step` of an enrolment made at `enrolledAt` is due: its day, not before `now`, outside the quiet hours. */
export function stepDueAt(enrolledAt: Date, step: Pick<SequenceStep, 'delayDays'>, now: Date, quiet: QuietHours, timeZone: string): Date {
  const due = new Date(Math.max(enrolledAt.getTime() + step.delayDays * DAY_MS, now.getTime()));
  return outsideQuietHours(due, quiet, timeZone);
}

/**
 * When the step an enrolment waits for will go out: its job runs at `nextAt` (at once when that has passed)
 * and the step's run re-times it as stepDueAt says (the days or the quiet hours changed since it was queued).
 */
export function expectedSendAt(enrollment: { enrolledAt: Date; nextAt: Date | null }, step: Pick<SequenceStep, 'delayDays'>, timing: Timing): Date {
  const runs = new Date(Math.max(timing.now.getTime(), enrollment.nextAt?.getTime() ?? 0));
  return stepDueAt(enrollment.enrolledAt, step, runs, timing.quiet, timing.timeZone);
}

export interface Timing {
  now: Date;
  quiet: QuietHours;
  timeZone: string;
}

/** The clock, quiet hours and zone a step is timed by: read before the caller's transaction (PGlite has one connection). */
export const timingNow = async (now = new Date()): Promise<Timing> => ({ now, quiet: await repo.readQuietHours(), timeZone: await siteTimeZone() });

export async function queueStep(tx: repo.Executor, enrollment: Pick<repo.EnrollmentRow, 'id' | 'enrolledAt'>, index: number, step: SequenceStep, timing: Timing, suffix = '') {
  const runAt = stepDueAt(enrollment.enrolledAt, step, timing.now, timing.quiet, timing.timeZone);
  await repo.updateEnrollment(tx, enrollment.id, { nextStep: index, nextAt: runAt });
  await enqueueJob(tx, { kind: SEQUENCE_STEP_JOB, id: `${SEQUENCE_STEP_JOB}:${enrollment.id}:${index}${suffix}`, payload: { enrollmentId: enrollment.id, step: index }, runAt, ifAbsent: true });
}

// Enrolling ---------------------------------------------------------------------------------------------

export interface Enrolment {
  email: string;
  name: string;
  /** The audit request or conversation. */
  refId: string | null;
  /** When they agreed on the form that made them a lead; null: they did not, and are not enrolled. */
  consentedAt: Date | null;
}

/**
 * Enrols the person in the trigger's sequence, in the caller's transaction, when it is on, they consented,
 * they were never in it before, they are not an admin, and nothing stops it (unsubscribed, replied, booked, a
 * client). Returns
 * whether they were enrolled. `timing` is read before the transaction (PGlite has one connection).
 */
export async function enrollInSequence(tx: repo.Executor, trigger: SequenceTrigger, person: Enrolment, timing: Timing): Promise<boolean> {
  if (!person.consentedAt) return false;
  const email = normalizeEmail(person.email);
  const sequence = await repo.findSequence(trigger, tx);
  const first = sequence?.steps[0];
  if (!sequence?.active || !first) return false;
  // The team is never a lead (decision 032): an admin trying the forms gets no nurturing mail.
  if ((await repo.isAdminEmail(email, tx)) || (await repo.stopReasonOf(email, tx))) return false;
  const enrollment = await repo.insertEnrollment(tx, { trigger, email, name: person.name, refId: person.refId, consentedAt: person.consentedAt, enrolledAt: timing.now });
  if (!enrollment) return false;
  await queueStep(tx, enrollment, 0, first, timing);
  return true;
}

/** Stops the person's running sequences (in the caller's transaction): a booking, a reply, a stage. */
export const stopSequencesOf = (tx: repo.Executor, email: string, reason: SequenceStopReason, now = new Date()) => repo.stopEnrollments(tx, { email: normalizeEmail(email) }, reason, now);

/**
 * A booked call was cancelled (in the caller's transaction, after the stage went back): the person's
 * sequences that a booking stopped go on, when nothing else stops them now and their sequence is still on,
 * from the first step still within its schedule (resumeStepOf); the steps whose day passed meanwhile are
 * recorded as skipped, and an enrolment with no step left stays stopped. Returns the resumed triggers.
 */
export async function resumeSequencesAfterCancelledCall(tx: repo.Executor, email: string, timing: Timing): Promise<SequenceTrigger[]> {
  const key = normalizeEmail(email);
  if (await repo.stopReasonOf(key, tx)) return [];
  const resumed: SequenceTrigger[] = [];
  for (const enrollment of await repo.lockStoppedEnrollments(tx, key, 'booked')) {
    const sequence = await repo.findSequence(enrollment.trigger, tx);
    const next = sequence?.active ? resumeStepOf(sequence.steps, enrollment.nextStep, enrollment.enrolledAt, timing.now) : undefined;
    if (next === undefined) continue;
    for (let missed = enrollment.nextStep; missed < next; missed++) {
      await repo.claimSend(tx, { enrollmentId: enrollment.id, step: missed, mailId: null, skipReason: MISSED_WHILE_BOOKED, at: timing.now });
    }
    await repo.updateEnrollment(tx, enrollment.id, { status: 'active', stopReason: '', endedAt: null });
    // A job of its own (the step's first one may have run and found it stopped); if that one still waits, whichever runs first sends the step, once.
    await queueStep(tx, enrollment, next, sequence!.steps[next]!, timing, `:resumed:${timing.now.getTime()}`);
    resumed.push(enrollment.trigger as SequenceTrigger);
  }
  return resumed;
}

defineJobKind<{ enrollmentId: string; step: number }>(SEQUENCE_STEP_JOB, {
  maxAttempts: 10,
  retryDelayMs: doublingDelay(60_000, 60 * 60_000),
  leaseMs: 5 * 60_000,
  run: async ({ enrollmentId, step }, _job, now) => {
    // Loaded when a step runs: the sending side needs the report links, which enrol people themselves.
    const { runSequenceStep } = await import('./service');
    await runSequenceStep(enrollmentId, step, { now });
  },
});

