/**
 * Follow-up sequences (issue 23, decision 049): a person is enrolled by a trigger (an audit request, a
 * report sent, a chat lead with the follow-up box ticked) in the transaction that records it, and only
 * with the consent of that form. Each step is a job of the durable queue (`sequence-step`), due on its day
 * after the enrolment and moved out of the site's quiet hours. The step's transaction locks the enrolment,
 * checks again that the person may still be written to (not unsubscribed, replied, booked, a client or not
 * a fit; the sequence still on), claims the step in lead_sequence_sends (its key: one send per step, ever)
 * and queues the mail with the next step's job: a repeated job, a restart or a second process never sends a
 * step twice. To an address nobody confirmed (decision 057) a step carries none of the person's own words
 * and waits while the address had its automatic mails of the day.
 */
import { db } from '../../db';
import { logger } from '../../logger';
import { enqueueMail } from '../../mail/queue';
import { normalizeEmail } from '../../../shared/lead-people';
import { fieldErrorsByPath } from '../../../shared/schemas/catalog';
import { AUDIT_LINK_PREVIEW, fillPlaceholders, placeholdersIn, type LeadMailValues } from '../../../shared/schemas/lead-mail';
import {
  quietHoursSchema,
  SEQUENCE_TRIGGER_LABELS,
  SEQUENCE_TRIGGERS,
  sequenceSchema,
  type QuietHours,
  type SequenceStep,
  type SequenceStopReason,
  type SequenceTrigger,
} from '../../../shared/schemas/lead-sequences';
import { insertActivity } from '../activity/repository';
import { latestReportSentTo } from '../audit-report/repository';
import { newLinkToLatestReport } from '../audit-report/service';
import { LeadError } from '../leads/errors';
import { mailValuesOf, textToHtml } from '../leads/mail';
import { prospectReplyTo } from '../leads/reply-to';
import { LEAD_ENTITY } from '../leads/work-repository';
import { siteTimeZone } from '../site/time-zone';
import { automaticValuesFor, isConfirmedAddress, roomForAutomaticMail } from '../unconfirmed-mail/service';
import { automaticMailValues } from '../../../shared/mail-limits';
import { requireAdmin } from '../users/service';
import { NO_NUMBERS, NOBODY_WAITING, sequenceNumbers, waitingCounts } from './enrolment-repository';
import * as repo from './repository';
import { expectedSendAt, queueStep, stepDueAt, timingNow, type Timing } from './schedule';
import { unsubscribeFooter, unsubscribeHeaders, unsubscribeUrlFor, unsubscribeUrlOf } from './unsubscribe';

/** The mail queue's kind of a sequence mail (the timeline labels it). */
export const SEQUENCE_MAIL_KIND = 'lead-sequence';

const log = logger.child({ module: 'lead-sequences' });

// The team's side: the sequences and the quiet hours --------------------------------------------------------

/**
 * Every trigger's sequence in the order the triggers happen (one without its row yet: off, no steps) with
 * its numbers and how many people who agreed it may still take, the quiet hours, the zone.
 */
export async function sequencesForEditor() {
  const [rows, quietHours, timeZone, numbers, waiting] = await Promise.all([repo.listSequences(), repo.readQuietHours(), siteTimeZone(), sequenceNumbers(), waitingCounts()]);
  const sequences = SEQUENCE_TRIGGERS.map((trigger) => {
    const row = rows.find((r) => r.trigger === trigger);
    return {
      trigger,
      active: row?.active ?? false,
      steps: (row?.steps ?? []).map((s) => ({ delayDays: s.delayDays, subject: s.subject, body: s.body })),
      numbers: numbers[trigger] ?? NO_NUMBERS,
      waiting: waiting[trigger] ?? NOBODY_WAITING,
    };
  });
  return { sequences, quietHours, timeZone };
}

