/**
 * Reading the scheduler's webhooks (src/shared/booking-webhooks.ts) and checking their signatures
 * (src/server/modules/bookings/signatures.ts), as Cal.com, Calendly and Standard Webhooks document them.
 */
import { describe, expect, it } from 'vitest';
import { checkSignature } from '../../src/server/modules/bookings/signatures';
import { isStaleDelivery, readBookingWebhook } from '../../src/shared/booking-webhooks';
import { calComBody, calComHeaders, calendlyBody, calendlyHeaders, genericBody, genericHeaders, TEST_BOOKING_SECRETS } from '../support/booking-webhooks';

const read = (provider: Parameters<typeof readBookingWebhook>[0], body: string) => readBookingWebhook(provider, JSON.parse(body));

describe('readBookingWebhook', () => {
  it('reads a Cal.com booking: the first attendee, lower-cased, the start, the UTM values from tracking or metadata', () => {
    const r = read('cal.com', calComBody('BOOKING_CREATED', { uid: 'u1', email: 'Ada@Example.COM', name: 'Ada', utm: { utm_source: 'google', utm_campaign: 'spring' } }));
    expect(r).toMatchObject({ kind: 'notice', notice: { provider: 'cal.com', action: 'booked', externalId: 'u1', email: 'ada@example.com', name: 'Ada', attribution: { utmSource: 'google', utmCampaign: 'spring' } } });
    const meta = JSON.parse(calComBody('BOOKING_CREATED', { uid: 'u1', email: 'a@b.co' }));
    meta.payload.metadata = { utm_medium: 'cpc' };
    expect(readBookingWebhook('cal.com', meta)).toMatchObject({ notice: { attribution: { utmMedium: 'cpc' } } });
  });

  it('keeps no markup or sentence a stranger put in the UTM values', () => {
    const r = read('cal.com', calComBody('BOOKING_CREATED', { uid: 'u1', email: 'a@b.co', utm: { utm_source: '<script>alert(1)</script>', utm_campaign: 'https://evil.example/?go' } }));
    expect(r.kind === 'notice' && r.notice.attribution).toEqual({});
  });

  it('keeps the attendee’s name as one clean line, as every name the site keeps (issue 36)', () => {
    const name = 'Ada\r\nLovelace\u202E <script>x</script>';
    const cal = read('cal.com', calComBody('BOOKING_CREATED', { uid: 'u9', email: 'ada@example.com', name }));
    expect(cal).toMatchObject({ kind: 'notice', notice: { name: 'Ada Lovelace <script>x</script>' } });
    const calendly = read('calendly', calendlyBody('invitee.created', { uri: 'https://api.calendly.com/x', email: 'ada@example.com', name }));
    expect(calendly).toMatchObject({ kind: 'notice', notice: { name: 'Ada Lovelace <script>x</script>' } });
  });

  it('a Cal.com reschedule names the uid it replaces; the cancellation that goes with it, a request to confirm and other events are not acted on', () => {
    expect(read('cal.com', calComBody('BOOKING_RESCHEDULED', { uid: 'u2', rescheduleUid: 'u1', email: 'a@b.co' }))).toMatchObject({ notice: { action: 'rescheduled', externalId: 'u2', previousExternalId: 'u1' } });
    expect(read('cal.com', calComBody('BOOKING_CANCELLED', { uid: 'u1', rescheduledToUid: 'u2', email: 'a@b.co' }))).toEqual({ kind: 'ignored', eventType: 'BOOKING_CANCELLED (rescheduled)' });
    expect(read('cal.com', calComBody('BOOKING_CANCELLED', { uid: 'u1', email: 'a@b.co' }))).toMatchObject({ notice: { action: 'cancelled' } });
    expect(read('cal.com', calComBody('BOOKING_REQUESTED', { uid: 'u1', email: 'a@b.co' }))).toEqual({ kind: 'ignored', eventType: 'BOOKING_REQUESTED' });
    expect(readBookingWebhook('cal.com', { hello: 'world' })).toEqual({ kind: 'ignored', eventType: '' });
    expect(readBookingWebhook('cal.com', [1, 2])).toEqual({ kind: 'ignored', eventType: '' });
  });

  it('reads Calendly’s microsecond times, its reschedule pair and its null tracking values', () => {
    const body = JSON.parse(calendlyBody('invitee.created', { uri: 'inv-2', email: 'a@b.co', oldInvitee: 'inv-1' }));
    body.created_at = '2026-11-26T23:00:00.123456Z';
    const r = readBookingWebhook('calendly', body);
    expect(r).toMatchObject({ kind: 'notice', notice: { action: 'rescheduled', externalId: 'inv-2', previousExternalId: 'inv-1', attribution: {} } });
    expect(r.kind === 'notice' && r.notice.sentAt?.toISOString()).toBe('2026-11-26T23:00:00.123Z');
    expect(r.kind === 'notice' && r.notice.startsAt?.toISOString()).toBe('2026-12-03T10:00:00.000Z');
    expect(read('calendly', calendlyBody('invitee.canceled', { uri: 'inv-1', email: 'a@b.co', rescheduled: true })).kind).toBe('ignored');
    expect(read('calendly', calendlyBody('invitee_no_show.created', { uri: 'inv-1', email: 'a@b.co' })).kind).toBe('ignored');
  });

  it('says what is wrong with a booking it cannot read', () => {
    expect(readBookingWebhook('webhook', { type: 'booking.created', data: { id: 'b1' } })).toEqual({ kind: 'invalid', message: 'data.email: is required' });
    expect(read('webhook', genericBody('booking.created', { id: 'b1', email: 'not-an-email' })).kind).toBe('invalid');
    expect(readBookingWebhook('cal.com', { triggerEvent: 'BOOKING_CREATED', payload: { uid: 'u', attendees: [] } }).kind).toBe('invalid');
  });

  it('a generic delivery’s age is its signature’s (a retry resends the body as it was)', () => {
    const r = read('webhook', genericBody('booking.rescheduled', { id: 'b2', previousId: 'b1', email: 'a@b.co', startsAt: '2026-12-03T10:00:00+01:00' }));
    expect(r).toMatchObject({ notice: { action: 'rescheduled', previousExternalId: 'b1', sentAt: null } });
    expect(r.kind === 'notice' && r.notice.startsAt?.toISOString()).toBe('2026-12-03T09:00:00.000Z');
  });

  it('isStaleDelivery: five minutes either way', () => {
    const now = new Date('2026-11-26T12:00:00Z');
    expect(isStaleDelivery(new Date('2026-11-26T11:55:00Z'), now)).toBe(false);
    expect(isStaleDelivery(new Date('2026-11-26T11:54:59Z'), now)).toBe(true);
    expect(isStaleDelivery(new Date('2026-11-26T12:05:01Z'), now)).toBe(true);
    expect(isStaleDelivery(null, now)).toBe(false);
  });
});

