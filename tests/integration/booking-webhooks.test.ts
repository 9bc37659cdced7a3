/**
 * Bookings come back (issue 23, src/server/modules/bookings): POST /api/webhooks/booking as Cal.com, Calendly
 * and the generic Standard Webhooks form send it. A booking is a "call booked" lead event on the person
 * (matched by email, made when new, attributed by the scheduler's UTM values), moves them to "Call booked"
 * (a client stays a client) and back when cancelled; a reschedule moves the booking. Bad and missing
 * signatures, replays, stale deliveries, unknown events, malformed JSON and 1 MB bodies are refused, never a
 * 500 and never a record.
 */
import { and, eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { activityLog, bookings, leadEvents, leadSequenceEnrollments, leadSequenceSends, mailQueue, webhookDeliveries } from '../../src/server/db/schema';
import { handleBookingWebhook } from '../../src/server/modules/bookings/http';
import type { BookingSecrets } from '../../src/server/modules/bookings/signatures';
import { nextCallOf, personTimeline } from '../../src/server/modules/leads/people';
import { leadWorkOf, setLeadStage } from '../../src/server/modules/leads/work';
import { createAuthHarness, randomIp, SITE, type AuthHarness } from '../support/auth';
import {
  calComBody,
  calComHeaders,
  calendlyBody,
  calendlyHeaders,
  genericBody,
  genericHeaders,
  TEST_BOOKING_SECRETS,
} from '../support/booking-webhooks';

let h: AuthHarness;
let admin: string;
const ADA = 'ada@example.com';

beforeEach(async () => {
  h = await createAuthHarness();
  ({ userId: admin } = await h.signUpVerified({ email: 'owner@example.com' }));
});
afterEach(() => h.close());

function deliver(body: string, headers: Record<string, string>, secrets: BookingSecrets = TEST_BOOKING_SECRETS) {
  return handleBookingWebhook(new Request(`${SITE}/api/webhooks/booking`, { method: 'POST', headers, body }), randomIp(), secrets);
}
const calCom = (trigger: string, p: Parameters<typeof calComBody>[1]) => {
  const body = calComBody(trigger, p);
  return deliver(body, calComHeaders(body));
};
const stageOf = async (email: string) => (await leadWorkOf(email)).stage;
const eventsOf = (email: string) => h.handle.db.select().from(leadEvents).where(eq(leadEvents.email, email));
const bookingRows = () => h.handle.db.select().from(bookings);

describe('a booking from Cal.com', () => {
  it('makes a new person a lead with the campaign the scheduler passed on, moves them to Call booked, and shows on the timeline', async () => {
    const res = await calCom('BOOKING_CREATED', { uid: 'cal-1', email: 'Ada@Example.com', name: 'Ada Lovelace', utm: { utm_source: 'newsletter', utm_medium: 'email', utm_campaign: 'winter' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    const [event] = await eventsOf(ADA);
    expect(event).toMatchObject({ kind: 'call-booked', name: 'Ada Lovelace', utmSource: 'newsletter', utmMedium: 'email', utmCampaign: 'winter' });
    const [booking] = await bookingRows();
    expect(booking).toMatchObject({ provider: 'cal.com', externalId: 'cal-1', email: ADA, status: 'booked', stageBefore: 'new' });
    expect(booking!.startsAt?.toISOString()).toBe('2026-12-03T10:00:00.000Z');
    expect(event!.refId).toBe(booking!.id);
    expect(await stageOf(ADA)).toBe('call-booked');
    // The follow-up is the day of the call (the site's zone, UTC here), set by the scheduler.
    expect((await leadWorkOf(ADA)).followUpOn).toBe('2026-12-03');

    const { entries } = await personTimeline(ADA);
    // One transaction, one instant: the entries in any order.
    expect(entries).toHaveLength(3);
    expect(entries).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ type: 'lead-stage', from: 'new', to: 'call-booked', actorName: 'Cal.com' }),
        expect.objectContaining({ type: 'lead-follow-up', to: '2026-12-03', actorName: 'Cal.com' }),
        expect.objectContaining({ type: 'lead', kind: 'call-booked', booking: expect.objectContaining({ provider: 'cal.com', status: 'booked' }) }),
      ]),
    );
    const [logged] = await h.handle.db.select().from(activityLog).where(and(eq(activityLog.entityId, ADA), eq(activityLog.action, 'stage')));
    expect(logged).toMatchObject({ actorId: null, actorEmail: 'Cal.com', action: 'stage' });
  });

  it('moves the booking when rescheduled (a new uid), and back to the stage before when cancelled', async () => {
    await h.handle.db.insert(leadEvents).values({ id: crypto.randomUUID(), kind: 'audit-request', email: ADA });
    await setLeadStage(admin, ADA, 'contacted');
    await calCom('BOOKING_CREATED', { uid: 'cal-1', email: ADA });
    expect(await stageOf(ADA)).toBe('call-booked');

    const moved = await calCom('BOOKING_RESCHEDULED', { uid: 'cal-2', rescheduleUid: 'cal-1', email: ADA, startTime: '2026-12-05T15:00:00Z' });
    expect(await moved.json()).toMatchObject({ action: 'rescheduled' });
    // Cal.com's cancellation of the old uid, sent with the reschedule, is not news.
    const oldCancelled = await calCom('BOOKING_CANCELLED', { uid: 'cal-1', rescheduledToUid: 'cal-2', email: ADA });
    expect(oldCancelled.status).toBe(202);
    let [booking] = await bookingRows();
    expect(booking).toMatchObject({ externalId: 'cal-2', status: 'booked', stageBefore: 'contacted' });
    expect(booking!.startsAt?.toISOString()).toBe('2026-12-05T15:00:00.000Z');
    expect(await eventsOf(ADA)).toHaveLength(2);
    expect((await nextCallOf(ADA, new Date('2026-11-26T00:00:00Z')))?.startsAt?.toISOString()).toBe('2026-12-05T15:00:00.000Z');
    // A call in the past is no next call.
    expect(await nextCallOf(ADA, new Date('2026-12-06T00:00:00Z'))).toBeUndefined();

    const cancelled = await calCom('BOOKING_CANCELLED', { uid: 'cal-2', email: ADA });
    expect(await cancelled.json()).toMatchObject({ action: 'cancelled' });
    [booking] = await bookingRows();
    expect(booking!.status).toBe('cancelled');
    expect(await stageOf(ADA)).toBe('contacted');
    expect(await nextCallOf(ADA, new Date('2026-11-26T00:00:00Z'))).toBeUndefined();
    const { entries } = await personTimeline(ADA);
    expect(entries.filter((e) => e.type === 'booking-change').map((e) => (e.type === 'booking-change' ? e.action : ''))).toEqual(['cancelled', 'rescheduled']);
    expect(entries.filter((e) => e.type === 'lead-stage').map((e) => (e.type === 'lead-stage' ? `${e.from}>${e.to}` : ''))).toEqual(['call-booked>contacted', 'contacted>call-booked', 'new>contacted']);
  });

  it('leaves a client a client, and a stage the team set after the booking as it is', async () => {
    await h.handle.db.insert(leadEvents).values({ id: crypto.randomUUID(), kind: 'audit-request', email: ADA });
    await setLeadStage(admin, ADA, 'client');
    await calCom('BOOKING_CREATED', { uid: 'cal-1', email: ADA });
    expect(await stageOf(ADA)).toBe('client');
    await calCom('BOOKING_CANCELLED', { uid: 'cal-1', email: ADA });
    expect(await stageOf(ADA)).toBe('client');
  });

  it('answers a second delivery of the same booking without a second event, and a cancellation of an unknown booking with 202', async () => {
    await calCom('BOOKING_CREATED', { uid: 'cal-1', email: ADA });
    // Same booking, a later delivery (its own signature): nothing new.
    const later = calComBody('BOOKING_CREATED', { uid: 'cal-1', email: ADA }, new Date(Date.now() + 1000));
    const again = await deliver(later, calComHeaders(later));
    expect(again.status).toBe(200);
    expect(await eventsOf(ADA)).toHaveLength(1);
    const unknown = await calCom('BOOKING_CANCELLED', { uid: 'cal-unknown', email: 'bob@example.com' });
    expect(unknown.status).toBe(202);
    expect(await eventsOf('bob@example.com')).toEqual([]);
  });
});