/** Saves one trigger's sequence (admin, activity log). Enrolments under way follow the new steps. */
export async function saveSequence(actorId: string | undefined, trigger: SequenceTrigger, input: unknown) {
  const parsed = sequenceSchema.safeParse(input);
  if (!parsed.success) throw new LeadError('INVALID', 'Please correct the sequence.', fieldErrorsByPath(parsed.error.issues));
  return db().transaction(async (tx) => {
    const actor = await requireAdmin(actorId, tx);
    const before = await repo.lockSequence(trigger, tx);
    const saved = await repo.updateSequence(tx, trigger, parsed.data);
    // Turned off: the people in it stop now (their page says so), not when their next step would run.
    const stopped = before.active && !saved.active ? await repo.stopEnrollments(tx, { trigger }, 'turned-off', new Date()) : 0;
    await insertActivity(tx, {
      actorId: actor.id,
      actorEmail: actor.email,
      action: 'update',
      entityType: 'lead-sequence',
      entityId: trigger,
      summary: `Follow-up sequence “${SEQUENCE_TRIGGER_LABELS[trigger]}”${before.active !== saved.active ? (saved.active ? ' turned on' : ' turned off') : ''}`,
      before: { active: before.active, steps: before.steps },
      after: { active: saved.active, steps: saved.steps, ...(stopped ? { enrolmentsStopped: stopped } : {}) },
    });
    return saved;
  });
}

export async function saveQuietHours(actorId: string | undefined, input: unknown): Promise<QuietHours> {
  const parsed = quietHoursSchema.safeParse(input);
  if (!parsed.success) throw new LeadError('INVALID', 'Please correct the quiet hours.', fieldErrorsByPath(parsed.error.issues));
  return db().transaction(async (tx) => {
    const actor = await requireAdmin(actorId, tx);
    const before = await repo.readQuietHours(tx);
    await repo.writeQuietHours(tx, parsed.data);
    await insertActivity(tx, { actorId: actor.id, actorEmail: actor.email, action: 'update', entityType: 'lead-sequence', entityId: 'quiet-hours', summary: `Sequence quiet hours ${parsed.data.start}–${parsed.data.end}`, before, after: parsed.data });
    return parsed.data;
  });
}

// Sending a step ----------------------------------------------------------------------------------------

const WHY: Record<SequenceTrigger, string> = {
  'audit-requested': 'you asked for a free audit and agreed to be contacted about it',
  'report-sent': 'you asked for a free audit and agreed to be contacted about it',
  'chat-lead': 'you asked for follow-ups in our chat',
};

export type StepOutcome = 'sent' | 'skipped' | 'stopped' | 'completed' | 'deferred' | 'not-due';

/**
 * Runs step `step` of an enrolment: the job's work, or an admin's "Send now" (`force`: the quiet hours and
 * the day are not waited for). Everything in one transaction; see the module's comment.
 */
export async function runSequenceStep(enrollmentId: string, step: number, options: { now?: Date; force?: { actorId: string; actorEmail: string } } = {}): Promise<StepOutcome> {
  const now = options.now ?? new Date();
  // Read before the transaction (PGlite has one connection): the clock, the quiet hours and the person's
  // placeholders; the enrolment itself is read again under its lock.
  const peek = await repo.findEnrollment(enrollmentId);
  if (!peek) return 'not-due';
  const [timing, values] = await Promise.all([timingNow(now), valuesOf(peek.email)]);
  return db().transaction(async (tx): Promise<StepOutcome> => {
    const enrollment = await repo.lockEnrollment(enrollmentId, tx);
    if (!enrollment || enrollment.status !== 'active' || enrollment.nextStep !== step) return 'not-due';
    const trigger = enrollment.trigger as SequenceTrigger;
    const sequence = await repo.findSequence(trigger, tx);
    const stop = !sequence?.active ? 'turned-off' : await repo.stopReasonOf(enrollment.email, tx);
    if (stop) {
      await repo.updateEnrollment(tx, enrollment.id, { status: 'stopped', stopReason: stop, nextAt: null, endedAt: now });
      return 'stopped';
    }
    const definition = sequence!.steps[step];
    if (!definition) {
      await repo.updateEnrollment(tx, enrollment.id, { status: 'completed', nextAt: null, endedAt: now });
      return 'completed';
    }
    if (!options.force) {
      // The quiet hours or the steps' days changed since the job was queued: queue it for its new time.
      const dueAt = stepDueAt(enrollment.enrolledAt, definition, now, timing.quiet, timing.timeZone);
      if (dueAt.getTime() > now.getTime()) {
        await queueStep(tx, enrollment, step, definition, timing, `:${dueAt.getTime()}`);
        return 'deferred';
      }
    }
    const outcome = await sendStep(tx, enrollment, step, definition, values, timing, !options.force);
    if (outcome === 'deferred') return outcome;
    if (options.force) {
      await insertActivity(tx, { actorId: options.force.actorId, actorEmail: options.force.actorEmail, entityType: LEAD_ENTITY, entityId: enrollment.email, action: 'sequence-send-now', summary: `Sent step ${step + 1} of “${SEQUENCE_TRIGGER_LABELS[trigger]}” to ${enrollment.email} now`, before: null, after: { trigger, step } });
    }
    const next = sequence!.steps[step + 1];
    if (next) await queueStep(tx, enrollment, step + 1, next, timing);
    else await repo.updateEnrollment(tx, enrollment.id, { nextStep: step + 1, status: 'completed', nextAt: null, endedAt: now });
    return outcome;
  });
}