describe('checkSignature', () => {
  const body = calComBody('BOOKING_CREATED', { uid: 'u1', email: 'a@b.co' });
  const check = (headers: Record<string, string>, b = body) => checkSignature(new Headers(headers), Buffer.from(b), TEST_BOOKING_SECRETS);

  it('Cal.com: the hex HMAC of the body; its key is the signature', () => {
    const headers = calComHeaders(body);
    expect(check(headers)).toEqual({ ok: true, provider: 'cal.com', deliveryKey: headers['x-cal-signature-256'], signedAt: null });
    expect(check(headers, `${body} `)).toMatchObject({ ok: false, reason: 'the signature does not match' });
    expect(check({ 'x-cal-signature-256': headers['x-cal-signature-256']!.toUpperCase() })).toMatchObject({ ok: true });
    expect(check({ 'x-cal-signature-256': '' })).toMatchObject({ ok: false });
  });

  it('Calendly: t and v1 over "t.body", within five minutes', () => {
    expect(check(calendlyHeaders(body))).toMatchObject({ ok: true, provider: 'calendly' });
    expect(check({ 'calendly-webhook-signature': 'v1=abc' })).toMatchObject({ ok: false, reason: 'the signature header is malformed' });
    expect(check(calendlyHeaders(body, 'another-calendly-key-0123'))).toMatchObject({ ok: false, reason: 'the signature does not match' });
    expect(check(calendlyHeaders(body, undefined, new Date(Date.now() - 301_000)))).toMatchObject({ ok: false, reason: 'the signature is too old (a replay?)' });
  });

  it('Standard Webhooks: the reference library’s check; its key is the webhook-id', () => {
    const headers = genericHeaders(body, undefined, new Date(), 'msg_1');
    expect(check(headers)).toMatchObject({ ok: true, provider: 'webhook', deliveryKey: 'msg_1' });
    expect(check({ ...headers, 'webhook-id': 'msg_2' })).toMatchObject({ ok: false });
  });

  it('no signature header, or a provider whose secret is not set', () => {
    expect(check({})).toMatchObject({ ok: false, provider: undefined });
    expect(checkSignature(new Headers(calComHeaders(body)), Buffer.from(body), { ...TEST_BOOKING_SECRETS, calCom: undefined })).toEqual({ ok: false, provider: 'cal.com', reason: 'BOOKING_WEBHOOK_SECRET_CALCOM is not set' });
  });
});