it('two deliveries of one new booking at once (a retry racing the first) record it once', async () => {
  const bodies = [0, 1000].map((ms) => calComBody('BOOKING_CREATED', { uid: 'cal-race', email: ADA }, new Date(Date.now() - ms)));
  const answers = await Promise.all(bodies.map((b) => deliver(b, calComHeaders(b))));
  expect(answers.map((r) => r.status)).toEqual([200, 200]);
  expect(await eventsOf(ADA)).toHaveLength(1);
  expect(await bookingRows()).toHaveLength(1);
});

describe('Calendly and the generic form', () => {
  it('Calendly: invitee.created books with its tracking; a reschedule (canceled + created with old_invitee) moves it; a cancel cancels', async () => {
    const send = (event: string, p: Parameters<typeof calendlyBody>[1]) => {
      const body = calendlyBody(event, p);
      return deliver(body, calendlyHeaders(body));
    };
    expect((await send('invitee.created', { uri: 'https://api.calendly.com/scheduled_events/E1/invitees/I1', email: ADA, utm: { utm_source: 'linkedin', utm_campaign: 'clinics' } })).status).toBe(200);
    expect((await eventsOf(ADA))[0]).toMatchObject({ kind: 'call-booked', utmSource: 'linkedin', utmCampaign: 'clinics', utmMedium: '' });
    expect((await send('invitee.canceled', { uri: 'https://api.calendly.com/scheduled_events/E1/invitees/I1', email: ADA, rescheduled: true })).status).toBe(202);
    expect((await send('invitee.created', { uri: 'https://api.calendly.com/scheduled_events/E2/invitees/I2', email: ADA, oldInvitee: 'https://api.calendly.com/scheduled_events/E1/invitees/I1', startTime: '2026-12-07T09:00:00.000000Z' })).status).toBe(200);
    let [booking] = await bookingRows();
    expect(booking).toMatchObject({ provider: 'calendly', externalId: 'https://api.calendly.com/scheduled_events/E2/invitees/I2', status: 'booked' });
    expect(await stageOf(ADA)).toBe('call-booked');
    await send('invitee.canceled', { uri: 'https://api.calendly.com/scheduled_events/E2/invitees/I2', email: ADA });
    [booking] = await bookingRows();
    expect(booking!.status).toBe('cancelled');
    expect(await stageOf(ADA)).toBe('new');
  });

  it('generic: booking.created books, with the id in webhook-id as its replay key', async () => {
    const body = genericBody('booking.created', { id: 'b-1', email: ADA, name: 'Ada', startsAt: '2026-12-03T10:00:00Z', utm: { source: 'partner', campaign: 'referral-2026' } });
    const headers = genericHeaders(body);
    expect((await deliver(body, headers)).status).toBe(200);
    expect((await eventsOf(ADA))[0]).toMatchObject({ kind: 'call-booked', utmSource: 'partner', utmCampaign: 'referral-2026' });
    const replay = await deliver(body, headers);
    expect(replay.status).toBe(409);
    expect(await replay.json()).toMatchObject({ code: 'REPLAYED' });
  });
});

