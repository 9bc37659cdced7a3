/**
 * POST /api/webhooks/booking: the scheduler tells this site about a booking (src/shared/booking-webhooks.ts
 * for the three forms). Cheap refusals come first: too many requests from one address, no signature header,
 * a provider whose secret is not set; then the body, read within BOOKING_WEBHOOK_MAX_BYTES, is checked
 * against its signature before it is parsed. Every refusal is logged with its reason.
 *
 * Answers: 200 recorded (or already known), 202 an event this site does not act on, 400 malformed, 401 bad or
 * missing signature, 409 a replayed or stale delivery, 413 too large, 429 too many, 503 the database failed.
 * A provider retries what is not 2xx; only a 5xx is worth retrying.
 */
import { config } from '../../config';
import { jsonResponse } from '../../http/admin-api';
import { clientIpOf } from '../../http/client-ip';
import { BodyError, parseJsonBody, readBodyCapped } from '../../http/request-body';
import { logger } from '../../logger';
import { BOOKING_WEBHOOK_MAX_BYTES, isStaleDelivery, readBookingWebhook } from '../../../shared/booking-webhooks';
import { consumeRateLimit } from '../rate-limit/service';
import { receiveBooking } from './service';
import { checkSignature, providerOf, SECRET_SETTINGS, secretFor, type BookingSecrets } from './signatures';

/** Deliveries per client address: a scheduler sends one per booking change, a forger many. */
export const BOOKING_WEBHOOK_RATE_LIMIT = { max: 120, windowSeconds: 60 } as const;

const secretsOf = (): BookingSecrets => {
  const c = config();
  return { calCom: c.BOOKING_WEBHOOK_SECRET_CALCOM, calendly: c.BOOKING_WEBHOOK_SECRET_CALENDLY, generic: c.BOOKING_WEBHOOK_SECRET };
};

const refuse = (status: number, code: string, message: string, log: Record<string, unknown>, headers: Record<string, string> = {}) => {
  logger.warn({ ...log, status }, `booking webhook refused: ${message}`);
  return jsonResponse(status, { code, message }, headers);
};

export async function handleBookingWebhook(request: Request, socketAddress: string | undefined, secrets: BookingSecrets = secretsOf(), now: () => Date = () => new Date()): Promise<Response> {
  const ip = clientIpOf(request, socketAddress, config().TRUSTED_PROXY_IP_HEADER);
  const log = { ip, provider: providerOf(request.headers) };
  const limit = await consumeRateLimit(`booking-webhook:${ip ?? 'unknown'}`, BOOKING_WEBHOOK_RATE_LIMIT);
  if (!limit.ok) return refuse(429, 'RATE_LIMITED', 'Too many deliveries from this address.', log, { 'Retry-After': String(limit.retryAfterSeconds) });

  const provider = log.provider;
  if (!provider) return refuse(401, 'UNSIGNED', 'The delivery has no signature.', log);
  if (!secretFor(provider, secrets)) return refuse(401, 'NOT_CONFIGURED', `${SECRET_SETTINGS[provider]} is not set on this site.`, log);

  let bytes: Uint8Array;
  try {
    bytes = await readBodyCapped(request, BOOKING_WEBHOOK_MAX_BYTES);
  } catch (err) {
    if (!(err instanceof BodyError)) throw err;
    return refuse(err.status, err.code, err.message, log);
  }
  const body = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const signature = checkSignature(request.headers, body, secrets, now());
  if (!signature.ok) return refuse(401, 'BAD_SIGNATURE', `The signature was refused: ${signature.reason}.`, log);

  let value: unknown;
  try {
    value = parseJsonBody(bytes);
  } catch (err) {
    if (!(err instanceof BodyError)) throw err;
    return refuse(400, err.code, err.message, log);
  }
  const reading = readBookingWebhook(provider, value);
  if (reading.kind === 'invalid') return refuse(400, 'INVALID_BOOKING', `The booking is not valid: ${reading.message}`, log);
  if (reading.kind === 'ignored') {
    logger.info({ ...log, eventType: reading.eventType }, 'booking webhook: event not acted on');
    return jsonResponse(202, { code: 'IGNORED', message: `Event ${JSON.stringify(reading.eventType)} is not acted on.` });
  }
  if (isStaleDelivery(reading.notice.sentAt, now())) return refuse(409, 'STALE', 'The delivery is too old (a replay?).', log);

  try {
    const outcome = await receiveBooking(signature, reading.notice, now());
    if (outcome.kind === 'replay') return refuse(409, 'REPLAYED', 'This delivery was received before.', log);
    if (outcome.kind === 'unknown-booking') {
      logger.info({ ...log, externalId: reading.notice.externalId }, 'booking webhook: cancellation of a booking this site does not know');
      return jsonResponse(202, { code: 'UNKNOWN_BOOKING', message: 'No booking with this id is known here.' });
    }
    logger.info({ ...log, bookingId: outcome.bookingId, action: outcome.action }, 'booking webhook taken');
    return jsonResponse(200, { bookingId: outcome.bookingId, action: outcome.action });
  } catch (err) {
    logger.error({ err, ...log }, 'booking webhook not recorded');
    return jsonResponse(503, { code: 'UNAVAILABLE', message: 'The booking could not be recorded. Please retry.' }, { 'Retry-After': '30' });
  }
}
