/**
 * Booking webhooks signed as Cal.com, Calendly and a Standard Webhooks sender sign them (the integration
 * tests, the end-to-end test and the benchmark send them to POST /api/webhooks/booking).
 */
import { createHmac, randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

export const CALCOM_SECRET = 'calcom-test-secret-0123456789';
export const CALENDLY_SECRET = 'calendly-test-signing-key-0123456789';
export const GENERIC_SECRET = `whsec_${Buffer.from('generic-booking-webhook-secret-32b').toString('base64')}`;
export const TEST_BOOKING_SECRETS = { calCom: CALCOM_SECRET, calendly: CALENDLY_SECRET, generic: GENERIC_SECRET };

const hex = (secret: string, data: string) => createHmac('sha256', secret).update(data).digest('hex');

export function calComHeaders(body: string, secret = CALCOM_SECRET): Record<string, string> {
  return { 'content-type': 'application/json', 'x-cal-signature-256': hex(secret, body) };
}

export function calendlyHeaders(body: string, secret = CALENDLY_SECRET, at = new Date()): Record<string, string> {
  const t = Math.floor(at.getTime() / 1000);
  return { 'content-type': 'application/json', 'calendly-webhook-signature': `t=${t},v1=${hex(secret, `${t}.${body}`)}` };
}

export function genericHeaders(body: string, secret = GENERIC_SECRET, at = new Date(), id = `msg_${randomUUID()}`): Record<string, string> {
  const signature = new Webhook(secret).sign(id, at, body);
  return { 'content-type': 'application/json', 'webhook-id': id, 'webhook-timestamp': String(Math.floor(at.getTime() / 1000)), 'webhook-signature': signature };
}

/** A Cal.com delivery's body. */
export function calComBody(trigger: string, p: { uid: string; email: string; name?: string; startTime?: string; rescheduleUid?: string; rescheduledToUid?: string; utm?: Record<string, string> }, createdAt = new Date()) {
  return JSON.stringify({
    triggerEvent: trigger,
    createdAt: createdAt.toISOString(),
    payload: {
      type: 'discovery-call',
      title: 'Discovery call',
      uid: p.uid,
      startTime: p.startTime ?? '2026-12-03T10:00:00Z',
      endTime: '2026-12-03T10:30:00Z',
      organizer: { email: 'owner@example.com', name: 'Owner', timeZone: 'Europe/Berlin' },
      attendees: [{ email: p.email, name: p.name ?? 'Ada Lovelace', timeZone: 'Europe/London' }],
      ...(p.rescheduleUid ? { rescheduleUid: p.rescheduleUid } : {}),
      ...(p.rescheduledToUid ? { rescheduledToUid: p.rescheduledToUid } : {}),
      ...(p.utm ? { tracking: p.utm } : {}),
    },
  });
}

/** A Calendly delivery's body. */
export function calendlyBody(event: string, p: { uri: string; email: string; name?: string; startTime?: string; oldInvitee?: string; rescheduled?: boolean; utm?: Record<string, string | null> }, createdAt = new Date()) {
  return JSON.stringify({
    event,
    created_at: createdAt.toISOString(),
    created_by: 'https://api.calendly.com/users/AAAA',
    payload: {
      uri: p.uri,
      email: p.email,
      name: p.name ?? 'Ada Lovelace',
      status: event === 'invitee.canceled' ? 'canceled' : 'active',
      rescheduled: p.rescheduled ?? false,
      old_invitee: p.oldInvitee ?? null,
      scheduled_event: { start_time: p.startTime ?? '2026-12-03T10:00:00.000000Z', name: 'Discovery call' },
      tracking: { utm_source: null, utm_medium: null, utm_campaign: null, utm_term: null, utm_content: null, ...p.utm },
    },
  });
}

/** A generic (Standard Webhooks) delivery's body. */
export function genericBody(type: string, data: { id: string; email: string; name?: string; startsAt?: string; previousId?: string; utm?: Record<string, string> }) {
  return JSON.stringify({ type, timestamp: new Date().toISOString(), data });
}