describe('refused deliveries', () => {
  const body = calComBody('BOOKING_CREATED', { uid: 'cal-1', email: ADA });

  it('a wrong, missing or unconfigured signature: 401, nothing stored', async () => {
    const wrong = await deliver(body, calComHeaders(body, 'another-secret-0123456789'));
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toMatchObject({ code: 'BAD_SIGNATURE' });
    // The body changed after signing.
    expect((await deliver(body.replace('Ada Lovelace', 'Eve'), calComHeaders(body))).status).toBe(401);
    expect((await deliver(body, { 'content-type': 'application/json' })).status).toBe(401);
    expect((await deliver(body, { 'x-cal-signature-256': 'zz' })).status).toBe(401);
    const calendlyUnset = await deliver(body, calendlyHeaders(body), { ...TEST_BOOKING_SECRETS, calendly: undefined });
    expect(calendlyUnset.status).toBe(401);
    expect(await calendlyUnset.json()).toMatchObject({ code: 'NOT_CONFIGURED', message: 'BOOKING_WEBHOOK_SECRET_CALENDLY is not set on this site.' });
    const genericBad = await deliver(body, { ...genericHeaders(body), 'webhook-signature': 'v1,AAAA' });
    expect(genericBad.status).toBe(401);
    expect(await bookingRows()).toEqual([]);
    expect(await eventsOf(ADA)).toEqual([]);
  });

  it('a replay of a taken delivery, and deliveries signed or sent too long ago: 409', async () => {
    const headers = calComHeaders(body);
    expect((await deliver(body, headers)).status).toBe(200);
    const replay = await deliver(body, headers);
    expect(replay.status).toBe(409);
    expect(await eventsOf(ADA)).toHaveLength(1);

    const old = new Date(Date.now() - 10 * 60 * 1000);
    const oldCal = calComBody('BOOKING_CREATED', { uid: 'cal-9', email: 'bob@example.com' }, old);
    expect(await (await deliver(oldCal, calComHeaders(oldCal))).json()).toMatchObject({ code: 'STALE' });
    const calendly = calendlyBody('invitee.created', { uri: 'urn:x', email: 'bob@example.com' });
    expect((await deliver(calendly, calendlyHeaders(calendly, undefined, old))).status).toBe(401);
    const generic = genericBody('booking.created', { id: 'b-9', email: 'bob@example.com' });
    expect((await deliver(generic, genericHeaders(generic, undefined, old))).status).toBe(401);
    expect(await eventsOf('bob@example.com')).toEqual([]);
  });

  it('an unknown event type: 202 and nothing stored; malformed JSON and a booking without an email: 400', async () => {
    const ended = calComBody('MEETING_ENDED', { uid: 'cal-1', email: ADA });
    const res = await deliver(ended, calComHeaders(ended));
    expect(res.status).toBe(202);
    expect(await res.json()).toMatchObject({ code: 'IGNORED' });
    const broken = '{"triggerEvent": "BOOKING_CREATED", ';
    expect((await deliver(broken, calComHeaders(broken))).status).toBe(400);
    const noEmail = JSON.stringify({ triggerEvent: 'BOOKING_CREATED', createdAt: new Date().toISOString(), payload: { uid: 'x', attendees: [{ email: 'not an email' }] } });
    const invalid = await deliver(noEmail, calComHeaders(noEmail));
    expect(invalid.status).toBe(400);
    expect(await invalid.json()).toMatchObject({ code: 'INVALID_BOOKING' });
    expect(await bookingRows()).toEqual([]);
    // Refused deliveries are not remembered as taken: the real one still gets through.
    expect(await h.handle.db.select().from(webhookDeliveries)).toEqual([]);
  });

  it('a 1 MB body: 413 before its signature is computed', async () => {
    const big = JSON.stringify({ triggerEvent: 'BOOKING_CREATED', pad: 'x'.repeat(1024 * 1024) });
    const res = await deliver(big, calComHeaders(big));
    expect(res.status).toBe(413);
    expect(await bookingRows()).toEqual([]);
  });
});

