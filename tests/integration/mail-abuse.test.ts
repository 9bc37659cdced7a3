/**
 * The site's mail turned against strangers (issue 36, decision 057), on both engines: the relay of a
 * phisher's words through a follow-up sequence (the chat's "Email me follow-ups", the audit form's consent),
 * the flood of one address from many client addresses, the flood of the team's notices, and what confirms
 * an address. Each test is the attack as the review made it.
 */
import { eq, sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { auditRequests, auditReports, jobs, leadEvents, leadNoticeHolds, leadSequenceEnrollments, mailQueue, users } from '../../src/server/db/schema';
import { runDueJobsOf } from '../../src/server/jobs/queue';
import { submitAuditRequest } from '../../src/server/modules/audit/service';
import { openReport, sendAuditReport } from '../../src/server/modules/audit-report/service';
import { hashReportToken } from '../../src/server/modules/audit-report/token';
import { receiveBooking } from '../../src/server/modules/bookings/service';
import { saveChatContact } from '../../src/server/modules/chat/service';
import { LEAD_NOTICE_DIGEST_JOB, LEAD_NOTICE_DIGEST_KIND, sendLeadNoticeDigest } from '../../src/server/modules/lead-notices/service';
import { SEQUENCE_STEP_JOB } from '../../src/server/modules/lead-sequences/schedule';
import { runSequenceStep, saveSequence, sequencesOf, SEQUENCE_MAIL_KIND } from '../../src/server/modules/lead-sequences/service';
import { unsubscribe, unsubscribeTokenOf } from '../../src/server/modules/lead-sequences/unsubscribe';
import { insertRun } from '../../src/server/modules/site-audit/repository';
import { scoreFindings } from '../../src/server/modules/site-audit/scoring';
import { isConfirmedAddress } from '../../src/server/modules/unconfirmed-mail/service';
import { auditSubmissionOf } from '../../src/shared/schemas/audit';
import { createAuthHarness, randomIp, type AuthHarness } from '../support/auth';
import { dayOf } from '../support/quiet-hours';

let h: AuthHarness;
let admin: string;
const VICTIM = 'victim@example.com';
const PHISH = 'Your account is locked - verify at https://evil.example/login';
const PHISH_WORDS = /evil\.example|account is locked|verify at/i;
const DAY = 86_400_000;
const CAP = 3; // UNCONFIRMED_MAILS_PER_DAY's default
const PER_HOUR = 5; // LEAD_NOTICES_PER_HOUR's default
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

beforeEach(async () => {
  h = await createAuthHarness();
  ({ userId: admin } = await h.signUpVerified({ email: 'owner@example.com', firstName: 'Olivia', lastName: 'Owner' }));
});
afterEach(() => h.close());

const mailsTo = (email: string) => h.handle.db.select().from(mailQueue).where(sql`lower(${mailQueue.to}) = ${email}`).orderBy(mailQueue.createdAt);
const enrollmentOf = async (email: string) => (await h.handle.db.select().from(leadSequenceEnrollments).where(eq(leadSequenceEnrollments.email, email)))[0]!;

const stepKind = () => ({ maxAttempts: 10, retryDelayMs: () => 1000, leaseMs: 300_000, run: async (p: Record<string, unknown>, _job: unknown, now: Date) => void (await runSequenceStep(p.enrollmentId as string, p.step as number, { now })) });
const runSteps = (at: Date) => runDueJobsOf(SEQUENCE_STEP_JOB, stepKind(), { now: () => at });
const digestKind = () => ({ maxAttempts: 20, retryDelayMs: () => 1000, leaseMs: 300_000, run: async (p: Record<string, unknown>, _job: unknown, now: Date) => void (await sendLeadNoticeDigest(p.adminId as string, now)) });
const runDigests = (at: Date) => runDueJobsOf(LEAD_NOTICE_DIGEST_JOB, digestKind(), { now: () => at });

async function requestAudit(over: Record<string, unknown> = {}, clientIp = randomIp()): Promise<string> {
  const fields = { fullName: 'Ada Lovelace', email: VICTIM, businessName: 'Analytical Clinic', website: '', businessType: 'clinic', goals: ['more-leads'], message: '', consent: true, ...over };
  const result = await submitAuditRequest(auditSubmissionOf(fields), { clientIp, userId: undefined });
  if (result.kind !== 'accepted' || !result.id) throw new Error(`not accepted: ${JSON.stringify(result)}`);
  return result.id;
}
const chatLead = (name: string, email: string, key = crypto.randomUUID()) =>
  saveChatContact({ name, email, followUps: true }, { identity: { visitorKey: `key-${key}`, userId: null }, clientIp: randomIp() });

/** A second admin, so that "every admin" is more than one. */
async function secondAdmin(): Promise<string> {
  const { userId } = await h.signUpVerified({ email: 'second@example.com', firstName: 'Sam', lastName: 'Second' });
  await h.handle.db.update(users).set({ role: 'admin' }).where(eq(users.id, userId));
  return userId;
}

const RELAY_STEPS = [
  { delayDays: 0, subject: 'Hi {{name}}', body: 'Hello {{first_name}},\n\nAbout {{business}}: here is what we do.\n\n{{sender_name}}' },
  { delayDays: 1, subject: 'Again, {{first_name}}', body: 'Still thinking about {{business}}, {{name}}?' },
];

describe('the phishing relay through a sequence', () => {
  it('through the chat: a stranger’s address with a phisher’s “name” gets none of it; once the address is confirmed, the name fills in', async () => {
    await saveSequence(admin, 'chat-lead', { active: true, steps: RELAY_STEPS });
    await chatLead(PHISH, VICTIM);
    const enrolled = await enrollmentOf(VICTIM);
    await runSteps(dayOf(enrolled.enrolledAt, 0));

    const [first, ...others] = await mailsTo(VICTIM);
    expect(others).toHaveLength(0);
    expect(first).toMatchObject({ kind: SEQUENCE_MAIL_KIND, subject: 'Hi there' });
    for (const part of [first!.subject, first!.text, first!.html]) expect(part).not.toMatch(PHISH_WORDS);
    expect(first!.text).toMatch(/^Hello there,\n\nAbout your business: here is what we do\./);
    // The team is told what was typed, as the visitor's words (and may judge it).
    const [notice] = await mailsTo('owner@example.com');
    expect(notice!.text).toContain(`Name: ${PHISH}`);

    // The address's owner verifies an account of their own: it is confirmed, and their own name is used.
    await h.signUpVerified({ email: VICTIM, firstName: 'Vera', lastName: 'Tim' });
    expect((await sequencesOf(VICTIM)).addressConfirmed).toBe(true);
    await runSteps(dayOf(enrolled.enrolledAt, 1));
    const second = (await mailsTo(VICTIM)).find((m) => m.kind === SEQUENCE_MAIL_KIND && m.id !== first!.id)!;
    expect(second).toMatchObject({ subject: 'Again, Vera' });
    expect(second.text).toMatch(/^Still thinking about your business, Vera Tim\?/);
  });

  it('through the audit form: neither the confirmation nor the sequence nor the person page’s preview carries the typed name or business', async () => {
    await saveSequence(admin, 'audit-requested', { active: true, steps: RELAY_STEPS });
    await requestAudit({ fullName: PHISH, businessName: 'Urgent: verify at https://evil.example/login' });
    const enrolled = await enrollmentOf(VICTIM);
    // What the team sees coming for them is what they will get.
    const page = await sequencesOf(VICTIM);
    expect(page.addressConfirmed).toBe(false);
    expect(page.enrollments[0]!.next).toMatchObject({ subject: 'Hi there' });
    const preview = page.enrollments[0];
    expect(preview!.next!.text).not.toMatch(PHISH_WORDS);

    await runSteps(dayOf(enrolled.enrolledAt, 0));
    const mails = await mailsTo(VICTIM);
    expect(mails.map((m) => m.kind).sort()).toEqual(['audit-confirmation', SEQUENCE_MAIL_KIND]);
    for (const mail of mails) for (const part of [mail.subject, mail.text, mail.html]) expect(part).not.toMatch(PHISH_WORDS);
  });

  it('after the report sent to the address was opened, a sequence may greet by the name typed before', async () => {
    await saveSequence(admin, 'report-sent', { active: true, steps: [{ delayDays: 0, subject: 'Your report, {{first_name}}', body: 'About {{business}}.' }] });
    const id = await requestAudit();
    const findings = scoreFindings([{ id: 'a', category: 'leads', title: 'a', status: 'pass', evidence: ['x'], why: 'w', fix: 'f' }]);
    await insertRun(h.handle.db, { id: crypto.randomUUID(), requestId: id, url: 'https://clinic.example/', status: 'done', finishedAt: new Date(), score: findings.overall ?? null, findings });
    await sendAuditReport(admin, id, { summary: '', notes: {}, hidden: [] });
    const enrolled = await enrollmentOf(VICTIM);
    expect((await sequencesOf(VICTIM)).enrollments[0]!.next).toMatchObject({ subject: 'Your report, there' });

    const token = 'R'.repeat(43);
    await h.handle.db.update(auditReports).set({ tokenHash: hashReportToken(token) });
    expect((await openReport(token, { method: 'GET', userAgent: BROWSER })).kind).toBe('ok');
    await runSteps(dayOf(enrolled.enrolledAt, 0));
    const step = (await mailsTo(VICTIM)).find((m) => m.kind === SEQUENCE_MAIL_KIND)!;
    expect(step).toMatchObject({ subject: 'Your report, Ada', text: expect.stringMatching(/^About Analytical Clinic\./) });
  });
});

describe('what confirms an address', () => {
  it('a verified account, an opened report or a used unsubscribe link; not a form, a chat, an unverified sign-up or a booking', async () => {
    const confirmed = (email: string) => isConfirmedAddress(email);
    await requestAudit({ email: 'form@example.com' });
    await chatLead('Chat', 'chat@example.com');
    await h.signUp({ email: 'pending@example.com' });
    await receiveBooking({ deliveryKey: 'd-booked' }, { provider: 'webhook', action: 'booked', externalId: 'b-1', email: 'booked@example.com', name: 'Bo', startsAt: null, attribution: {}, sentAt: null });
    for (const email of ['form@example.com', 'chat@example.com', 'pending@example.com', 'booked@example.com', 'nobody@example.com']) expect(await confirmed(email), email).toBe(false);

    await h.signUpVerified({ email: 'member@example.com' });
    expect(await confirmed('MEMBER@example.com')).toBe(true);
    // The unsubscribe link mailed to an address, used.
    await h.handle.db.transaction(async (tx) => {
      const { unsubscribeUrlFor } = await import('../../src/server/modules/lead-sequences/unsubscribe');
      await unsubscribeUrlFor(tx, 'chat@example.com');
    });
    expect(await confirmed('chat@example.com')).toBe(false);
    await unsubscribe(unsubscribeTokenOf('chat@example.com'), 'page');
    expect(await confirmed('chat@example.com')).toBe(true);
  });
});

describe('the flood of one address', () => {
  it('14 audit requests for one victim from 12 client addresses: at most the cap of automatic mails a day, every request kept, the rest later', async () => {
    await saveSequence(admin, 'audit-requested', { active: true, steps: [{ delayDays: 0, subject: 'Thanks', body: 'We are on it.' }] });
    const ips = Array.from({ length: 12 }, () => randomIp());
    for (let i = 0; i < 14; i++) await requestAudit({ fullName: `Flood ${i}` }, ips[i % 12]);
    expect(await h.handle.db.select().from(auditRequests)).toHaveLength(14);

    const enrolled = await enrollmentOf(VICTIM);
    expect(await runSteps(dayOf(enrolled.enrolledAt, 0))).toBe(1);
    const mails = await mailsTo(VICTIM);
    expect(mails).toHaveLength(CAP);
    expect(mails.every((m) => m.kind === 'audit-confirmation')).toBe(true);
    // The sequence's first step waits for the cap to free, a day after the first mail (outside quiet hours).
    const waiting = await enrollmentOf(VICTIM);
    expect(waiting).toMatchObject({ status: 'active', nextStep: 0 });
    expect(waiting.nextAt!.getTime()).toBeGreaterThanOrEqual(mails[0]!.createdAt.getTime() + DAY);
    await runSteps(new Date(waiting.nextAt!.getTime() - 60_000));
    expect(await mailsTo(VICTIM)).toHaveLength(CAP);
    await runSteps(new Date(waiting.nextAt!.getTime() + 1000));
    expect((await mailsTo(VICTIM)).map((m) => m.kind)).toEqual([...Array(CAP).fill('audit-confirmation'), SEQUENCE_MAIL_KIND]);

    // The team knows why the requester got no confirmation.
    const notices = (await mailsTo('owner@example.com')).filter((m) => m.kind === 'audit-notification');
    expect(notices[0]!.text).not.toContain('No confirmation was emailed');
    expect(notices[CAP]!.text).toContain('No confirmation was emailed to the requester: nobody has confirmed this address');
  });

  it('requests sent at once are counted one after the other (several server processes on PostgreSQL)', async () => {
    await Promise.all(Array.from({ length: 8 }, (_, i) => requestAudit({ fullName: `At once ${i}` })));
    expect(await h.handle.db.select().from(auditRequests)).toHaveLength(8);
    expect(await mailsTo(VICTIM)).toHaveLength(CAP);
  });

  it('a confirmed address is not capped: a member gets the confirmation of each request they send', async () => {
    await h.signUpVerified({ email: VICTIM });
    for (let i = 0; i < CAP + 2; i++) await requestAudit();
    expect((await mailsTo(VICTIM)).filter((m) => m.kind === 'audit-confirmation')).toHaveLength(CAP + 2);
  });
});

describe('the flood of the team’s notices', () => {
  it('20 leads in seconds: each admin gets the first few notices, then one digest of the rest at the end of the hour; no lead is lost', async () => {
    const second = await secondAdmin();
    for (let i = 0; i < 12; i++) await requestAudit({ email: `audit${i}@example.com`, fullName: `Audit ${i}`, businessName: `Clinic ${i}` });
    for (let i = 0; i < 7; i++) await chatLead(`Chatter ${i}`, `chat${i}@example.com`);
    // Markup typed as a name is text in the digest.
    await chatLead('<img src=x onerror=alert(1)> Eve', 'eve@example.com');

    const notices = async (email: string) => (await mailsTo(email)).filter((m) => m.kind === 'audit-notification' || m.kind === 'chat-lead');
    for (const email of ['owner@example.com', 'second@example.com']) {
      expect((await notices(email)).map((m) => m.subject)).toEqual(['New audit request: Clinic 0', 'New audit request: Clinic 1', 'New audit request: Clinic 2', 'New audit request: Clinic 3', 'New audit request: Clinic 4']);
    }
    for (const id of [admin, second]) expect(await h.handle.db.select().from(leadNoticeHolds).where(eq(leadNoticeHolds.adminId, id))).toHaveLength(15);
    // Every lead is in the admin lists at once.
    expect(new Set((await h.handle.db.select().from(leadEvents)).filter((e) => e.kind !== 'sign-up').map((e) => e.email)).size).toBe(20);

    // The digest goes when the hour's notices leave the window: one job per admin, not before.
    const digestJobs = await h.handle.db.select().from(jobs).where(eq(jobs.kind, LEAD_NOTICE_DIGEST_JOB));
    expect(digestJobs).toHaveLength(2);
    const firstNotice = (await notices('owner@example.com'))[0]!.createdAt;
    expect(Math.min(...digestJobs.map((j) => j.runAt.getTime()))).toBeGreaterThanOrEqual(firstNotice.getTime() + 3_600_000 - 1000);
    expect(await runDigests(new Date())).toBe(0);
    expect(await runDigests(new Date(Date.now() + 3_600_000 + 60_000))).toBe(2);

    for (const email of ['owner@example.com', 'second@example.com']) {
      const digests = (await mailsTo(email)).filter((m) => m.kind === LEAD_NOTICE_DIGEST_KIND);
      expect(digests).toHaveLength(1);
      const [digest] = digests;
      expect(digest!.subject).toMatch(/^15 more new leads in the last hour — /);
      expect(digest!.text).toContain(`than the ${PER_HOUR} notices an hour you get one by one`);
      for (let i = 5; i < 12; i++) expect(digest!.text).toContain(`- Audit request: Audit ${i} <audit${i}@example.com> (Clinic ${i})`);
      for (let i = 0; i < 7; i++) expect(digest!.text).toContain(`- Chat lead: Chatter ${i} <chat${i}@example.com>`);
      expect(digest!.text).toContain('- Chat lead: <img src=x onerror=alert(1)> Eve <eve@example.com>');
      expect(digest!.html).toContain('&lt;img src=x onerror=alert(1)&gt; Eve &lt;eve@example.com&gt;');
      expect(digest!.html).not.toContain('<img');
      expect(digest!.replyTo).toBe('');
    }
    expect(await h.handle.db.select().from(leadNoticeHolds).where(sql`${leadNoticeHolds.digestMailId} is null`)).toHaveLength(0);
    // Run again: nothing more.
    expect(await sendLeadNoticeDigest(admin)).toBe(0);
  });
});
