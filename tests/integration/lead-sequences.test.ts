/**
 * Follow-up sequences (issue 23, decision 049) on both engines: enrolled only with the form's consent while
 * the trigger's sequence is on; each step sent on its day, outside the quiet hours, once, with RFC 8058's
 * one-click unsubscribe and a visible link; stopped by an unsubscribe, a booking, a reply or the stage; the
 * link tampered with or used again; two workers and a repeated step never send a step twice.
 */
import { and, eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/server/db/client';
import { activityLog, leadSequenceEnrollments, leadSequenceSends, mailQueue } from '../../src/server/db/schema';
import { runDueJobsOf } from '../../src/server/jobs/queue';
import { submitAuditRequest } from '../../src/server/modules/audit/service';
import { saveChatContact } from '../../src/server/modules/chat/service';
import { setLeadStage, setReplied } from '../../src/server/modules/leads/work';
import { SEQUENCE_STEP_JOB } from '../../src/server/modules/lead-sequences/schedule';
import { runSequenceStep, saveQuietHours, saveSequence, sendNextStepNow, sequencesOf, SEQUENCE_MAIL_KIND } from '../../src/server/modules/lead-sequences/service';
import { unsubscribe, unsubscribeStateOf } from '../../src/server/modules/lead-sequences/unsubscribe';
import { personTimeline } from '../../src/server/modules/leads/people';
import { auditSubmissionOf } from '../../src/shared/schemas/audit';
import { createAuthHarness, randomIp, type AuthHarness } from '../support/auth';
import { dayOf } from '../support/quiet-hours';
import { onPostgres, postgresUrlOf } from '../support/db';

let h: AuthHarness;
let admin: string;
const ADA = 'ada@example.com';
const STEPS = [
  { delayDays: 0, subject: 'Thanks, {{first_name}}', body: 'Hi {{first_name}},\n\nAbout {{business}}: <b>soon</b>.' },
  { delayDays: 2, subject: 'Day two for {{business}}', body: 'Book: {{booking_link}}' },
  { delayDays: 5, subject: 'Day five', body: 'Last one.' },
];

beforeEach(async () => {
  h = await createAuthHarness();
  ({ userId: admin } = await h.signUpVerified({ email: 'owner@example.com', firstName: 'Olivia', lastName: 'Owner' }));
});
afterEach(() => h.close());

async function requestAudit(email = ADA): Promise<string> {
  const fields = { fullName: 'Ada Lovelace', email, businessName: 'Analytical <Clinic>', website: '', businessType: 'clinic', goals: ['more-leads'], message: '', consent: true };
  const result = await submitAuditRequest(auditSubmissionOf(fields), { clientIp: randomIp(), userId: undefined });
  if (result.kind !== 'accepted' || !result.id) throw new Error('not accepted');
  return result.id;
}

const enrollments = (email = ADA) => h.handle.db.select().from(leadSequenceEnrollments).where(eq(leadSequenceEnrollments.email, email));
const sequenceMails = (email = ADA) => h.handle.db.select().from(mailQueue).where(and(eq(mailQueue.kind, SEQUENCE_MAIL_KIND), eq(mailQueue.to, email)));

const runSteps = (at: Date, database?: Database) => runDueJobsOf(SEQUENCE_STEP_JOB, stepKind(), { now: () => at, ...(database ? { database } : {}) });
// The kind as the queue defines it (schedule.ts), run under the test's clock.
const stepKind = () => ({ maxAttempts: 10, retryDelayMs: () => 1000, leaseMs: 300_000, run: async (p: Record<string, unknown>, _job: unknown, now: Date) => void (await runSequenceStep(p.enrollmentId as string, p.step as number, { now })) });

describe('enrolling', () => {
  it('nobody while the sequence is off; with it on, an audit request (consent on the form) enrols once', async () => {
    await requestAudit();
    expect(await enrollments()).toHaveLength(0);
    await saveSequence(admin, 'audit-requested', { active: true, steps: STEPS });
    await requestAudit();
    await requestAudit(); // a second request does not start it again
    const [e] = await enrollments();
    expect(await enrollments()).toHaveLength(1);
    expect(e).toMatchObject({ trigger: 'audit-requested', status: 'active', nextStep: 0, name: 'Ada Lovelace' });
    expect(e!.consentedAt).toBeInstanceOf(Date);
    // The team is no lead: an admin trying the form is not enrolled.
    await requestAudit('OWNER@example.com');
    expect(await enrollments('owner@example.com')).toHaveLength(0);
  });

  it('a chat lead only with "Email me follow-ups" ticked', async () => {
    await saveSequence(admin, 'chat-lead', { active: true, steps: [STEPS[0]!] });
    const visitor = (id: string) => ({ identity: { visitorKey: `key-${id}`, userId: null }, clientIp: randomIp() });
    await saveChatContact({ name: 'Ben', email: 'ben@example.com' }, visitor('a1'));
    await saveChatContact({ name: 'Cy', email: 'cy@example.com', followUps: true }, visitor('b2'));
    expect(await enrollments('ben@example.com')).toHaveLength(0);
    expect(await enrollments('cy@example.com')).toMatchObject([{ trigger: 'chat-lead', status: 'active' }]);
    await expect(saveChatContact({ name: 'Di', email: 'di@example.com', followUps: 'yes' }, visitor('c3'))).rejects.toMatchObject({ code: 'INVALID' });
  });

  it('refuses a sequence that breaks its rules, beside the field, and is the admins’ only', async () => {
    await expect(saveSequence(admin, 'audit-requested', { active: true, steps: [] })).rejects.toMatchObject({ code: 'INVALID', fieldErrors: { active: 'Add a step before turning the sequence on' } });
    await expect(saveSequence(admin, 'audit-requested', { active: true, steps: [STEPS[1], STEPS[0]] })).rejects.toMatchObject({ fieldErrors: { 'steps.1.delayDays': 'Send this step after day 2 (the step before)' } });
    await expect(saveSequence(admin, 'audit-requested', { active: false, steps: [{ ...STEPS[0], body: '{{unknown}}' }] })).rejects.toMatchObject({ fieldErrors: { 'steps.0.body': expect.stringMatching(/^Unknown placeholder \{\{unknown\}\}/) } });
    await expect(saveQuietHours(admin, { start: '08:00', end: '08:00' })).rejects.toMatchObject({ fieldErrors: { end: 'End the quiet hours at another time than they start' } });
    const { userId: member } = await h.signUpVerified({ email: 'member@example.com' });
    await expect(saveSequence(member, 'audit-requested', { active: true, steps: STEPS })).rejects.toMatchObject({ code: 'NOT_ADMIN' });
  });
});

describe('sending', () => {
  it('sends each step on its day, outside the quiet hours, with one-click unsubscribe and a visible link', async () => {
    await saveSequence(admin, 'audit-requested', { active: true, steps: STEPS });
    await requestAudit();
    const [e] = await enrollments();
    // Nothing before the first step's time; the first step at its time.
    expect(await runSteps(new Date(e!.enrolledAt.getTime() - 60_000))).toBe(0);
    await runSteps(dayOf(e!.enrolledAt, 0));
    const [first, ...others] = await sequenceMails();
    expect(others).toHaveLength(0);
    // Nobody confirmed Ada's address: what she typed (name, business) stays out (decision 057, mail-abuse.test.ts).
    expect(first!.subject).toBe('Thanks, there');
    expect(first!.text).toMatch(/^Hi there,\n\nAbout your business: <b>soon<\/b>\.\n\n--\nYou get this email from .+ unsubscribe: (http\S+\/unsubscribe\/[\w-]{43})$/);
    expect(first!.html).toContain('&lt;b&gt;soon&lt;/b&gt;');
    const url = /unsubscribe: (\S+)$/.exec(first!.text)![1]!;
    expect(first!.headers).toEqual({ 'List-Unsubscribe': `<${url}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' });
    // Day one: nothing more; day two: the second step, once, however often the queue runs.
    await runSteps(dayOf(e!.enrolledAt, 1));
    expect(await sequenceMails()).toHaveLength(1);
    await runSteps(dayOf(e!.enrolledAt, 2));
    await runSteps(dayOf(e!.enrolledAt, 2));
    expect((await sequenceMails()).map((m) => m.subject).sort()).toEqual(['Day two for your business', 'Thanks, there']);
    await runSteps(dayOf(e!.enrolledAt, 5));
    expect(await sequenceMails()).toHaveLength(3);
    expect((await enrollments())[0]).toMatchObject({ status: 'completed', nextAt: null });
    const { entries } = await personTimeline(ADA);
    expect(entries.filter((x) => x.type === 'mail' && x.kind === SEQUENCE_MAIL_KIND)).toHaveLength(3);
  });

  it('waits for the end of the quiet hours of the site', async () => {
    await saveQuietHours(admin, { start: '00:00', end: '23:59' });
    await saveSequence(admin, 'audit-requested', { active: true, steps: STEPS });
    await requestAudit();
    const [e] = await enrollments();
    expect(e!.nextAt!.toISOString().slice(11, 16)).toBe('23:59');
    const quietTime = new Date(e!.nextAt!.getTime() - 60_000);
    await runSteps(quietTime);
    expect(await sequenceMails()).toHaveLength(0);
    await runSteps(new Date(e!.nextAt!.getTime() + 1000));
    expect(await sequenceMails()).toHaveLength(1);
  });

  it('two workers at once, and the same step run twice at once, send it once', async () => {
    await saveSequence(admin, 'audit-requested', { active: true, steps: STEPS });
    for (let n = 0; n < 8; n++) await requestAudit(`p${n}@example.com`);
    const other = onPostgres ? await openDatabase({ kind: 'postgres', url: await postgresUrlOf(h.handle) }) : undefined;
    try {
      const at = dayOf(new Date(), 0);
      await Promise.all([runSteps(at, h.handle.db), runSteps(at, other?.db ?? h.handle.db)]);
      const mails = await h.handle.db.select().from(mailQueue).where(eq(mailQueue.kind, SEQUENCE_MAIL_KIND));
      expect(mails.map((m) => m.to).sort()).toEqual(Array.from({ length: 8 }, (_, n) => `p${n}@example.com`));
      // A lease run out while the first run was still sending: both runs of step 1 at once.
      const [e] = await enrollments('p0@example.com');
      const later = dayOf(e!.enrolledAt, 2);
      const outcomes = await Promise.all([runSequenceStep(e!.id, 1, { now: later }), runSequenceStep(e!.id, 1, { now: later })]);
      expect(outcomes.toSorted()).toEqual(['not-due', 'sent']);
      expect(await sequenceMails('p0@example.com')).toHaveLength(2);
      expect(await h.handle.db.select().from(leadSequenceSends).where(eq(leadSequenceSends.enrollmentId, e!.id))).toHaveLength(2);
    } finally {
      await other?.close();
    }
  });
});

describe('stopping', () => {
  async function enrolled(email = ADA) {
    await saveSequence(admin, 'audit-requested', { active: true, steps: STEPS });
    await requestAudit(email);
    const [e] = await enrollments(email);
    await runSteps(dayOf(e!.enrolledAt, 0));
    return e!;
  }

  it('one click unsubscribes: no step again, the link used again or tampered with changes nothing', async () => {
    const e = await enrolled();
    const [mail] = await sequenceMails();
    const token = /\/unsubscribe\/([\w-]{43})>/.exec(mail!.headers['List-Unsubscribe']!)![1]!;
    expect(await unsubscribeStateOf(token)).toMatchObject({ status: 'subscribed', email: ADA });
    const tampered = token.slice(0, -1) + (token.endsWith('A') ? 'B' : 'A');
    expect(await unsubscribe(tampered, 'one-click')).toEqual({ status: 'invalid' });
    expect(await unsubscribe('not-a-token', 'one-click')).toEqual({ status: 'invalid' });
    expect(await unsubscribe(token, 'one-click')).toMatchObject({ status: 'unsubscribed', email: ADA });
    expect(await unsubscribe(token, 'page')).toMatchObject({ status: 'unsubscribed', email: ADA });
    const logged = await h.handle.db.select().from(activityLog).where(and(eq(activityLog.entityId, ADA), eq(activityLog.action, 'unsubscribed')));
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({ actorId: null, actorEmail: ADA, after: { via: 'one-click', sequencesStopped: 1 } });
    await runSteps(dayOf(e.enrolledAt, 2));
    await runSteps(dayOf(e.enrolledAt, 5));
    expect(await sequenceMails()).toHaveLength(1);
    expect((await enrollments())[0]).toMatchObject({ status: 'stopped', stopReason: 'unsubscribed' });
    await expect(sendNextStepNow(admin, e.id)).rejects.toMatchObject({ code: 'CONFLICT', message: 'This sequence has ended for them: nothing more is sent.' });
    // Another trigger never enrols an unsubscribed address.
    await saveSequence(admin, 'chat-lead', { active: true, steps: [STEPS[0]!] });
    await saveChatContact({ name: 'Ada', email: ADA, followUps: true }, { identity: { visitorKey: 'key-ada', userId: null }, clientIp: randomIp() });
    expect((await enrollments()).map((x) => x.trigger)).toEqual(['audit-requested']);
    expect((await sequencesOf(ADA)).unsubscribedAt).toBeInstanceOf(Date);
  });

  it('a reply marked by an admin, a booked call and the stage stop it; "Send now" sends the next step at once', async () => {
    const ada = await enrolled();
    await expect(sendNextStepNow(admin, ada.id)).resolves.toBe('sent');
    expect((await sequenceMails()).map((m) => m.subject)).toContain('Day two for your business');
    await setReplied(admin, ADA, true);
    expect((await enrollments())[0]).toMatchObject({ status: 'stopped', stopReason: 'replied' });
    const { entries } = await personTimeline(ADA);
    expect(entries.some((x) => x.type === 'lead-replied')).toBe(true);

    const ben = await enrolled('ben@example.com');
    await setLeadStage(admin, 'ben@example.com', 'call-booked');
    expect((await enrollments('ben@example.com'))[0]).toMatchObject({ status: 'stopped', stopReason: 'booked' });
    await runSteps(dayOf(ben.enrolledAt, 2));
    expect(await sequenceMails('ben@example.com')).toHaveLength(1);

    const cy = await enrolled('cy@example.com');
    await setLeadStage(admin, 'cy@example.com', 'client');
    expect((await enrollments('cy@example.com'))[0]).toMatchObject({ status: 'stopped', stopReason: 'stage' });
    await runSteps(dayOf(cy.enrolledAt, 2));
    expect(await sequenceMails('cy@example.com')).toHaveLength(1);

    // Turned off: the step's own check stops it.
    const di = await enrolled('di@example.com');
    await saveSequence(admin, 'audit-requested', { active: false, steps: STEPS });
    await runSteps(dayOf(di.enrolledAt, 2));
    expect((await enrollments('di@example.com'))[0]).toMatchObject({ status: 'stopped', stopReason: 'turned-off' });
  });
});