describe('a booked call and the follow-up', () => {
  it('moves the follow-up to the call’s day, again when the call moves, and leaves it when nothing changes', async () => {
    await calCom('BOOKING_CREATED', { uid: 'cal-9', email: ADA, startTime: '2027-01-05T16:30:00Z' });
    expect((await leadWorkOf(ADA)).followUpOn).toBe('2027-01-05');
    await calCom('BOOKING_RESCHEDULED', { uid: 'cal-10', rescheduleUid: 'cal-9', email: ADA, startTime: '2027-01-07T09:00:00Z' });
    expect((await leadWorkOf(ADA)).followUpOn).toBe('2027-01-07');
    const logged = await h.handle.db.select().from(activityLog).where(eq(activityLog.action, 'follow-up'));
    expect(logged.map((e) => [e.actorEmail, e.after])).toEqual([
      ['Cal.com', { followUpOn: '2027-01-05' }],
      ['Cal.com', { followUpOn: '2027-01-07' }],
    ]);
  });
});

describe('the name the scheduler was given (issue 36)', () => {
  it('is kept as one clean line, markup as text: no line break reaches a header or a mail body', async () => {
    const body = calComBody('BOOKING_CREATED', { uid: 'cal-name', email: ADA, name: 'Ada\r\nBcc: all@example.com\u202E <b>Lovelace</b>\t' });
    expect((await deliver(body, calComHeaders(body))).status).toBe(200);
    const [event] = await eventsOf(ADA);
    expect(event!.name).toBe('Ada Bcc: all@example.com <b>Lovelace</b>');
    // What the team writes to them with {{name}} carries that one line.
    const { mailComposerOf } = await import('../../src/server/modules/leads/mail');
    const { values } = await mailComposerOf(ADA, { name: 'Olivia', email: 'owner@example.com' });
    expect(values).toMatchObject({ name: 'Ada Bcc: all@example.com <b>Lovelace</b>', first_name: 'Ada' });
  });
});

