/**
 * The report an owner sends of a website check (issue 22): the draft's rules, sending (the newest finished
 * check behind a private link whose token is stored only hashed, the mail, the status, the activity log, all
 * in one go), and the requester's opening: counted, a "report opened" lead event once per visit, never for a
 * bot, a HEAD or a link that is malformed, unknown or expired. A member reads their own reports only.
 */
import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { activityLog, auditReports, leadEvents, leadPeople, mailQueue } from '../../src/server/db/schema';
import { AuditError } from '../../src/server/modules/audit/errors';
import { submitAuditRequest } from '../../src/server/modules/audit/service';
import { memberReport, memberReports, openReport, previewReport, REPORT_OPENING_QUIET_MS, saveReportDraft, sendAuditReport } from '../../src/server/modules/audit-report/service';
import { hashReportToken } from '../../src/server/modules/audit-report/token';
import { personTimeline } from '../../src/server/modules/leads/people';
import type { CheckResult } from '../../src/server/modules/site-audit/findings';
import { insertRun } from '../../src/server/modules/site-audit/repository';
import { scoreFindings } from '../../src/server/modules/site-audit/scoring';
import { auditSubmissionOf } from '../../src/shared/schemas/audit';
import { createAuthHarness, randomIp, type AuthHarness } from '../support/auth';

let h: AuthHarness;
let admin: string;
let member: string;

beforeEach(async () => {
  h = await createAuthHarness();
  ({ userId: admin } = await h.signUpVerified({ email: 'owner@example.com' }));
  ({ userId: member } = await h.signUpVerified({ email: 'ada@example.com' }));
});
afterEach(() => h.close());

const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const check = (id: string, status: CheckResult['status'], category: CheckResult['category'] = 'leads'): CheckResult => ({ id, category, title: `Check ${id}`, status, evidence: [`seen ${id}`], why: 'why', fix: 'fix' });

/** A request (website left out: no crawl) and a finished run of it with three checks. */
async function requestWithRun(email = 'ada@example.com'): Promise<string> {
  const fields = { fullName: 'Ada Lovelace', email, businessName: 'Analytical Clinic', website: '', businessType: 'clinic', goals: ['more-leads'], message: '', consent: true };
  const result = await submitAuditRequest(auditSubmissionOf(fields), { clientIp: randomIp(), userId: undefined });
  if (result.kind !== 'accepted' || !result.id) throw new Error('not accepted');
  const findings = scoreFindings([check('contact-form', 'fail'), check('booking-link', 'pass'), check('https', 'fail', 'security')]);
  await insertRun(h.handle.db, { id: crypto.randomUUID(), requestId: result.id, url: 'https://clinic.example/', status: 'done', finishedAt: new Date(), score: findings.overall ?? null, findings });
  return result.id;
}

const draft = { summary: 'Fix the form first.', notes: { 'contact-form': 'We build these in a day.' }, hidden: ['https'] };

/** Sends and returns the link's token, read from the queued mail (the only place it exists). */
async function send(requestId: string): Promise<string> {
  await sendAuditReport(admin, requestId, draft);
  const [mail] = await h.handle.db.select().from(mailQueue).where(eq(mailQueue.kind, 'audit-report'));
  return /\/audit-report\/([A-Za-z0-9_-]{43})/.exec(mail!.text)![1]!;
}

const opened = () => h.handle.db.select().from(leadEvents).where(eq(leadEvents.kind, 'report-opened'));

describe('the report draft', () => {
  it('is validated with messages beside the fields, and is the admin\'s only', async () => {
    const id = await requestWithRun();
    await expect(saveReportDraft(admin, id, { ...draft, summary: 'x'.repeat(4001) })).rejects.toMatchObject({ code: 'INVALID', fieldErrors: { summary: 'Summary must be at most 4000 characters' } });
    await expect(saveReportDraft(admin, id, { ...draft, notes: { 'contact-form': 'n'.repeat(1001) } })).rejects.toMatchObject({ fieldErrors: { 'notes.contact-form': 'Note must be at most 1000 characters' } });
    await expect(saveReportDraft(admin, id, { ...draft, hidden: ['<script>'] })).rejects.toBeInstanceOf(AuditError);
    await expect(saveReportDraft(member, id, draft)).rejects.toMatchObject({ code: 'NOT_ADMIN' });
    expect(await saveReportDraft(admin, id, { ...draft, notes: { 'contact-form': '  ', https: 'later' } })).toEqual({ ...draft, notes: { https: 'later' } });
  });

  it('previews with the left-out check gone and the scores made without it', async () => {
    const id = await requestWithRun();
    await saveReportDraft(admin, id, draft);
    const page = (await previewReport(id))!;
    expect(page.document.summary).toBe('Fix the form first.');
    expect(page.document.toFix.map((c) => c.id)).toEqual(['contact-form']);
    expect(page.document.toFix[0]!.note).toBe('We build these in a day.');
    expect(page.document.categories.find((c) => c.category === 'security')?.score).toBeUndefined();
  });
});

