/**
 * Every mail to a prospect is answerable by a person (issue 35, src/server/modules/leads/reply-to.ts): the
 * confirmation, the report and the sequence mails reply to the lead's owner, else to the team address of the
 * general settings, else to the site's contact email; an admin's notice about a lead replies to the lead; a
 * one-to-one mail replies to the admin who wrote it. Checked in the queue, and as delivered by the real SMTP
 * server through the app's mailer, whose From is named as the business when MAIL_FROM is not set.
 */
import { and, eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { appConfig, mailQueue, users } from '../../src/server/db/schema';
import { createMailer } from '../../src/server/mail';
import { defaultSenderAddress, isUnanswerableSender, mailbox } from '../../src/shared/mail-address';
import { sendDueMail } from '../../src/server/mail/queue';
import { submitAuditRequest } from '../../src/server/modules/audit/service';
import { sendAuditReport } from '../../src/server/modules/audit-report/service';
import { saveChatContact } from '../../src/server/modules/chat/service';
import { sendLeadMail } from '../../src/server/modules/leads/mail';
import { assignLead } from '../../src/server/modules/leads/work';
import { saveSequence, sendNextStepNow } from '../../src/server/modules/lead-sequences/service';
import { leadSequenceEnrollments } from '../../src/server/db/schema';
import { insertRun } from '../../src/server/modules/site-audit/repository';
import { scoreFindings } from '../../src/server/modules/site-audit/scoring';
import { GENERAL_SETTINGS_KEY } from '../../src/shared/general-settings';
import { auditSubmissionOf } from '../../src/shared/schemas/audit';
import { createAuthHarness, randomIp, type AuthHarness } from '../support/auth';

let h: AuthHarness;
let owner: string;
let maya: string;
const ADA = 'ada@example.com';
/** The demo site's name and contact email (the site texts' defaults). */
const TEAM = '"Autoflow Agency" <hello@autoflow.agency>';

beforeEach(async () => {
  h = await createAuthHarness();
  ({ userId: owner } = await h.signUpVerified({ email: 'owner@example.com', firstName: 'Olivia', lastName: 'Owner' }));
  ({ userId: maya } = await h.signUpVerified({ email: 'maya@example.com', firstName: 'Maya', lastName: 'Stone' }));
  await h.handle.db.update(users).set({ role: 'admin' }).where(eq(users.id, maya));
});
afterEach(() => h.close());

async function requestAudit(fullName = 'Ada "The Countess" Lovelace'): Promise<string> {
  const fields = { fullName, email: ADA, businessName: 'Analytical Clinic', website: '', businessType: 'clinic', goals: ['more-leads'], message: '', consent: true };
  const result = await submitAuditRequest(auditSubmissionOf(fields), { clientIp: randomIp(), userId: undefined });
  if (result.kind !== 'accepted' || !result.id) throw new Error('not accepted');
  return result.id;
}
const mailsOf = (kind: string) => h.handle.db.select().from(mailQueue).where(eq(mailQueue.kind, kind));
const setTeamAddress = (replyTo: string) =>
  h.handle.db.insert(appConfig).values({ key: GENERAL_SETTINGS_KEY, value: { replyTo } }).onConflictDoUpdate({ target: appConfig.key, set: { value: { replyTo } } });

describe('Reply-To of mail about a lead', () => {
  it('the confirmation replies to the team (the contact email, then the team address once set); the admins’ notices reply to the lead', async () => {
    await requestAudit();
    const [confirmation] = await mailsOf('audit-confirmation');
    expect(confirmation).toMatchObject({ to: ADA, replyTo: TEAM });
    const notices = await mailsOf('audit-notification');
    expect(notices.map((n) => n.to).sort()).toEqual(['maya@example.com', 'owner@example.com']);
    for (const n of notices) expect(n.replyTo).toBe(`"Ada \\"The Countess\\" Lovelace" <${ADA}>`);

    await setTeamAddress('team@autoflow.agency');
    await requestAudit('Ada Lovelace');
    const confirmations = await mailsOf('audit-confirmation');
    expect(confirmations.map((m) => m.replyTo).sort()).toEqual([TEAM, '"Autoflow Agency" <team@autoflow.agency>'].sort());
  });

  it('the report and the sequence mails reply to the lead’s owner, and to the team again once the owner is no admin', async () => {
    await saveSequence(owner, 'audit-requested', { active: true, steps: [{ delayDays: 1, subject: 'Hi {{first_name}}', body: 'Book: {{booking_link}}' }] });
    const requestId = await requestAudit();
    await assignLead(owner, ADA, maya);
    const findings = scoreFindings([{ id: 'contact-form', category: 'leads', title: 'Contact form', status: 'fail', evidence: ['none'], why: 'w', fix: 'f' }]);
    await insertRun(h.handle.db, { id: crypto.randomUUID(), requestId, url: 'https://clinic.example/', status: 'done', finishedAt: new Date(), score: findings.overall ?? null, findings });
    await sendAuditReport(owner, requestId, { summary: 'Fix the form.', notes: {}, hidden: [] });
    expect(await mailsOf('audit-report')).toMatchObject([{ to: ADA, replyTo: '"Maya Stone" <maya@example.com>' }]);

    const [enrollment] = await h.handle.db.select().from(leadSequenceEnrollments).where(and(eq(leadSequenceEnrollments.email, ADA), eq(leadSequenceEnrollments.trigger, 'audit-requested')));
    await h.handle.db.update(users).set({ role: 'user' }).where(eq(users.id, maya));
    await sendNextStepNow(owner, enrollment!.id);
    expect(await mailsOf('lead-sequence')).toMatchObject([{ to: ADA, replyTo: TEAM }]);
  });

  it('a one-to-one mail replies to the admin who wrote it; a chat lead’s notice replies to the visitor', async () => {
    await requestAudit();
    await sendLeadMail(owner, ADA, { subject: 'Hello', body: 'Shall we talk?' });
    expect(await mailsOf('lead-mail')).toMatchObject([{ replyTo: '"Olivia Owner" <owner@example.com>' }]);
    await saveChatContact({ name: 'King, Ben', email: 'ben@example.com' }, { identity: { visitorKey: 'key-ben', userId: null }, clientIp: randomIp() });
    const notices = await mailsOf('chat-lead');
    expect(notices).toHaveLength(2);
    for (const n of notices) expect(n.replyTo).toBe('"King, Ben" <ben@example.com>');
  });
});

describe('the sender', () => {
  it('is named as the business at no-reply of the site’s host when MAIL_FROM is not set, and delivered with the Reply-To', async () => {
    expect(defaultSenderAddress('https://www.example.com/')).toBe('no-reply@www.example.com');
    expect(defaultSenderAddress('http://localhost:4321')).toBe('no-reply@localhost');
    expect(defaultSenderAddress('http://127.0.0.1:4321')).toBe('no-reply@localhost');
    expect(defaultSenderAddress('http://[::1]:4321')).toBe('no-reply@localhost');
    await requestAudit();
    const mailer = createMailer({ from: async () => mailbox('Autoflow Agency', 'no-reply@localhost'), smtpUrl: h.smtp.url, outboxDir: '/nonexistent', logger: { info: () => {} } });
    await sendDueMail(mailer, new Date(Date.now() + 1000), h.handle.db);
    const delivered = await h.smtp.nextMailTo(ADA);
    const headers = delivered.raw.slice(0, delivered.raw.indexOf('\r\n\r\n')).replace(/\r\n[ \t]+/g, ' ');
    expect(headers).toMatch(/^From: "?Autoflow Agency"? <no-reply@localhost>$/m);
    expect(headers).toMatch(/^Reply-To: "?Autoflow Agency"? <hello@autoflow\.agency>$/m);
    const notice = await h.smtp.nextMailTo('owner@example.com');
    expect(notice.raw).toMatch(/^Reply-To: "Ada \\"The Countess\\" Lovelace" <ada@example\.com>\r?$/m);
  });

  it('is flagged when nobody reads it', () => {
    expect(isUnanswerableSender('Agency <no-reply@localhost>')).toBe(true);
    expect(isUnanswerableSender('"Autoflow" <noreply@autoflow.agency>')).toBe(true);
    expect(isUnanswerableSender('do-not-reply@autoflow.agency')).toBe(true);
    expect(isUnanswerableSender('hello@app.localhost')).toBe(true);
    expect(isUnanswerableSender('Maya <maya@autoflow.agency>')).toBe(false);
    expect(isUnanswerableSender('replies@autoflow.agency')).toBe(false);
  });
});