describe('a cancelled call and the follow-up sequences it stopped (issue 36)', () => {
  const DAY = 86_400_000;
  const STEPS = [
    { delayDays: 0, subject: 'Step one', body: 'One.' },
    { delayDays: 2, subject: 'Step two', body: 'Two.' },
    { delayDays: 5, subject: 'Step three', body: 'Three.' },
  ];
  const notice = (email: string, action: 'booked' | 'cancelled', id: string) => ({ provider: 'webhook' as const, action, externalId: id, email, name: 'Booker', startsAt: null, attribution: {}, sentAt: null });

  async function enrolledAndBooked(email: string) {
    const { saveSequence } = await import('../../src/server/modules/lead-sequences/service');
    const { submitAuditRequest } = await import('../../src/server/modules/audit/service');
    const { auditSubmissionOf } = await import('../../src/shared/schemas/audit');
    await saveSequence(admin, 'audit-requested', { active: true, steps: STEPS });
    const fields = { fullName: 'Ada Lovelace', email, businessName: 'Analytical Clinic', website: '', businessType: 'clinic', goals: ['more-leads'], message: '', consent: true };
    await submitAuditRequest(auditSubmissionOf(fields), { clientIp: randomIp(), userId: undefined });
    const enrolment = async () => (await h.handle.db.select().from(leadSequenceEnrollments).where(eq(leadSequenceEnrollments.email, email)))[0]!;
    const { enrolledAt } = await enrolment();
    const { receiveBooking } = await import('../../src/server/modules/bookings/service');
    await receiveBooking({ deliveryKey: `${email}-booked` }, notice(email, 'booked', `${email}-call`), new Date(enrolledAt.getTime() + DAY / 4));
    expect(await enrolment()).toMatchObject({ status: 'stopped', stopReason: 'booked', nextStep: 0 });
    const cancelAt = (days: number) => receiveBooking({ deliveryKey: `${email}-cancelled` }, notice(email, 'cancelled', `${email}-call`), new Date(enrolledAt.getTime() + days * DAY));
    return { enrolledAt, enrolment, cancelAt };
  }
  const sendsOf = (enrollmentId: string) => h.handle.db.select().from(leadSequenceSends).where(eq(leadSequenceSends.enrollmentId, enrollmentId));

  it('resumes within its schedule: the step still ahead goes out on its day, once', async () => {
    const { enrolledAt, enrolment, cancelAt } = await enrolledAndBooked(ADA);
    // Booked before step one's job ran (it will find the enrolment stopped), cancelled the same day.
    await cancelAt(0.5);
    const resumed = await enrolment();
    expect(resumed).toMatchObject({ status: 'active', stopReason: '', endedAt: null, nextStep: 0 });
    const logged = await h.handle.db.select().from(activityLog).where(eq(activityLog.action, 'sequence-resumed'));
    expect(logged.map((e) => [e.actorEmail, e.summary])).toEqual([['Booking webhook', `${ADA}: “After an audit request” resumed, the call was cancelled`]]);
    const { runDueJobsOf } = await import('../../src/server/jobs/queue');
    const { runSequenceStep } = await import('../../src/server/modules/lead-sequences/service');
    const { SEQUENCE_STEP_JOB } = await import('../../src/server/modules/lead-sequences/schedule');
    const run = (at: Date) => runDueJobsOf(SEQUENCE_STEP_JOB, { maxAttempts: 10, retryDelayMs: () => 1000, leaseMs: 300_000, run: async (p: Record<string, unknown>, _j: unknown, now: Date) => void (await runSequenceStep(p.enrollmentId as string, p.step as number, { now })) }, { now: () => at });
    await run(new Date(Math.max(resumed.nextAt!.getTime(), enrolledAt.getTime() + 0.5 * DAY) + 1000));
    const stepTwo = await enrolment();
    expect(stepTwo).toMatchObject({ status: 'active', nextStep: 1 });
    expect(stepTwo.nextAt!.getTime()).toBeGreaterThanOrEqual(enrolledAt.getTime() + 2 * DAY);
    await run(new Date(stepTwo.nextAt!.getTime() + 1000));
    await run(new Date(stepTwo.nextAt!.getTime() + 2000));
    const mails = await h.handle.db.select().from(mailQueue).where(eq(mailQueue.to, ADA));
    expect(mails.filter((m) => m.kind === 'lead-sequence').map((m) => m.subject).sort()).toEqual(['Step one', 'Step two']);
  });

  it('passes over the steps whose day went by while the call was booked, and stays stopped once no step is left in its schedule', async () => {
    const cy = await enrolledAndBooked('cy@example.com');
    // Day 3.5: step one (day 0) and step two (day 2) are more than a day late; step three (day 5) is ahead.
    await cy.cancelAt(3.5);
    const resumed = await cy.enrolment();
    expect(resumed).toMatchObject({ status: 'active', nextStep: 2 });
    expect(resumed.nextAt!.getTime()).toBeGreaterThanOrEqual(cy.enrolledAt.getTime() + 5 * DAY);
    expect((await sendsOf(resumed.id)).map((s) => [s.step, s.mailId, s.skipReason])).toEqual([
      [0, null, 'its day passed while a call was booked'],
      [1, null, 'its day passed while a call was booked'],
    ]);

    const ben = await enrolledAndBooked('ben@example.com');
    // Day 7: the last step (day 5) is past its day by more than a day: nothing is resumed, nothing sent late.
    await ben.cancelAt(7);
    expect(await ben.enrolment()).toMatchObject({ status: 'stopped', stopReason: 'booked' });
    expect(await stageOf('ben@example.com')).toBe('new');
  });

  it('does not resume while something else stops them: another call still booked, or the team moved them on', async () => {
    const { enrolment, cancelAt } = await enrolledAndBooked(ADA);
    const { receiveBooking } = await import('../../src/server/modules/bookings/service');
    await receiveBooking({ deliveryKey: 'second-booked' }, notice(ADA, 'booked', 'second-call'), new Date());
    await cancelAt(0.5);
    expect(await enrolment()).toMatchObject({ status: 'stopped', stopReason: 'booked' });
    await receiveBooking({ deliveryKey: 'second-cancelled' }, notice(ADA, 'cancelled', 'second-call'), new Date());
    expect(await enrolment()).toMatchObject({ status: 'active' });
    await setLeadStage(admin, ADA, 'client');
    expect(await enrolment()).toMatchObject({ status: 'stopped', stopReason: 'stage' });
  });
});