describe('sending the report', () => {
  it('needs a finished check', async () => {
    const fields = { fullName: 'Bo', email: 'bo@example.com', businessName: 'Bo Coaching', website: '', businessType: 'coach', goals: ['more-leads'], message: '', consent: true };
    const result = await submitAuditRequest(auditSubmissionOf(fields), { clientIp: randomIp(), userId: undefined });
    if (result.kind !== 'accepted') throw new Error('not accepted');
    await expect(sendAuditReport(admin, result.id!, draft)).rejects.toMatchObject({ code: 'CONFLICT' });
    expect(await h.handle.db.select().from(auditReports)).toEqual([]);
  });

  it('mails a private link whose token is stored only hashed, marks the request and logs who sent it', async () => {
    const id = await requestWithRun();
    const token = await send(id);
    const [report] = await h.handle.db.select().from(auditReports);
    expect(report).toMatchObject({ requestId: id, sentTo: 'ada@example.com', sentBy: admin, summary: draft.summary, hidden: ['https'], openCount: 0 });
    expect(report!.tokenHash).toBe(hashReportToken(token));
    expect(JSON.stringify(report)).not.toContain(token);
    const days = (report!.expiresAt.getTime() - report!.sentAt.getTime()) / 86_400_000;
    expect(days).toBe(30);
    // A report sent is a first contact: the person (no status of the request's own) is Contacted.
    const [person] = await h.handle.db.select().from(leadPeople).where(eq(leadPeople.email, 'ada@example.com'));
    expect(person!.stage).toBe('contacted');
    const [logged] = await h.handle.db.select().from(activityLog).where(eq(activityLog.action, 'report-sent'));
    expect(logged).toMatchObject({ actorId: admin, entityId: id });
    // The mail carries the site's words and the link, nothing the requester typed.
    const [mail] = await h.handle.db.select().from(mailQueue).where(eq(mailQueue.kind, 'audit-report'));
    expect(mail!.to).toBe('ada@example.com');
    expect(mail!.text).not.toContain('Analytical Clinic');
    expect(mail!.text).not.toContain('Ada');
  });
});

describe('opening the link', () => {
  it('shows the report as sent and is one "report opened" lead event per visit', async () => {
    const id = await requestWithRun();
    const token = await send(id);
    const now = new Date();
    const first = await openReport(token, { method: 'GET', userAgent: BROWSER }, now);
    expect(first.kind).toBe('ok');
    if (first.kind === 'ok') expect(first.page.document.toFix.map((c) => c.id)).toEqual(['contact-form']);
    await openReport(token, { method: 'GET', userAgent: BROWSER }, new Date(now.getTime() + 60_000));
    expect(await opened()).toHaveLength(1);
    expect((await opened())[0]).toMatchObject({ email: 'ada@example.com', refId: id });
    await openReport(token, { method: 'GET', userAgent: BROWSER }, new Date(now.getTime() + REPORT_OPENING_QUIET_MS + 120_000));
    expect(await opened()).toHaveLength(2);
    const [report] = await h.handle.db.select().from(auditReports);
    expect(report!.openCount).toBe(3);
    expect(report!.firstOpenedAt).toEqual(now);
    // The person's timeline: the report sent, the stage it moved them to, and each visit, naming the request
    // and where its report stands.
    const { entries: rows } = await personTimeline('ada@example.com');
    expect(rows).toContainEqual(expect.objectContaining({ type: 'audit-report-sent', requestId: id, sentTo: 'ada@example.com' }));
    expect(rows).toContainEqual(expect.objectContaining({ type: 'lead-stage', from: 'new', to: 'contacted' }));
    expect(rows.filter((e) => e.type === 'lead' && e.kind === 'report-opened')).toEqual([
      expect.objectContaining({ auditRequest: expect.objectContaining({ id, reportSentAt: expect.any(Date), reportOpenedAt: expect.any(Date) }) }),
      expect.objectContaining({ auditRequest: expect.objectContaining({ id }) }),
    ]);
  });

  it('is not counted for a bot, a link checker\'s HEAD or a request without a user agent', async () => {
    const token = await send(await requestWithRun());
    expect((await openReport(token, { method: 'GET', userAgent: 'Googlebot/2.1 (+http://www.google.com/bot.html)' })).kind).toBe('ok');
    expect((await openReport(token, { method: 'HEAD', userAgent: BROWSER })).kind).toBe('ok');
    expect((await openReport(token, { method: 'GET', userAgent: null })).kind).toBe('ok');
    const [report] = await h.handle.db.select().from(auditReports);
    expect(report!.openCount).toBe(0);
    expect(await opened()).toEqual([]);
  });

  it('refuses malformed, unknown and expired links', async () => {
    const token = await send(await requestWithRun());
    for (const bad of [undefined, '', 'x', `${token}x`, token.replace(/^./, '*'), 'A'.repeat(43)]) {
      expect((await openReport(bad, { method: 'GET', userAgent: BROWSER })).kind, String(bad)).toBe('not-found');
    }
    await h.handle.db.update(auditReports).set({ expiresAt: new Date(Date.now() - 1000) });
    expect((await openReport(token, { method: 'GET', userAgent: BROWSER })).kind).toBe('expired');
    expect(await opened()).toEqual([]);
  });
});

describe('a member\'s reports', () => {
  it('are those of requests sent with their address, and nobody else\'s', async () => {
    await send(await requestWithRun('Ada@Example.com'));
    const mine = await memberReports({ id: member, email: 'ada@example.com' });
    expect(mine).toHaveLength(1);
    expect(await memberReport({ id: member, email: 'ada@example.com' }, mine[0]!.id)).toBeDefined();
    expect(await memberReport({ id: admin, email: 'owner@example.com' }, mine[0]!.id)).toBeUndefined();
    expect(await memberReports({ id: admin, email: 'owner@example.com' })).toEqual([]);
  });
});
