/**
 * The chat's pure rules (docs/chat-api.md): business hours in the site's time zone, when the widget asks
 * for contact details (a person asked for: src/shared/person-request.ts), and the visitor's inputs (a message, the
 * contact form). Browser-safe: the panel validates with the same schemas the server enforces.
 */
import { emailField } from './auth-schemas';
import { CHAT_LIMITS, WEEKDAYS, type BusinessHours, type ChatAskContact, type Weekday } from './chat';
import { wallClockIn } from './dates';
import { asksForPerson } from './person-request';
import { hasControlCharacters, isCleanLine } from './text-controls';
import { z } from './zod';

// ---------------------------------------------------------------------------------------------------------
// Business hours.

/** The weekday and "HH:MM" on the wall clock of `timeZone` at `now` (Intl applies the zone's DST rules). */
export function wallClock(timeZone: string, now: Date): { day: Weekday; time: string } {
  const w = wallClockIn(now, timeZone);
  // WEEKDAYS starts on Monday; getUTCDay on Sunday.
  const day = WEEKDAYS[(new Date(Date.UTC(w.year, w.month - 1, w.day)).getUTCDay() + 6) % 7]!;
  return { day, time: `${String(w.hour).padStart(2, '0')}:${String(w.minute).padStart(2, '0')}` };
}

/**
 * Inside the opening hours of that weekday in the site's time zone (from inclusive, to exclusive); hours
 * switched off: always.
 */
export function isWithinBusinessHours(hours: BusinessHours, timeZone: string, now: Date): boolean {
  if (!hours.enabled) return true;
  const { day, time } = wallClock(timeZone, now);
  const today = hours.days[day];
  return today.open && time >= today.from && time < today.to;
}

// ---------------------------------------------------------------------------------------------------------
// Asking for contact details.

export interface AskContactFacts {
  /** The assistant found a good answer. */
  confident: boolean;
  question: string;
  online: boolean;
  askContact: ChatAskContact;
  hasContact: boolean;
}

/**
 * The widget shows the contact form after this answer: no good answer, a person asked for, outside
 * business hours, or "at-start" settings — and never again once name and email are known.
 */
export function shouldAskContact(f: AskContactFacts): boolean {
  if (f.hasContact) return false;
  return !f.confident || asksForPerson(f.question) || !f.online || f.askContact === 'at-start';
}

// ---------------------------------------------------------------------------------------------------------
// What a visitor sends.

/**
 * Control characters other than line breaks and tabs never belong in a chat message. Bidi controls may (a
 * visitor writing in two scripts pastes them); the inbox neutralises them where it shows the text. A name
 * is one line of plain words: the site's one rule (src/shared/text-controls.ts) refuses bidi controls and
 * direction marks there, as the audit form does, since it lands in inbox rows and mail subjects.
 */
export const CONTACT_NAME_NOT_CLEAN = 'Your name must be one line of plain text, without control or text-direction characters';

export const chatMessageBodySchema = z
  .string({ error: 'Please write a message' })
  .trim()
  .min(1, 'Please write a message')
  .max(CHAT_LIMITS.message, `A message can be at most ${CHAT_LIMITS.message} characters`)
  .refine((v) => !hasControlCharacters(v), 'The message contains characters that are not allowed');

export const chatContactSchema = z.object({
  name: z
    .string({ error: 'Please enter your name' })
    .trim()
    .min(1, 'Please enter your name')
    .max(CHAT_LIMITS.contactName, `Your name can be at most ${CHAT_LIMITS.contactName} characters`)
    .refine(isCleanLine, CONTACT_NAME_NOT_CLEAN),
  email: emailField,
  message: z
    .string({ error: 'The message must be text' })
    .trim()
    .max(CHAT_LIMITS.contactMessage, `The message can be at most ${CHAT_LIMITS.contactMessage} characters`)
    .refine((v) => !hasControlCharacters(v), 'The message contains characters that are not allowed')
    .optional()
    .transform((v) => v ?? ''),
  /** "Email me follow-ups": the consent a chat-lead follow-up sequence needs (unticked by default). */
  followUps: z.boolean({ error: 'Tick the box or leave it empty' }).optional().transform((v) => v ?? false),
});
export type ChatContactInput = z.input<typeof chatContactSchema>;
export type ChatContactFields = z.output<typeof chatContactSchema>;
export const CHAT_CONTACT_FIELDS = ['name', 'email', 'message'] as const;

/** The first message per field, as the contact form shows them. */
export function chatContactFieldErrors(error: z.ZodError): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = String(issue.path[0] ?? 'form');
    out[key] ??= issue.message;
  }
  return out;
}
