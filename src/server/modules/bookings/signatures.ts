/**
 * Whose booking webhook this is, and whether its signature holds, as each provider documents it:
 *
 * - Cal.com: `X-Cal-Signature-256`, the hex HMAC-SHA256 of the raw body with the webhook's secret. It has no
 *   time or id of its own: the delivery key is the signature, and the body's `createdAt` bounds its age.
 * - Calendly: `Calendly-Webhook-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body">` with the
 *   signing key; `t` bounds its age.
 * - Generic: Standard Webhooks (`webhook-id`, `webhook-timestamp`, `webhook-signature`), checked by its
 *   reference library; the id is the delivery key.
 *
 * A provider whose secret is not set is refused like a bad signature (and the log says which setting).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { BOOKING_WEBHOOK_TOLERANCE_SECONDS, type BookingProvider } from '../../../shared/booking-webhooks';

export interface BookingSecrets {
  calCom: string | undefined;
  calendly: string | undefined;
  generic: string | undefined;
}

export type SignatureCheck =
  | { ok: true; provider: BookingProvider; deliveryKey: string; signedAt: Date | null }
  | { ok: false; provider: BookingProvider | undefined; reason: string };

/** The setting each provider's secret comes from (for the log and the README). */
export const SECRET_SETTINGS: Record<BookingProvider, string> = {
  'cal.com': 'BOOKING_WEBHOOK_SECRET_CALCOM',
  calendly: 'BOOKING_WEBHOOK_SECRET_CALENDLY',
  webhook: 'BOOKING_WEBHOOK_SECRET',
};

const hmacHex = (secret: string, data: Buffer) => createHmac('sha256', secret).update(data).digest('hex');

/** Constant-time equality of two hex strings (a wrong length is simply unequal). */
function sameHex(expected: string, given: string): boolean {
  const a = Buffer.from(expected, 'hex');
  const b = Buffer.from(/^[0-9a-f]+$/i.test(given) ? given : '', 'hex');
  return a.length === b.length && a.length > 0 && timingSafeEqual(a, b);
}

function checkCalCom(body: Buffer, header: string, secret: string): SignatureCheck {
  const given = header.trim();
  if (!sameHex(hmacHex(secret, body), given)) return { ok: false, provider: 'cal.com', reason: 'the signature does not match' };
  return { ok: true, provider: 'cal.com', deliveryKey: given.toLowerCase(), signedAt: null };
}

function checkCalendly(body: Buffer, header: string, secret: string, now: Date): SignatureCheck {
  const parts = new Map(header.split(',').map((p) => p.trim().split('=', 2) as [string, string]));
  const t = parts.get('t') ?? '';
  const v1 = parts.get('v1') ?? '';
  if (!/^\d{1,12}$/.test(t) || !v1) return { ok: false, provider: 'calendly', reason: 'the signature header is malformed' };
  const expected = hmacHex(secret, Buffer.concat([Buffer.from(`${t}.`), body]));
  if (!sameHex(expected, v1)) return { ok: false, provider: 'calendly', reason: 'the signature does not match' };
  const signedAt = new Date(Number(t) * 1000);
  if (Math.abs(now.getTime() - signedAt.getTime()) > BOOKING_WEBHOOK_TOLERANCE_SECONDS * 1000) {
    return { ok: false, provider: 'calendly', reason: 'the signature is too old (a replay?)' };
  }
  return { ok: true, provider: 'calendly', deliveryKey: v1.toLowerCase(), signedAt };
}

function checkGeneric(body: Buffer, headers: Headers, secret: string): SignatureCheck {
  const id = headers.get('webhook-id') ?? '';
  try {
    new Webhook(secret).verify(body, {
      'webhook-id': id,
      'webhook-timestamp': headers.get('webhook-timestamp') ?? '',
      'webhook-signature': headers.get('webhook-signature') ?? '',
    });
  } catch (err) {
    if (!(err instanceof WebhookVerificationError)) throw err;
    return { ok: false, provider: 'webhook', reason: err.message };
  }
  if (!id || id.length > 200) return { ok: false, provider: 'webhook', reason: 'the webhook-id is missing or too long' };
  return { ok: true, provider: 'webhook', deliveryKey: id, signedAt: new Date(Number(headers.get('webhook-timestamp')) * 1000) };
}

export const secretFor = (provider: BookingProvider, secrets: BookingSecrets) =>
  provider === 'cal.com' ? secrets.calCom : provider === 'calendly' ? secrets.calendly : secrets.generic;

/** The provider a request's headers claim (undefined: no signature header of any). */
export function providerOf(headers: Headers): BookingProvider | undefined {
  if (headers.has('x-cal-signature-256')) return 'cal.com';
  if (headers.has('calendly-webhook-signature')) return 'calendly';
  if (headers.has('webhook-signature')) return 'webhook';
  return undefined;
}

/** Checks the delivery's signature with its provider's secret. `now` for the age of Calendly's `t`. */
export function checkSignature(headers: Headers, body: Buffer, secrets: BookingSecrets, now: Date = new Date()): SignatureCheck {
  const provider = providerOf(headers);
  if (!provider) return { ok: false, provider, reason: 'no signature header (X-Cal-Signature-256, Calendly-Webhook-Signature or webhook-signature)' };
  const secret = secretFor(provider, secrets);
  if (!secret) return { ok: false, provider, reason: `${SECRET_SETTINGS[provider]} is not set` };
  if (provider === 'cal.com') return checkCalCom(body, headers.get('x-cal-signature-256')!, secret);
  if (provider === 'calendly') return checkCalendly(body, headers.get('calendly-webhook-signature')!, secret, now);
  return checkGeneric(body, headers, secret);
}
