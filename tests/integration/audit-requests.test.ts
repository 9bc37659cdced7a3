/**
 * The free-audit pipeline on the server (src/server/modules/audit): a valid request is stored with its
 * lead event and both emails in one transaction, linked to the member who sent it; bad input, the
 * honeypot and the rate limit store nothing; admin writes are the admin's only, recorded with before/after.
 */
import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { activityLog, auditNotes, auditRequests, leadEvents, mailQueue } from '../../src/server/db/schema';
import {
  addAuditNote,
  auditExportRows,
  auditListPage,
  exportAuditCsv,
  auditRequestDetail,
  AUDIT_RATE_LIMIT,
  memberAuditRequests,
  submitAuditRequest,
} from '../../src/server/modules/audit/service';
import { sendAuditReport } from '../../src/server/modules/audit-report/service';
import { assignLead, setLeadStage } from '../../src/server/modules/leads/work';
import { insertRun } from '../../src/server/modules/site-audit/repository';
import { scoreFindings } from '../../src/server/modules/site-audit/scoring';
import { auditSubmissionOf, type AuditSubmission } from '../../src/shared/schemas/audit';
import { createAuthHarness, randomIp, type AuthHarness } from '../support/auth';

let h: AuthHarness;
let admin: string;
let member: string;
beforeEach(async () => {
  h = await createAuthHarness();
  ({ userId: admin } = await h.signUpVerified({ email: 'owner@example.com' }));
  ({ userId: member } = await h.signUpVerified({ email: 'member@example.com' }));
});
afterEach(() => h.close());

const XSS = '<img src=x onerror=alert(1)>';
const fields = (over: Record<string, unknown> = {}) => ({
  fullName: 'Ada Lovelace',
  email: 'ada@example.com',
  businessName: 'Analytical Clinic',
  website: 'https://ada.example',
  phone: '+44 20 7946 0000',
  businessType: 'clinic',
  goals: ['more-leads', 'appointment-reminders'],
  message: 'Please look at our booking page.',
  consent: true,
  ...over,
});
const submission = (over: Record<string, unknown> = {}, extra: Partial<AuditSubmission> = {}): AuditSubmission => ({
  ...auditSubmissionOf(fields(over)),
  ...extra,
});
const submit = (s: AuditSubmission, userId?: string, clientIp = randomIp()) => submitAuditRequest(s, { clientIp, userId });
const all = {
  requests: () => h.handle.db.select().from(auditRequests),
  // The accounts made in beforeEach have their own sign-up events (tests/integration/lead-events.test.ts).
  events: () => h.handle.db.select().from(leadEvents).where(eq(leadEvents.kind, 'audit-request')),
  mail: () => h.handle.db.select().from(mailQueue),
  activity: () => h.handle.db.select().from(activityLog).where(eq(activityLog.entityType, 'audit')).orderBy(activityLog.at),
};

