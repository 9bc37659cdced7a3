/**
 * Bookings that come back from the external scheduler (issue 23): what a webhook of Cal.com, of Calendly or
 * of the documented generic form says, read into one notice (booked, rescheduled, cancelled). Pure: the
 * signatures are checked by the server before a payload gets here (src/server/modules/bookings/).
 *
 * - Cal.com: `{ triggerEvent, createdAt, payload: { uid, startTime, attendees: [{ email, name }], … } }`.
 *   BOOKING_CREATED books; BOOKING_RESCHEDULED moves the booking `payload.rescheduleUid` (Cal.com makes a
 *   new uid); BOOKING_CANCELLED cancels, unless it names the booking it was rescheduled to (then the
 *   reschedule's own event is the news). A request still to be confirmed is not a booking yet.
 * - Calendly: `{ event, created_at, payload: { uri, email, name, scheduled_event: { start_time }, tracking,
 *   old_invitee, rescheduled } }`. invitee.created books, or reschedules when it names the old invitee;
 *   invitee.canceled cancels unless `rescheduled` (the new invitee's invitee.created follows).
 * - Generic (Standard Webhooks, https://www.standardwebhooks.com): `{ type: "booking.created" |
 *   "booking.rescheduled" | "booking.cancelled", timestamp, data: { id, previousId?, email, name?,
 *   startsAt?, utm?: { source, medium, campaign, term, content } } }`.
 *
 * The attendee's name is typed by whoever booked: it is kept as one clean line (src/shared/text-controls.ts),
 * like every other name, and shown as text wherever it appears.
 *
 * UTM values come from the scheduler's tracking (Calendly `tracking`, Cal.com `tracking` or `metadata`), which
 * the book-a-call links fill from the visit (src/features/attribution/store.ts), and are cleaned as any.
 */
import { cleanAttribution, type AuditAttribution } from './schemas/audit';
import { cleanName } from './text-controls';
import { z } from './zod';

export const BOOKING_PROVIDERS = ['cal.com', 'calendly', 'webhook'] as const;
export type BookingProvider = (typeof BOOKING_PROVIDERS)[number];

/** How the provider is named to people (timeline, activity log). */
export const BOOKING_PROVIDER_LABELS: Record<BookingProvider, string> = {
  'cal.com': 'Cal.com',
  calendly: 'Calendly',
  webhook: 'Booking webhook',
};

/** A stored provider name as people read it (an unknown one as it is). */
export const bookingProviderLabel = (provider: string) => BOOKING_PROVIDER_LABELS[provider as BookingProvider] ?? provider;

export type BookingAction = 'booked' | 'rescheduled' | 'cancelled';

export interface BookingNotice {
  provider: BookingProvider;
  action: BookingAction;
  /** The provider's id of the booking as it is now (a reschedule's new id). */
  externalId: string;
  /** A reschedule: the id it had before. */
  previousExternalId?: string;
  /** Lower-cased. */
  email: string;
  name: string;
  startsAt: Date | null;
  attribution: AuditAttribution;
  /** When the provider says it sent the event, where the signature does not say (replays older than the tolerance are refused). */
  sentAt: Date | null;
}

export type BookingReading = { kind: 'notice'; notice: BookingNotice } | { kind: 'ignored'; eventType: string } | { kind: 'invalid'; message: string };

/** The largest webhook body read: a Cal.com booking with its form answers is a few KB; no route but the admin uploads takes more than a 64 KB form. */
export const BOOKING_WEBHOOK_MAX_BYTES = 64 * 1024;

/** How old a signed delivery may be (seconds): Calendly's documentation advises a few minutes, Standard Webhooks five. */
export const BOOKING_WEBHOOK_TOLERANCE_SECONDS = 300;

const id = z.string().trim().min(1).max(500);
const email = z.email().max(254).transform((v) => v.toLowerCase());
/** The attendee's name under the rule of every name the site keeps: one clean line (a line break or a control character becomes a space). */
const name = z
  .string()
  .max(200)
  .transform((v) => cleanName(v, 200))
  .optional()
  .catch(undefined);
const instant = z.iso.datetime({ offset: true }).transform((v) => new Date(v));
const optionalInstant = instant.optional().catch(undefined);
const utmRecord = z.record(z.string(), z.unknown()).optional().catch(undefined);

/** utm_* (or source/medium/… without the prefix) of a scheduler's tracking object → the cleaned attribution. */
function utmOf(...records: (Record<string, unknown> | undefined)[]): AuditAttribution {
  const pick = (key: string) => {
    for (const r of records) {
      const v = r?.[`utm_${key}`] ?? r?.[key];
      if (typeof v === 'string' && v) return v;
    }
    return undefined;
  };
  return cleanAttribution({ utmSource: pick('source'), utmMedium: pick('medium'), utmCampaign: pick('campaign'), utmTerm: pick('term'), utmContent: pick('content') });
}

const calComSchema = z.object({
  triggerEvent: z.string(),
  createdAt: optionalInstant,
  payload: z.object({
    uid: id,
    startTime: optionalInstant,
    attendees: z.array(z.object({ email, name })).min(1),
    rescheduleUid: id.optional().catch(undefined),
    rescheduledToUid: z.string().nullish(),
    tracking: utmRecord,
    metadata: utmRecord,
  }),
});