const NO_REPORT = 'no audit report was sent to them yet';
const needsReport = (step: SequenceStep) => placeholdersIn(`${step.subject}\n${step.body}`).includes('audit_link');
type PersonValues = Awaited<ReturnType<typeof mailValuesOf>>;

/**
 * The person's placeholders as a sequence fills them: a sequence mails an address nobody may have
 * confirmed, so their name and business stay neutral until it is (decision 057).
 */
const valuesOf = async (email: string): Promise<PersonValues> => automaticValuesFor(email, await mailValuesOf(email));

/**
 * A step's mail as it goes out: the placeholders filled for the person (a sequence is sent by the site, so
 * {{sender_name}} is the site's name), then the footer that says why they get it, with their unsubscribe
 * link. The sender and the person page's preview both make it here.
 */
function stepMail(trigger: SequenceTrigger, definition: SequenceStep, personValues: PersonValues, auditLink: string | undefined, unsubscribeUrl: string) {
  const values: Partial<LeadMailValues> = { ...personValues, sender_name: personValues.site_name, ...(auditLink ? { audit_link: auditLink } : {}) };
  const text = fillPlaceholders(definition.body, values) + unsubscribeFooter(personValues.site_name, WHY[trigger] ?? WHY['audit-requested'], 'of these follow-up emails', unsubscribeUrl);
  return { subject: fillPlaceholders(definition.subject, values), text };
}

/**
 * Claims the step and queues its mail; a step that needs a report none was sent for is skipped, and noted.
 * `capped`: the day's cap of an unconfirmed address applies (not to an admin's "Send now"); past it the
 * step waits for the moment the cap frees, moved out of the quiet hours.
 */
async function sendStep(tx: repo.Executor, enrollment: repo.EnrollmentRow, step: number, definition: SequenceStep, personValues: PersonValues, timing: Timing, capped: boolean): Promise<'sent' | 'skipped' | 'deferred'> {
  const now = timing.now;
  // Before a report link is made for it (a new link is a write of its own).
  if (capped) {
    const room = await roomForAutomaticMail(tx, enrollment.email, now);
    if (!room.ok) {
      await queueStep(tx, enrollment, step, definition, { ...timing, now: room.freesAt }, `:${room.freesAt.getTime()}`);
      log.info({ enrollment: enrollment.id, step, until: room.freesAt }, 'sequence step waits: the daily cap of an unconfirmed address');
      return 'deferred';
    }
  }
  let auditLink: string | undefined;
  if (needsReport(definition)) {
    auditLink = await newLinkToLatestReport(tx, enrollment.email, null);
    if (!auditLink) {
      await repo.claimSend(tx, { enrollmentId: enrollment.id, step, mailId: null, skipReason: NO_REPORT, at: now });
      log.info({ enrollment: enrollment.id, step }, 'sequence step skipped: no report sent');
      return 'skipped';
    }
  }
  const mailId = crypto.randomUUID();
  if (!(await repo.claimSend(tx, { enrollmentId: enrollment.id, step, mailId, at: now }))) return 'skipped';
  const url = await unsubscribeUrlFor(tx, enrollment.email);
  const { subject, text } = stepMail(enrollment.trigger as SequenceTrigger, definition, personValues, auditLink, url);
  await enqueueMail(tx, {
    id: mailId,
    kind: SEQUENCE_MAIL_KIND,
    to: enrollment.email,
    subject,
    text,
    html: textToHtml(text),
    replyTo: await prospectReplyTo(tx, enrollment.email),
    headers: unsubscribeHeaders(url),
    at: now,
  });
  return 'sent';
}

