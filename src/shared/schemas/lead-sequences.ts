/**
 * Follow-up sequences (issue 23, decision 049): per trigger, a few mails sent on given days after a person
 * is enrolled, with the placeholders of the team's templates (./lead-mail.ts). Shared by the editor, the
 * person page and the server, which validates, enrolls and sends.
 */
import { z } from 'astro/zod';
import { UNCONFIRMED_PERSON_VALUES } from '../mail-limits';
import { LEAD_MAIL_PLACEHOLDERS, leadMailSchema } from './lead-mail';

export const SEQUENCE_TRIGGERS = ['audit-requested', 'report-sent', 'chat-lead'] as const;
export type SequenceTrigger = (typeof SEQUENCE_TRIGGERS)[number];
export const isSequenceTrigger = (value: string): value is SequenceTrigger => (SEQUENCE_TRIGGERS as readonly string[]).includes(value);

export const SEQUENCE_TRIGGER_LABELS: Record<SequenceTrigger, string> = {
  'audit-requested': 'After an audit request',
  'report-sent': 'After the audit report is sent',
  'chat-lead': 'After a chat lead',
};

/** Who is enrolled by each trigger, for the editor. */
export const SEQUENCE_TRIGGER_HINTS: Record<SequenceTrigger, string> = {
  'audit-requested': 'Starts when someone requests a free audit (they agree to be contacted on the form).',
  'report-sent': 'Starts when you send someone their audit report.',
  'chat-lead': 'Starts when a chat visitor leaves their details and ticks “Email me follow-ups”.',
};


/**
 * The templates' placeholders as a sequence fills them: it is sent by the site, not by an admin, to an
 * address nobody may have confirmed, so what the person typed fills in only once they confirmed it
 * (decision 057); until then the neutral words of UNCONFIRMED_PERSON_VALUES.
 */
export const SEQUENCE_PLACEHOLDERS = {
  ...LEAD_MAIL_PLACEHOLDERS,
  first_name: `Their first name once their address is confirmed (else “${UNCONFIRMED_PERSON_VALUES.first_name}”)`,
  name: `Their full name once their address is confirmed (else “${UNCONFIRMED_PERSON_VALUES.name}”)`,
  business: `Their business name once their address is confirmed (else “${UNCONFIRMED_PERSON_VALUES.business}”)`,
  sender_name: 'The site’s name (a sequence is sent by the site)',
} as const;

/** Why a person's next sequence mail leaves out their name and business, as their page says it. */
export const UNCONFIRMED_ADDRESS_NOTE = 'Their name and business stay out until they confirm this address (a verified account, their report opened, an unsubscribe link used): anyone can type someone else’s address into a form.';

/** Why the person's own placeholders wait, as the editor says it. */
export const SEQUENCE_CONFIRMATION_NOTE =
  'Anyone can type a stranger’s address into a form, so a sequence uses the name and business a person typed only once their address is confirmed: they verified a member account, opened their audit report, or used an unsubscribe link we mailed them. Until then {{first_name}} reads “there”, and such an address gets only a few automatic emails a day: a step past that waits for the next day.';

export const SEQUENCE_STEPS_MAX = 5;
export const SEQUENCE_DELAY_MAX_DAYS = 60;

export const sequenceStepSchema = leadMailSchema.extend({
  // A form's text as a number; an empty field is no number (Number('') would be day 0).
  delayDays: z.preprocess(
    (v) => (typeof v === 'string' ? (v.trim() === '' ? undefined : Number(v)) : v),
    z
      .number({ error: 'Enter a number of days' })
      .int('Enter whole days')
      .min(0, 'Enter 0 or more days')
      .max(SEQUENCE_DELAY_MAX_DAYS, `Enter at most ${SEQUENCE_DELAY_MAX_DAYS} days`),
  ),
});
export type SequenceStep = z.output<typeof sequenceStepSchema>;

export const sequenceSchema = z
  .object({
    active: z.boolean(),
    steps: z.array(sequenceStepSchema).max(SEQUENCE_STEPS_MAX, `Keep at most ${SEQUENCE_STEPS_MAX} steps`),
  })
  .superRefine((s, ctx) => {
    if (s.active && s.steps.length === 0) ctx.addIssue({ code: 'custom', path: ['active'], message: 'Add a step before turning the sequence on' });
    s.steps.forEach((step, i) => {
      const before = s.steps[i - 1];
      // Days since enrolment: each step strictly later than the one before, so no two mails in one day.
      if (before && step.delayDays <= before.delayDays) ctx.addIssue({ code: 'custom', path: ['steps', i, 'delayDays'], message: `Send this step after day ${before.delayDays} (the step before)` });
    });
  });
export type SequenceInput = z.output<typeof sequenceSchema>;

const clock = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'Enter a time such as 20:00');

/** No sequence mail is sent from `start` to `end` (site time zone; may span midnight). */
export const quietHoursSchema = z
  .object({ start: clock, end: clock })
  .refine((q) => q.start !== q.end, { path: ['end'], message: 'End the quiet hours at another time than they start' });
export type QuietHours = z.output<typeof quietHoursSchema>;
export const DEFAULT_QUIET_HOURS: QuietHours = { start: '20:00', end: '08:00' };

const minutesOf = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/** Whether a minute of the day (0–1439) falls in the quiet hours [start, end). */
export function isQuietMinute(minute: number, quiet: QuietHours): boolean {
  const start = minutesOf(quiet.start);
  const end = minutesOf(quiet.end);
  return start < end ? minute >= start && minute < end : minute >= start || minute < end;
}

/** Minutes from a quiet minute to the end of the quiet hours (0 when not quiet). */
export function minutesUntilQuietEnds(minute: number, quiet: QuietHours): number {
  if (!isQuietMinute(minute, quiet)) return 0;
  return (minutesOf(quiet.end) - minute + 1440) % 1440;
}

/** Why an enrolment ended early, as the person page says it. */
export const SEQUENCE_STOP_LABELS = {
  booked: 'they booked a call',
  replied: 'they replied',
  unsubscribed: 'they unsubscribed',
  stage: 'they are a client or not a fit',
  'turned-off': 'the sequence was turned off',
} as const;
export type SequenceStopReason = keyof typeof SEQUENCE_STOP_LABELS;

/** The visible link and the one-click unsubscribe body (RFC 8058). */
export const ONE_CLICK_BODY = 'List-Unsubscribe=One-Click';
export const unsubscribePath = (token: string) => `/unsubscribe/${token}`;

const DAY_MS = 86_400_000;
/** How late a step may still go out when its sequence resumes: the rest of the day it was due. */
export const RESUME_GRACE_MS = DAY_MS;
/** Why a step a resumed enrolment passed over was not sent, as the person page says it. */
export const MISSED_WHILE_BOOKED = 'its day passed while a call was booked';

/**
 * The step an enrolment stopped by a booked call goes on with when the call is cancelled at `now`: the
 * first from `nextStep` whose day (after `enrolledAt`) has not passed by more than RESUME_GRACE_MS, so a
 * mail is never sent long after the day it was written for; undefined when no step is left in its schedule.
 */
export function resumeStepOf(steps: readonly Pick<SequenceStep, 'delayDays'>[], nextStep: number, enrolledAt: Date, now: Date): number | undefined {
  for (let i = nextStep; i < steps.length; i++) {
    if (enrolledAt.getTime() + steps[i]!.delayDays * DAY_MS + RESUME_GRACE_MS > now.getTime()) return i;
  }
  return undefined;
}
