/**
 * Writing to a lead from their page (issue 23, src/server/modules/leads/mail.ts): the team's templates
 * (three to start with, placeholders checked when saved, admin only, in the activity log) and the mail:
 * placeholders filled for the person, through the queue with the admin as Reply-To, the HTML part escaped,
 * on the person's timeline; {{audit_link}} a fresh private link to their latest report that opens it.
 */
import { and, eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { activityLog, auditReports, mailQueue } from '../../src/server/db/schema';
import { submitAuditRequest } from '../../src/server/modules/audit/service';
import { openReport, sendAuditReport } from '../../src/server/modules/audit-report/service';
import { deleteMailTemplate, listMailTemplates, saveMailTemplate, sendLeadMail, textToHtml } from '../../src/server/modules/leads/mail';
import { personTimeline } from '../../src/server/modules/leads/people';
import { sendDueMail } from '../../src/server/mail/queue';
import type { MailMessage } from '../../src/server/mail/templates';
import { insertRun } from '../../src/server/modules/site-audit/repository';
import { scoreFindings } from '../../src/server/modules/site-audit/scoring';
import { auditSubmissionOf } from '../../src/shared/schemas/audit';
import { createAuthHarness, randomIp, type AuthHarness } from '../support/auth';

let h: AuthHarness;
let admin: string;
let member: string;
const ADA = 'ada@example.com';

beforeEach(async () => {
  h = await createAuthHarness();
  ({ userId: admin } = await h.signUpVerified({ email: 'owner@example.com', firstName: 'Olivia', lastName: 'Owner' }));
  ({ userId: member } = await h.signUpVerified({ email: 'member@example.com' }));
});
afterEach(() => h.close());

async function request(email = ADA): Promise<string> {
  const fields = { fullName: 'Ada Lovelace', email, businessName: 'Analytical <Clinic>', website: '', businessType: 'clinic', goals: ['more-leads'], message: '', consent: true };
  const result = await submitAuditRequest(auditSubmissionOf(fields), { clientIp: randomIp(), userId: undefined });
  if (result.kind !== 'accepted' || !result.id) throw new Error('not accepted');
  return result.id;
}
const leadMails = () => h.handle.db.select().from(mailQueue).where(eq(mailQueue.kind, 'lead-mail'));

describe('mail templates', () => {
  it('start as three, are saved with their placeholders checked, and are the admins’ only', async () => {
    expect((await listMailTemplates()).map((t) => t.name)).toEqual(['Thanks for reaching out', 'Your audit is ready', 'Book a call']);
    await expect(saveMailTemplate(admin, null, { name: 'Nudge', subject: 'Hi {{firstname}}', body: 'x' })).rejects.toMatchObject({ code: 'INVALID', fieldErrors: { subject: expect.stringMatching(/^Unknown placeholder \{\{firstname\}\}: use \{\{first_name\}\}, /) } });
    await expect(saveMailTemplate(admin, null, { name: 'Nudge', subject: 'Two\nlines', body: 'x' })).rejects.toMatchObject({ fieldErrors: { subject: 'Subject must be one line' } });
    await expect(saveMailTemplate(member, null, { name: 'Nudge', subject: 'Hi', body: 'x' })).rejects.toMatchObject({ code: 'NOT_ADMIN' });
    const made = await saveMailTemplate(admin, null, { name: 'Nudge', subject: 'Still thinking about {{business}}?', body: 'Hi {{first_name}}' });
    expect((await listMailTemplates()).at(-1)).toMatchObject({ id: made.id, name: 'Nudge' });
    await saveMailTemplate(admin, made.id, { name: 'Nudge 2', subject: 'S', body: 'B' });
    await deleteMailTemplate(admin, made.id);
    await expect(deleteMailTemplate(admin, made.id)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    const logged = await h.handle.db.select().from(activityLog).where(eq(activityLog.entityType, 'lead-mail-template'));
    expect(logged.map((e) => e.action).sort()).toEqual(['create', 'delete', 'update']);
  });
});

describe('an email to a lead', () => {
  it('fills the placeholders for the person, goes through the queue with the admin as Reply-To, escaped in HTML, on the timeline', async () => {
    await request();
    const body = 'Hi {{first_name}},\n\nAbout {{business}}: <b>not bold</b>. Book: {{booking_link}}\n\n{{sender_name}}';
    await expect(sendLeadMail(admin, 'ADA@example.com', { subject: 'For {{name}} at {{site_name}}', body })).resolves.toMatchObject({ to: ADA });
    const [mail] = await leadMails();
    expect(mail).toMatchObject({ to: ADA, replyTo: '"Olivia Owner" <owner@example.com>' });
    expect(mail!.subject).toMatch(/^For Ada Lovelace at .+/);
    expect(mail!.text).toMatch(/^Hi Ada,\n\nAbout Analytical <Clinic>: <b>not bold<\/b>\. Book: https?:\/\/\S+\n\nOlivia Owner$/);
    expect(mail!.html).toContain('About Analytical &lt;Clinic&gt;: &lt;b&gt;not bold&lt;/b&gt;');
    expect(mail!.html).not.toContain('<b>');
    // The mailer is handed the Reply-To.
    const sent: MailMessage[] = [];
    await sendDueMail({ mode: 'outbox', send: async (m) => void sent.push(m) }, new Date(Date.now() + 1000), h.handle.db);
    expect(sent.find((m) => m.subject === mail!.subject)).toMatchObject({ to: ADA, replyTo: '"Olivia Owner" <owner@example.com>', html: mail!.html });
    const { entries } = await personTimeline(ADA);
    expect(entries.find((e) => e.type === 'mail' && e.kind === 'lead-mail')).toMatchObject({ subject: mail!.subject });
    const [logged] = await h.handle.db.select().from(activityLog).where(and(eq(activityLog.entityType, 'lead'), eq(activityLog.action, 'mail')));
    expect(logged).toMatchObject({ entityId: ADA, actorEmail: 'owner@example.com' });
  });

  it('refuses what it cannot send: bad fields, a non-lead, a member, and an audit link before any report', async () => {
    await request();
    await expect(sendLeadMail(admin, ADA, { subject: '', body: 'x' })).rejects.toMatchObject({ code: 'INVALID', fieldErrors: { subject: 'Enter a subject' } });
    await expect(sendLeadMail(admin, ADA, { subject: 'S', body: 'x'.repeat(5001) })).rejects.toMatchObject({ fieldErrors: { body: 'Message must be at most 5000 characters' } });
    await expect(sendLeadMail(admin, 'nobody@example.com', { subject: 'S', body: 'B' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(sendLeadMail(member, ADA, { subject: 'S', body: 'B' })).rejects.toMatchObject({ code: 'NOT_ADMIN' });
    await expect(sendLeadMail(admin, ADA, { subject: 'S', body: 'Read it: {{audit_link}}' })).rejects.toMatchObject({
      fieldErrors: { body: 'No audit report was sent to this lead yet: take out {{audit_link}}, or send their report first' },
    });
    expect(await leadMails()).toEqual([]);
  });

  it('{{audit_link}}: a new private link to their latest report, which opens it', async () => {
    const requestId = await request();
    const findings = scoreFindings([{ id: 'contact-form', category: 'leads', title: 'Contact form', status: 'fail', evidence: ['none'], why: 'w', fix: 'f' }]);
    await insertRun(h.handle.db, { id: crypto.randomUUID(), requestId, url: 'https://clinic.example/', status: 'done', finishedAt: new Date(), score: findings.overall ?? null, findings });
    await sendAuditReport(admin, requestId, { summary: 'Fix the form.', notes: {}, hidden: [] });
    await sendLeadMail(admin, ADA, { subject: 'Your audit', body: 'Here it is again: {{audit_link}}' });
    const [mail] = await leadMails();
    const token = /\/audit-report\/([A-Za-z0-9_-]{43})$/.exec(mail!.text)![1]!;
    const reports = await h.handle.db.select().from(auditReports).where(eq(auditReports.requestId, requestId));
    expect(reports).toHaveLength(2);
    expect(await openReport(token, { method: 'GET', userAgent: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36' })).toMatchObject({ kind: 'ok', page: { businessName: 'Analytical <Clinic>' } });
  });
});

describe('textToHtml', () => {
  it('escapes, keeps paragraphs and line breaks, and links addresses', () => {
    expect(textToHtml('Hi <Ada>,\nline two\n\nSee https://example.com/a?b=1&c=2 now')).toBe('<p>Hi &lt;Ada&gt;,<br>line two</p>\n<p>See <a href="https://example.com/a?b=1&amp;c=2">https://example.com/a?b=1&amp;c=2</a> now</p>');
  });
});
