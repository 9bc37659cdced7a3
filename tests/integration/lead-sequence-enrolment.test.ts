/**
 * Enrolling beyond the trigger (issue 35, decision 054) on both engines: a sequence turned on takes, when
 * the admin says so, exactly the people who agreed on its form and whom the trigger would have enrolled (not
 * those without consent, unsubscribed, replied, booked, a client or not a fit, already in it, or the team),
 * from now, once, in one statement and one activity entry; one person by hand with the reason of each
 * refusal; the person page's next mail is the mail then sent, at the time said; each sequence's numbers.
 */
import { and, eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { activityLog, bookings, jobs, leadSequenceEnrollments, mailQueue } from '../../src/server/db/schema';
import { runDueJobsOf } from '../../src/server/jobs/queue';
import { submitAuditRequest } from '../../src/server/modules/audit/service';
import { sendAuditReport } from '../../src/server/modules/audit-report/service';
import { saveChatContact } from '../../src/server/modules/chat/service';
import { personTimeline } from '../../src/server/modules/leads/people';
import { setLeadStage, setReplied } from '../../src/server/modules/leads/work';
import { enrolEveryoneWaiting, enrolOptionsOf, enrolPerson, sequenceCardNumbers } from '../../src/server/modules/lead-sequences/enrolment';
import { SEQUENCE_STEP_JOB } from '../../src/server/modules/lead-sequences/schedule';
import { runSequenceStep, saveQuietHours, saveSequence, sequencesForEditor, sequencesOf, SEQUENCE_MAIL_KIND } from '../../src/server/modules/lead-sequences/service';
import { unsubscribe, unsubscribeTokenOf, unsubscribeUrlFor } from '../../src/server/modules/lead-sequences/unsubscribe';
import { insertRun } from '../../src/server/modules/site-audit/repository';
import { scoreFindings } from '../../src/server/modules/site-audit/scoring';
import { auditSubmissionOf } from '../../src/shared/schemas/audit';
import type { SequenceTrigger } from '../../src/shared/schemas/lead-sequences';
import { createAuthHarness, randomIp, type AuthHarness } from '../support/auth';

let h: AuthHarness;
let admin: string;
const DAY = 86_400_000;
const HOUR = 3_600_000;
const STEPS = [
  { delayDays: 2, subject: 'Still thinking, {{first_name}}?', body: 'Hi {{first_name}},\n\nAbout {{business}}: <b>book</b> {{booking_link}}\n\n{{sender_name}}' },
  { delayDays: 5, subject: 'Last one', body: 'Bye.' },
];

beforeEach(async () => {
  h = await createAuthHarness();
  ({ userId: admin } = await h.signUpVerified({ email: 'owner@example.com', firstName: 'Olivia', lastName: 'Owner' }));
  // Quiet hours far from now (UTC, the site's zone until one is chosen): a step falls on its exact day.
  const hhmm = (at: number) => new Date(at).toISOString().slice(11, 16);
  await saveQuietHours(admin, { start: hhmm(Date.now() + 8 * HOUR), end: hhmm(Date.now() + 9 * HOUR) });
});
afterEach(() => h.close());

async function requestAudit(email: string, fullName = 'Ada Lovelace'): Promise<string> {
  const fields = { fullName, email, businessName: `${fullName} <Clinic>`, website: '', businessType: 'clinic', goals: ['more-leads'], message: '', consent: true };
  const result = await submitAuditRequest(auditSubmissionOf(fields), { clientIp: randomIp(), userId: undefined });
  if (result.kind !== 'accepted' || !result.id) throw new Error('not accepted');
  return result.id;
}
const chatContact = (visitor: string, name: string, email: string, followUps?: boolean) =>
  saveChatContact({ name, email, ...(followUps ? { followUps } : {}) }, { identity: { visitorKey: `key-${visitor}`, userId: null }, clientIp: randomIp() });
async function unsubscribed(email: string) {
  await h.handle.db.transaction((tx) => unsubscribeUrlFor(tx, email));
  expect(await unsubscribe(unsubscribeTokenOf(email), 'page')).toMatchObject({ status: 'unsubscribed' });
}
const liveBooking = (email: string) => h.handle.db.insert(bookings).values({ id: crypto.randomUUID(), provider: 'webhook', externalId: crypto.randomUUID(), email, startsAt: new Date(Date.now() + 3 * DAY), status: 'booked' });
const enrolledIn = async (trigger: SequenceTrigger) =>
  (await h.handle.db.select().from(leadSequenceEnrollments).where(eq(leadSequenceEnrollments.trigger, trigger))).map((e) => e.email).sort();
const sequenceMails = (email: string) => h.handle.db.select().from(mailQueue).where(and(eq(mailQueue.kind, SEQUENCE_MAIL_KIND), eq(mailQueue.to, email)));
const runSteps = (at: Date) =>
  runDueJobsOf(SEQUENCE_STEP_JOB, { maxAttempts: 10, retryDelayMs: () => 1000, leaseMs: 300_000, run: async (p, _job, now) => void (await runSequenceStep(p.enrollmentId as string, p.step as number, { now })) }, { now: () => at });
/** Three audit requests (so three who agreed): Ada; Ben, unsubscribed since; Cy, marked as replied since. */
async function adaBenAndCy() {
  await requestAudit('ada@example.com');
  await requestAudit('ben@example.com', 'Ben Unsub');
  await unsubscribed('ben@example.com');
  await requestAudit('cy@example.com', 'Cy Replied');
  await setReplied(admin, 'cy@example.com', true);
}
const turn = (trigger: SequenceTrigger, active: boolean) => saveSequence(admin, trigger, { active, steps: STEPS });

describe('turning a sequence on', () => {
  it('offers, and enrols on request, only the people the trigger would have taken: from now, once, logged with the count', async () => {
    await adaBenAndCy();
    await requestAudit('di@example.com', 'Di Stage');
    await setLeadStage(admin, 'di@example.com', 'call-booked');
    await requestAudit('eve@example.com', 'Eve Booked');
    await liveBooking('eve@example.com');
    await requestAudit('fay@example.com', 'Fay Unfit');
    await setLeadStage(admin, 'fay@example.com', 'not-a-fit');
    await requestAudit('owner@example.com', 'Olivia Owner'); // the team: never
    // Gus was in it before it was turned off: a sequence does not restart.
    await turn('audit-requested', true);
    await requestAudit('gus@example.com', 'Gus Before');
    await turn('audit-requested', false);
    // Two requests of one person: one enrolment, from the latest.
    await requestAudit('hal@example.com', 'Hal Old');
    await requestAudit('hal@example.com', 'Hal New');
    // Chat: only with the box ticked on the form their address comes from (Kit ticked it for another address).
    await chatContact('v1', 'Ida', 'ida@example.com', true);
    await chatContact('v2', 'Jo', 'jo@example.com');
    await chatContact('v3', 'Kit', 'kit-first@example.com', true);
    await chatContact('v3', 'Kit', 'kit@example.com');

    const { sequences } = await sequencesForEditor();
    const waiting = Object.fromEntries(sequences.map((s) => [s.trigger, s.waiting.count]));
    expect(waiting).toEqual({ 'audit-requested': 2, 'report-sent': 0, 'chat-lead': 1 });
    expect(sequences[0]!.waiting.oldest).toBeLessThanOrEqual(sequences[0]!.waiting.newest!);
    await expect(enrolEveryoneWaiting(admin, 'audit-requested')).rejects.toMatchObject({ code: 'CONFLICT', message: 'The sequence is off: turn it on and save it before enrolling anyone.' });

    await turn('audit-requested', true);
    const before = Date.now();
    const { enrolled, firstStepAt } = await enrolEveryoneWaiting(admin, 'audit-requested');
    expect(enrolled).toBe(2);
    expect(await enrolledIn('audit-requested')).toEqual(['ada@example.com', 'gus@example.com', 'hal@example.com']);
    const [hal] = await h.handle.db.select().from(leadSequenceEnrollments).where(eq(leadSequenceEnrollments.email, 'hal@example.com'));
    expect(hal).toMatchObject({ status: 'active', nextStep: 0, name: 'Hal New' });
    // Day 0 is now: the first step (day 2) is due two days from the enrolment, its job queued for then.
    expect(hal!.enrolledAt.getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(hal!.nextAt!.getTime()).toBe(hal!.enrolledAt.getTime() + 2 * DAY);
    expect(firstStepAt.getTime()).toBe(hal!.nextAt!.getTime());
    const [job] = await h.handle.db.select().from(jobs).where(eq(jobs.id, `${SEQUENCE_STEP_JOB}:${hal!.id}:0`));
    expect(job).toMatchObject({ kind: SEQUENCE_STEP_JOB, payload: { enrollmentId: hal!.id, step: 0 }, maxAttempts: 10 });
    expect(job!.runAt.getTime()).toBe(hal!.nextAt!.getTime());
    expect(await runSteps(new Date(hal!.nextAt!.getTime() - 60_000))).toBe(0);
    await runSteps(new Date(hal!.nextAt!.getTime() + 1000));
    // Nobody confirmed Hal's address: his name stays out (decision 057).
    expect((await sequenceMails('hal@example.com')).map((m) => m.subject)).toEqual(['Still thinking, there?']);
    expect(await sequenceMails('ada@example.com')).toHaveLength(1);

    // Again: nobody is left, nothing is logged twice.
    await expect(enrolEveryoneWaiting(admin, 'audit-requested')).resolves.toMatchObject({ enrolled: 0 });
    const logged = await h.handle.db.select().from(activityLog).where(and(eq(activityLog.entityType, 'lead-sequence'), eq(activityLog.action, 'enrol')));
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({ entityId: 'audit-requested', actorEmail: 'owner@example.com', after: { enrolled: 2 } });
    expect(logged[0]!.summary).toBe('2 people who had agreed enrolled in “After an audit request”');

    // The chat's sequence: Ida, who ticked the box; not Jo, not Kit.
    await turn('chat-lead', true);
    await enrolEveryoneWaiting(admin, 'chat-lead');
    expect(await enrolledIn('chat-lead')).toEqual(['ida@example.com']);
    const { member } = await memberOf();
    await expect(enrolEveryoneWaiting(member, 'chat-lead')).rejects.toMatchObject({ code: 'NOT_ADMIN' });
  });

  it('the report’s sequence takes the people a report was sent to', async () => {
    const requestId = await requestAudit('ada@example.com');
    await requestAudit('ben@example.com', 'Ben Noreport');
    const findings = scoreFindings([{ id: 'contact-form', category: 'leads', title: 'Contact form', status: 'fail', evidence: ['none'], why: 'w', fix: 'f' }]);
    await insertRun(h.handle.db, { id: crypto.randomUUID(), requestId, url: 'https://clinic.example/', status: 'done', finishedAt: new Date(), score: findings.overall ?? null, findings });
    await sendAuditReport(admin, requestId, { summary: 'Fix the form.', notes: {}, hidden: [] });
    await turn('report-sent', true);
    expect((await sequenceCardNumbers('report-sent')).waiting.count).toBe(1);
    await enrolEveryoneWaiting(admin, 'report-sent');
    expect(await enrolledIn('report-sent')).toEqual(['ada@example.com']);
  });
});

async function memberOf() {
  const { userId } = await h.signUpVerified({ email: `member-${crypto.randomUUID()}@example.com` });
  return { member: userId };
}

describe('enrolling one person by hand', () => {
  it('only with consent for that sequence, refused with the reason otherwise; on their timeline', async () => {
    await adaBenAndCy();
    await chatContact('v1', 'Ida', 'ida@example.com', true);

    const refused = (email: string, trigger: SequenceTrigger, message: string) => expect(enrolPerson(admin, email, trigger)).rejects.toMatchObject({ code: 'CONFLICT', message });
    await refused('ada@example.com', 'audit-requested', 'Not enrolled. The sequence is off: turn it on in Follow-up sequences first.');
    await turn('audit-requested', true);
    await turn('chat-lead', true);
    await refused('ada@example.com', 'chat-lead', 'Not enrolled. No consent recorded: they did not tick “Email me follow-ups” on their latest chat contact form.');
    await refused('ada@example.com', 'report-sent', 'Not enrolled. No consent recorded: no audit report was sent to them, and this sequence follows a report.');
    await refused('ben@example.com', 'audit-requested', 'Not enrolled. No follow-up emails go to them: they unsubscribed.');
    await refused('cy@example.com', 'audit-requested', 'Not enrolled. No follow-up emails go to them: they replied.');
    await expect(enrolPerson(admin, 'nobody@example.com', 'audit-requested')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    const { member } = await memberOf();
    await expect(enrolPerson(member, 'ada@example.com', 'audit-requested')).rejects.toMatchObject({ code: 'NOT_ADMIN' });

    expect(await enrolOptionsOf('ada@example.com')).toEqual([
      { trigger: 'audit-requested' },
      { trigger: 'report-sent', refusal: 'No consent recorded: no audit report was sent to them, and this sequence follows a report.' },
      { trigger: 'chat-lead', refusal: 'No consent recorded: they did not tick “Email me follow-ups” on their latest chat contact form.' },
    ]);
    const { firstStepAt } = await enrolPerson(admin, 'ADA@example.com', 'audit-requested');
    expect(await enrolledIn('audit-requested')).toEqual(['ada@example.com']);
    await refused('ada@example.com', 'audit-requested', 'Not enrolled. They are already in this sequence (a person goes through each sequence once).');
    expect((await enrolOptionsOf('ada@example.com'))[0]).toEqual({ trigger: 'audit-requested', refusal: 'They are already in this sequence (a person goes through each sequence once).' });
    const { entries } = await personTimeline('ada@example.com');
    expect(entries.find((e) => e.type === 'lead-enrolled')).toMatchObject({ trigger: 'audit-requested', actorName: 'Olivia Owner' });
    const [e] = (await sequencesOf('ada@example.com')).enrollments;
    expect(e!.nextAt!.getTime()).toBe(firstStepAt.getTime());

    await enrolPerson(admin, 'ida@example.com', 'chat-lead');
    expect(await enrolledIn('chat-lead')).toEqual(['ida@example.com']);
  });
});

describe('the next mail on the person page', () => {
  it('is the mail then sent, at the time it says, moved out of quiet hours set since', async () => {
    await requestAudit('ada@example.com');
    // Her address is confirmed (a member account she verified): the mail may use what she typed (decision 057).
    await h.signUpVerified({ email: 'ada@example.com', firstName: 'Ada', lastName: 'Lovelace' });
    await turn('audit-requested', true);
    await enrolPerson(admin, 'ada@example.com', 'audit-requested');
    const [first] = (await sequencesOf('ada@example.com')).enrollments;
    const next = first!.next!;
    expect(next).toMatchObject({ step: 0, subject: 'Still thinking, Ada?' });
    expect(next.text).toMatch(/^Hi Ada,\n\nAbout Ada Lovelace <Clinic>: <b>book<\/b> https?:\/\/\S+\n\n.+\n\n--\nYou get this email from .+ unsubscribe: http\S+\/unsubscribe\/[\w-]{43}$/);
    expect(next.at.getTime()).toBe(first!.nextAt!.getTime());

    // Quiet hours now cover the step's time: the preview moves to their end, and so does the mail.
    const hhmm = (at: number) => new Date(at).toISOString().slice(11, 16);
    await saveQuietHours(admin, { start: hhmm(next.at.getTime() - HOUR), end: hhmm(next.at.getTime() + 2 * HOUR) });
    const [moved] = (await sequencesOf('ada@example.com')).enrollments;
    expect(moved!.next!.at.getTime()).toBe(Math.floor(next.at.getTime() / 60_000) * 60_000 + 2 * HOUR);
    await runSteps(new Date(next.at.getTime() + 1000));
    expect(await sequenceMails('ada@example.com')).toHaveLength(0);
    await runSteps(new Date(moved!.next!.at.getTime() + 1000));
    const [mail] = await sequenceMails('ada@example.com');
    expect({ subject: mail!.subject, text: mail!.text }).toEqual({ subject: next.subject, text: next.text });

    // The step after: previewed as it will be sent too.
    const [second] = (await sequencesOf('ada@example.com')).enrollments;
    expect(second!.next).toMatchObject({ step: 1, subject: 'Last one' });
  });

  it('a step that needs a report none was sent for: said to be skipped, and skipped', async () => {
    await requestAudit('ada@example.com');
    await saveSequence(admin, 'audit-requested', { active: true, steps: [{ delayDays: 0, subject: 'Your report', body: 'Here: {{audit_link}}' }] });
    await enrolPerson(admin, 'ada@example.com', 'audit-requested');
    const [e] = (await sequencesOf('ada@example.com')).enrollments;
    expect(e!.next).toMatchObject({ step: 0, skip: 'no audit report was sent to them yet' });
    await runSteps(new Date(e!.next!.at.getTime() + 1000));
    expect((await sequencesOf('ada@example.com')).enrollments[0]!.skipped).toEqual([{ step: 0, reason: 'no audit report was sent to them yet' }]);
  });
});

describe('numbers per sequence', () => {
  it('enrolled, running, emails sent, replied, booked and unsubscribed, each counted after the enrolment', async () => {
    await turn('audit-requested', true);
    for (const name of ['ada', 'ben', 'cy', 'di', 'eve']) await requestAudit(`${name}@example.com`, `${name} Person`);
    const enrolments = await h.handle.db.select().from(leadSequenceEnrollments);
    expect(enrolments).toHaveLength(5);
    await runSteps(new Date(enrolments[0]!.nextAt!.getTime() + 60_000));
    await setReplied(admin, 'ada@example.com', true);
    await liveBooking('ben@example.com');
    await setLeadStage(admin, 'cy@example.com', 'call-booked');
    await unsubscribed('di@example.com');
    const { numbers } = await sequenceCardNumbers('audit-requested');
    expect(numbers).toEqual({ enrolled: 5, running: 2, sent: 5, replied: 1, booked: 2, unsubscribed: 1 });
    expect((await sequenceCardNumbers('chat-lead')).numbers).toEqual({ enrolled: 0, running: 0, sent: 0, replied: 0, booked: 0, unsubscribed: 0 });
  });
});