describe('submitting a request', () => {
  it('stores the request, its lead event with the attribution, the confirmation and a notification per admin', async () => {
    const result = await submit(
      submission({}, { attribution: { sourcePage: '/services', utmSource: 'newsletter', utmCampaign: 'spring' }, honeypot: '' }),
    );
    expect(result.kind).toBe('accepted');
    const id = (result as { id: string }).id;
    const [row] = await all.requests();
    expect(row).toMatchObject({ id, fullName: 'Ada Lovelace', userId: null, goals: ['more-leads', 'appointment-reminders'] });
    expect(row!.attribution).toEqual({ sourcePage: '/services', utmSource: 'newsletter', utmCampaign: 'spring' });
    const [event] = await all.events();
    expect(event).toMatchObject({ kind: 'audit-request', refId: id, email: 'ada@example.com', sourcePage: '/services', utmSource: 'newsletter', utmCampaign: 'spring' });
    const mail = await all.mail();
    const confirmation = mail.find((m) => m.kind === 'audit-confirmation')!;
    expect(confirmation.to).toBe('ada@example.com');
    expect(confirmation.text).toMatch(/what happens next/i);
    const notifications = mail.filter((m) => m.kind === 'audit-notification');
    expect(notifications.map((m) => m.to)).toEqual(['owner@example.com']); // the member is not an admin
    expect(notifications[0]!.text).toContain(`/admin/audit/${id}`);
    expect(notifications[0]!.text).toContain('Analytical Clinic');
  });

  it('links the request to the signed-in member who sent it', async () => {
    await submit(submission(), member);
    const [row] = await all.requests();
    expect(row!.userId).toBe(member);
    expect((await memberAuditRequests(member)).map((r) => r.businessName)).toEqual(['Analytical Clinic']);
    expect(await memberAuditRequests(admin)).toEqual([]);
  });

  it('answers bad input with messages by field and the typed values, and stores nothing', async () => {
    const result = await submit(submission({ email: 'nope', goals: [], consent: false, fullName: 'Ada' }));
    expect(result).toMatchObject({
      kind: 'invalid',
      fieldErrors: { email: 'Please enter a valid email address', goals: 'Please choose at least one goal', consent: expect.stringMatching(/agree/) },
      values: { fullName: 'Ada', email: 'nope' },
    });
    expect(await all.requests()).toEqual([]);
    expect(await all.mail()).toEqual([]);
  });

  it('thanks a bot that filled the honeypot and stores nothing', async () => {
    const result = await submit(submission({}, { honeypot: 'http://spam.example' }));
    expect(result).toEqual({ kind: 'accepted', id: undefined });
    expect(await all.requests()).toEqual([]);
    expect(await all.events()).toEqual([]);
    expect(await all.mail()).toEqual([]);
  });

  it('refuses a client past the limit with the time to wait, keeping every request it accepted', async () => {
    const ip = '203.0.113.50';
    for (let i = 0; i < AUDIT_RATE_LIMIT.max; i++) expect((await submit(submission({ email: `p${i}@example.com` }), undefined, ip)).kind).toBe('accepted');
    const refused = await submit(submission(), undefined, ip);
    expect(refused).toMatchObject({ kind: 'rate-limited', message: expect.stringMatching(/try again in \d+ minutes?/) });
    expect((refused as { retryAfterSeconds: number }).retryAfterSeconds).toBeGreaterThan(0);
    expect(await all.requests()).toHaveLength(AUDIT_RATE_LIMIT.max);
    // Another client is not affected.
    expect((await submit(submission(), undefined, '203.0.113.51')).kind).toBe('accepted');
  });

  it('escapes everything typed in the HTML of the admins\' email', async () => {
    await submit(submission({ fullName: 'Ada Lovelace', businessName: XSS, message: `${XSS} & "quotes"` }));
    const mail = await all.mail();
    expect(mail.map((m) => m.kind).sort()).toEqual(['audit-confirmation', 'audit-notification']);
    for (const m of mail) expect(m.html).not.toContain('<img');
    expect(mail.find((m) => m.kind === 'audit-notification')!.html).toContain('&lt;img src=x onerror=alert(1)&gt;');
  });

  it('mails the unconfirmed address none of the visitor\'s own text: no relay for a phisher\'s words or links', async () => {
    const typed = {
      fullName: 'Your account is locked visit evil example',
      businessName: 'Bank Security https://phish.example/login',
      website: 'https://phish.example/verify',
      message: 'Sign in at https://phish.example/now to keep your account',
    };
    await submit(submission({ ...typed, email: 'victim@example.com' }));
    const confirmation = (await all.mail()).find((m) => m.kind === 'audit-confirmation')!;
    expect(confirmation.to).toBe('victim@example.com');
    for (const part of [confirmation.subject, confirmation.text, confirmation.html]) {
      for (const value of Object.values(typed)) expect(part).not.toContain(value);
      expect(part).not.toMatch(/phish|evil|locked|https?:/i);
    }
    // What was received, in the site's own words: the chosen business type and goals.
    expect(confirmation.text).toContain('Business type: Clinic');
    expect(confirmation.text).toContain('Goals: More leads, Appointment reminders');
    // The admins still get every field.
    const notification = (await all.mail()).find((m) => m.kind === 'audit-notification')!;
    for (const value of Object.values(typed)) expect(notification.text).toContain(value);
  });
});