/** An admin's "Send now" of the person's next step (refused once the sequence has ended). */
export async function sendNextStepNow(actorId: string | undefined, enrollmentId: string): Promise<StepOutcome> {
  const actor = await requireAdmin(actorId, db());
  const enrollment = await repo.findEnrollment(enrollmentId);
  if (!enrollment) throw new LeadError('NOT_FOUND', 'This enrolment no longer exists.');
  if (enrollment.status !== 'active') throw new LeadError('CONFLICT', 'This sequence has ended for them: nothing more is sent.');
  const outcome = await runSequenceStep(enrollment.id, enrollment.nextStep, { force: { actorId: actor.id, actorEmail: actor.email } });
  if (outcome === 'stopped') throw new LeadError('CONFLICT', 'This sequence has stopped for them: nothing more is sent.');
  if (outcome === 'not-due') throw new LeadError('CONFLICT', 'This step was sent meanwhile: reload the page.');
  return outcome;
}

// The person page ---------------------------------------------------------------------------------------

/** The next step of a running enrolment as the person will get it, and when; `skip`: it will be skipped, and why. */
export interface NextMail {
  step: number;
  at: Date;
  subject: string;
  text: string;
  skip?: string;
}

/** The person's enrolments, with the next mail of each running one filled in as the sender will fill it. */
export async function sequencesOf(email: string, now = new Date()) {
  const key = normalizeEmail(email);
  const [enrollments, unsubscribedAt, sequences, addressConfirmed] = await Promise.all([repo.enrollmentsOf(key), repo.unsubscribedAtOf(key), repo.listSequences(), isConfirmedAddress(key)]);
  const stepsOf = new Map(sequences.map((s) => [s.trigger, s.steps]));
  const nextStepOf = (e: (typeof enrollments)[number]) => (e.status === 'active' ? stepsOf.get(e.trigger)?.[e.nextStep] : undefined);
  // Only for someone with a mail to come: the placeholders' values, the clock and quiet hours, a report.
  const previews = enrollments.some(nextStepOf) ? await Promise.all([mailValuesOf(key).then((v) => automaticMailValues(v, addressConfirmed)), timingNow(now), latestReportSentTo(key)]) : undefined;
  const nextMailOf = (e: (typeof enrollments)[number]): NextMail | null => {
    const definition = nextStepOf(e);
    if (!definition || !previews) return null;
    const [values, timing, report] = previews;
    const at = expectedSendAt(e, definition, timing);
    if (needsReport(definition) && !report) return { step: e.nextStep, at, subject: '', text: '', skip: NO_REPORT };
    return { step: e.nextStep, at, ...stepMail(e.trigger as SequenceTrigger, definition, values, AUDIT_LINK_PREVIEW, unsubscribeUrlOf(key)) };
  };
  return {
    unsubscribedAt,
    /** Whether the person confirmed their address: until then the previews leave out what they typed. */
    addressConfirmed,
    enrollments: enrollments.map((e) => ({
      id: e.id,
      trigger: e.trigger as SequenceTrigger,
      status: e.status as 'active' | 'completed' | 'stopped',
      stopReason: e.stopReason as SequenceStopReason | '',
      enrolledAt: e.enrolledAt,
      endedAt: e.endedAt,
      nextStep: e.nextStep,
      nextAt: e.nextAt,
      steps: stepsOf.get(e.trigger)?.length ?? 0,
      sent: e.sends.filter((s) => s.mailId).length,
      skipped: e.sends.filter((s) => !s.mailId).map((s) => ({ step: s.step, reason: s.skipReason })),
      next: nextMailOf(e),
    })),
  };
}