const calendlySchema = z.object({
  event: z.string(),
  created_at: optionalInstant,
  payload: z.object({
    uri: id,
    email,
    name,
    rescheduled: z.boolean().optional().catch(undefined),
    old_invitee: z.string().nullish(),
    scheduled_event: z.object({ start_time: optionalInstant }).optional().catch(undefined),
    tracking: utmRecord,
  }),
});

const genericSchema = z.object({
  type: z.string(),
  data: z.object({
    id,
    previousId: id.optional(),
    email,
    name,
    startsAt: optionalInstant,
    utm: utmRecord,
  }),
});

const CAL_COM_ACTIONS: Record<string, BookingAction> = { BOOKING_CREATED: 'booked', BOOKING_RESCHEDULED: 'rescheduled', BOOKING_CANCELLED: 'cancelled' };
const GENERIC_ACTIONS: Record<string, BookingAction> = { 'booking.created': 'booked', 'booking.rescheduled': 'rescheduled', 'booking.cancelled': 'cancelled' };

const eventTypeOf = (body: unknown, key: string) => (body && typeof body === 'object' && typeof (body as Record<string, unknown>)[key] === 'string' ? String((body as Record<string, unknown>)[key]).slice(0, 100) : '');

function invalid(error: z.ZodError): BookingReading {
  const issue = error.issues[0];
  if (!issue) return { kind: 'invalid', message: 'the booking is not valid' };
  // "data.email: is required": the field, then the project's message in lower case after the colon.
  return { kind: 'invalid', message: `${issue.path.join('.') || 'body'}: ${issue.message.charAt(0).toLowerCase()}${issue.message.slice(1)}` };
}

/** A verified webhook body (parsed JSON) of `provider` → a booking notice, an event this site ignores, or what is wrong. */
export function readBookingWebhook(provider: BookingProvider, body: unknown): BookingReading {
  if (provider === 'cal.com') {
    const type = eventTypeOf(body, 'triggerEvent');
    const action = CAL_COM_ACTIONS[type];
    if (!action) return { kind: 'ignored', eventType: type };
    const parsed = calComSchema.safeParse(body);
    if (!parsed.success) return invalid(parsed.error);
    const { payload, createdAt } = parsed.data;
    // The cancelled half of a reschedule: BOOKING_RESCHEDULED carries the news.
    if (action === 'cancelled' && payload.rescheduledToUid) return { kind: 'ignored', eventType: `${type} (rescheduled)` };
    const attendee = payload.attendees[0]!;
    return {
      kind: 'notice',
      notice: {
        provider,
        action,
        externalId: payload.uid,
        previousExternalId: action === 'rescheduled' ? payload.rescheduleUid : undefined,
        email: attendee.email,
        name: attendee.name ?? '',
        startsAt: payload.startTime ?? null,
        attribution: utmOf(payload.tracking, payload.metadata),
        sentAt: createdAt ?? null,
      },
    };
  }
  if (provider === 'calendly') {
    const type = eventTypeOf(body, 'event');
    if (type !== 'invitee.created' && type !== 'invitee.canceled') return { kind: 'ignored', eventType: type };
    const parsed = calendlySchema.safeParse(body);
    if (!parsed.success) return invalid(parsed.error);
    const { payload, created_at } = parsed.data;
    if (type === 'invitee.canceled' && payload.rescheduled) return { kind: 'ignored', eventType: `${type} (rescheduled)` };
    const action: BookingAction = type === 'invitee.canceled' ? 'cancelled' : payload.old_invitee ? 'rescheduled' : 'booked';
    return {
      kind: 'notice',
      notice: {
        provider,
        action,
        externalId: payload.uri,
        previousExternalId: action === 'rescheduled' ? (payload.old_invitee ?? undefined) : undefined,
        email: payload.email,
        name: payload.name ?? '',
        startsAt: payload.scheduled_event?.start_time ?? null,
        attribution: utmOf(payload.tracking),
        sentAt: created_at ?? null,
      },
    };
  }
  const type = eventTypeOf(body, 'type');
  const action = GENERIC_ACTIONS[type];
  if (!action) return { kind: 'ignored', eventType: type };
  const parsed = genericSchema.safeParse(body);
  if (!parsed.success) return invalid(parsed.error);
  const { data } = parsed.data;
  return {
    kind: 'notice',
    notice: {
      provider,
      action,
      externalId: data.id,
      previousExternalId: action === 'rescheduled' ? data.previousId : undefined,
      email: data.email,
      name: data.name ?? '',
      startsAt: data.startsAt ?? null,
      attribution: utmOf(data.utm),
      // The webhook-timestamp header is checked with the signature; a retry resends the body as it was.
      sentAt: null,
    },
  };
}

/** Whether a delivery sent at `sentAt` is too old (or too far ahead) to be taken at `now`. */
export function isStaleDelivery(sentAt: Date | null, now: Date, toleranceSeconds = BOOKING_WEBHOOK_TOLERANCE_SECONDS): boolean {
  return sentAt !== null && Math.abs(now.getTime() - sentAt.getTime()) > toleranceSeconds * 1000;
}