describe('the admin side', () => {
  async function seed(count: number) {
    const ids: string[] = [];
    for (let i = 0; i < count; i++) {
      const r = await submit(submission({ fullName: `Person ${i}`, email: `p${i}@example.com`, businessName: i % 2 ? 'Odd Coaching' : 'Even Clinic' }));
      ids.push((r as { id: string }).id);
    }
    return ids;
  }

  /** A finished website check of the request with a score, as the check process stores it. */
  async function checked(requestId: string) {
    const findings = scoreFindings([{ id: 'contact-form', category: 'leads', title: 'Contact form', status: 'fail', evidence: ['none'], why: 'w', fix: 'f' }]);
    await insertRun(h.handle.db, { id: crypto.randomUUID(), requestId, url: 'https://clinic.example/', status: 'done', finishedAt: new Date(), score: findings.overall ?? null, findings });
    return findings.overall!;
  }

  it('lists newest first, searches name, email and business, filters by report and by the person’s stage, pages in SQL', async () => {
    const ids = await seed(4);
    const page = await auditListPage({ q: '', page: 1 });
    expect(page.total).toBe(4);
    expect(page.rows.map((r) => r.id)).toEqual([...ids].reverse());
    expect(page.rows[0]).toMatchObject({ stage: 'new', ownerName: null, score: null, reportSentAt: null, reportOpenedAt: null });
    expect((await auditListPage({ q: 'coaching odd', page: 1 })).total).toBe(0);
    expect((await auditListPage({ q: 'Odd Coaching', page: 1 })).total).toBe(2);
    expect((await auditListPage({ q: 'P3@EXAMPLE', page: 1 })).rows.map((r) => r.id)).toEqual([ids[3]]);
    expect((await auditListPage({ q: '%', page: 1 })).total).toBe(0); // a wildcard is a character

    // A report sent for p1; p2 is not a fit: neither waits for a report any more.
    const score = await checked(ids[1]!);
    await sendAuditReport(admin, ids[1]!, { summary: '', notes: {}, hidden: [] });
    await setLeadStage(admin, 'p2@example.com', 'not-a-fit');
    await assignLead(admin, 'P0@example.com', admin);
    const waiting = (await auditListPage({ q: '', report: 'waiting', page: 1 })).rows.map((r) => r.id);
    expect(waiting.sort()).toEqual([ids[0], ids[3]].sort());
    const sent = await auditListPage({ q: '', report: 'sent', page: 1 });
    expect(sent.rows).toMatchObject([{ id: ids[1], score, stage: 'contacted' }]);
    expect(sent.rows[0]!.reportSentAt).toBeInstanceOf(Date);
    expect((await auditListPage({ q: '', report: 'opened', page: 1 })).total).toBe(0);
    expect((await auditListPage({ q: '', stage: 'not-a-fit', page: 1 })).rows.map((r) => r.id)).toEqual([ids[2]]);
    // The owner is the person's, whatever case their email was typed in.
    expect((await auditListPage({ q: 'p0@', page: 1 })).rows[0]).toMatchObject({ ownerName: 'Ada Lovelace', ownerEmail: 'owner@example.com' });
    expect((await auditListPage({ q: '', report: 'waiting', page: 2 })).rows).toEqual([]);
  });

  it('shows the person’s stage and owner, not a status of its own; sending the report makes a new lead Contacted, once', async () => {
    const [id] = await seed(1);
    expect((await auditRequestDetail(id!))!.work).toEqual({ email: 'p0@example.com', isLead: true, stage: 'new', ownerId: null });
    await assignLead(admin, 'p0@example.com', admin);
    await checked(id!);
    await sendAuditReport(admin, id!, { summary: '', notes: {}, hidden: [] });
    expect((await auditRequestDetail(id!))!.work).toEqual({ email: 'p0@example.com', isLead: true, stage: 'contacted', ownerId: admin });
    // A person already further along keeps their stage when a report goes out again.
    await setLeadStage(admin, 'p0@example.com', 'call-booked');
    await sendAuditReport(admin, id!, { summary: 'Again.', notes: {}, hidden: [] });
    expect((await auditRequestDetail(id!))!.work.stage).toBe('call-booked');
    const sentEntries = (await all.activity()).filter((e) => e.action === 'report-sent');
    expect(sentEntries.map((e) => (e.after as { stage?: string }).stage ?? null)).toEqual(['contacted', null]);
    // The team's own request (an admin trying the form) is no lead: it has no stage or owner.
    const own = await submitAuditRequest(submission({ email: 'owner@example.com' }), { clientIp: randomIp(), userId: admin });
    expect((await auditRequestDetail((own as { id: string }).id))!.work).toMatchObject({ isLead: false });
    expect(sentEntries[0]!.summary).toMatch(/^Person 0 \(Even Clinic\): report sent to p0@example\.com \(score \d+\)$/);
  });

  it('adds notes with author and time, refuses an empty note, and never mails the requester about them', async () => {
    const [id] = await seed(1);
    const mailBefore = (await all.mail()).length;
    await addAuditNote(admin, id!, 'Called them, very keen.');
    await expect(addAuditNote(admin, id!, '   ')).rejects.toMatchObject({ code: 'INVALID', fieldErrors: { body: 'Note must not be empty' } });
    const detail = (await auditRequestDetail(id!))!;
    expect(detail.notes).toHaveLength(1);
    expect(detail.notes[0]).toMatchObject({ authorId: admin, body: 'Called them, very keen.' });
    expect(detail.notes[0]!.createdAt).toBeInstanceOf(Date);
    expect((await all.mail()).length).toBe(mailBefore);
    expect((await all.activity()).map((e) => e.action)).toEqual(['note']);
  });

  it('refuses every admin write to a member and to nobody, changing nothing', async () => {
    const [id] = await seed(1);
    await expect(addAuditNote(member, id!, 'hi')).rejects.toMatchObject({ code: 'NOT_ADMIN' });
    await expect(addAuditNote(undefined, id!, 'hi')).rejects.toMatchObject({ code: 'NO_USER_LOGGED_IN' });
    expect(await h.handle.db.select().from(auditNotes)).toEqual([]);
    expect(await all.activity()).toEqual([]);
  });

  it('answers NOT_FOUND for an unknown request', async () => {
    await expect(addAuditNote(admin, crypto.randomUUID(), 'hi')).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('exports every field of the filtered requests', async () => {
    await seed(3);
    const rows = await auditExportRows({ q: 'Odd' });
    expect(rows).toHaveLength(1);
    expect(rows[0]!.request).toMatchObject({ businessName: 'Odd Coaching', phone: '+44 20 7946 0000' });
  });
});

describe('the CSV export', () => {
  it('holds every field of the filtered requests, neutralises formulas, and is the admin’s only', async () => {
    await submit(submission({ fullName: 'Eve Example', businessName: '=HYPERLINK("http://evil.example","click")', message: 'line one\nline, two' }));
    await submit(submission({ businessName: 'Other Co' }));
    const csv = await exportAuditCsv(admin, { q: 'hyperlink' });
    const lines = csv.trimEnd().split('\r\n');
    expect(lines[0]).toMatch(/^Received \(UTC\),Report,Website score,Stage,Owner,Full name,Email,Business name,/);
    expect(lines[1]).toMatch(/^[^,]+,Report not sent,,New,,Eve Example,/);
    expect(lines).toHaveLength(2); // the header and the one match (the message's line break is inside quotes)
    expect(csv).toContain(`"'=HYPERLINK(""http://evil.example"",""click"")"`);
    expect(csv).toContain('"line one\nline, two"');
    expect(csv).toContain("'+44 20 7946 0000");
    await expect(exportAuditCsv(member, { q: '' })).rejects.toMatchObject({ code: 'NOT_ADMIN' });
  });
});
