/**
 * Erasing a person (issue 39, GDPR article 17; decision 063) on both engines: a person with everything a
 * lead can have — a member account with page views, an audit request with its website check, notes and a
 * sent report, a chat with messages, lead events, notes, mails sent and queued, a sequence enrolment, a
 * booking, activity entries — is erased in one call; then no table of the database holds their email, name,
 * business or phone (read row by row as text), the report's link answers "not found", the activity keeps one
 * entry with a hash of the address and the counts, and no sequence enrols or mails the address again. Admins
 * and addresses with nothing on record are refused; members and visitors never reach it (actions-authorization).
 */
import { eq, sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { activityLog, bookings, leadSequenceEnrollments, mailQueue, pageTimes, users } from '../../src/server/db/schema';
import { addAuditNote, submitAuditRequest } from '../../src/server/modules/audit/service';
import { openReport, sendAuditReport } from '../../src/server/modules/audit-report/service';
import { acceptVisitorMessage, saveChatContact } from '../../src/server/modules/chat/service';
import { erasePerson, erasePreview } from '../../src/server/modules/leads/erase';
import { erasedKey } from '../../src/server/modules/leads/erased';
import { sendLeadMail } from '../../src/server/modules/leads/mail';
import { findPerson } from '../../src/server/modules/leads/people';
import { addLeadNote, setLeadStage } from '../../src/server/modules/leads/work';
import { enrolOptionsOf } from '../../src/server/modules/lead-sequences/enrolment';
import { saveQuietHours, saveSequence } from '../../src/server/modules/lead-sequences/service';
import { insertRun } from '../../src/server/modules/site-audit/repository';
import { scoreFindings } from '../../src/server/modules/site-audit/scoring';
import { auditSubmissionOf } from '../../src/shared/schemas/audit';
import { SEQUENCE_STOP_LABELS } from '../../src/shared/schemas/lead-sequences';
import { erasedLines } from '../../src/shared/erase-person';
import { createAuthHarness, randomIp, type AuthHarness } from '../support/auth';
import { quietHoursAwayFrom } from '../support/quiet-hours';

let h: AuthHarness;
let admin: string;
const HOUR = 3_600_000;

const EMAIL = 'zephyrine.quill@example.com';
const NAME = 'Zephyrine Quillfeather';
const BUSINESS = 'Quillfeather Physio';
const PHONE = '+44 113 496 0777';
/** What must be found nowhere afterwards (lower-cased, and the phone's digits alone). */
const TRACES = [EMAIL, 'zephyrine', 'quillfeather', '1134960777'];

beforeEach(async () => {
  h = await createAuthHarness();
  ({ userId: admin } = await h.signUpVerified({ email: 'owner@example.com', firstName: 'Olivia', lastName: 'Owner' }));
  await saveQuietHours(admin, quietHoursAwayFrom(new Date()));
});
afterEach(() => h.close());

async function requestAudit(email: string, fullName: string, userId?: string, business = { name: BUSINESS, phone: PHONE, website: 'https://quillfeather-physio.example/' }): Promise<string> {
  const fields = { fullName, email, businessName: business.name, website: business.website, phone: business.phone, businessType: 'clinic', goals: ['more-leads'], message: `Call ${business.phone}`, consent: true };
  const result = await submitAuditRequest(auditSubmissionOf(fields), { clientIp: randomIp(), userId });
  if (result.kind !== 'accepted' || !result.id) throw new Error('not accepted');
  return result.id;
}

/** Every row of every table of the database, as text, lower-cased: where a trace would be found. */
async function wholeDatabaseText(): Promise<Map<string, string>> {
  const { rows: tables } = (await h.handle.db.execute(sql`select table_name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE'`)) as unknown as { rows: { table_name: string }[] };
  const texts = new Map<string, string>();
  for (const { table_name: table } of tables) {
    const { rows } = (await h.handle.db.execute(sql`select row_to_json(t)::text as row from ${sql.identifier(table)} t`)) as unknown as { rows: { row: string }[] };
    texts.set(table, rows.map((r) => r.row.toLowerCase()).join('\n'));
  }
  return texts;
}
/** A phone is looked for by its digits, in text without spaces, "+", "(", ")" and "-". */
const squeezed = (text: string) => text.replace(/[\s+()-]/g, '');
const tablesWith = (texts: Map<string, string>, trace: string) => [...texts].filter(([, text]) => (/^\d+$/.test(trace) ? squeezed(text) : text).includes(trace)).map(([table]) => table);
const tracesIn = (texts: Map<string, string>) => Object.fromEntries(TRACES.map((t) => [t, tablesWith(texts, t)]));

/** A lead with everything: returns the report's private link token. */
async function personWithEverything(): Promise<{ token: string; memberId: string }> {
  await saveSequence(admin, 'audit-requested', { active: true, steps: [{ delayDays: 2, subject: 'Still thinking, {{first_name}}?', body: 'Hi {{first_name}}' }] });
  const { userId: memberId } = await h.signUpVerified({ email: EMAIL, firstName: 'Zephyrine', lastName: 'Quillfeather' });
  await h.handle.db.insert(pageTimes).values({ id: crypto.randomUUID(), userId: memberId, pagePath: '/packages', durationMs: 30_000, at: new Date(), sessionId: 'tab-1' });
  const requestId = await requestAudit(EMAIL, NAME, memberId);
  await addAuditNote(admin, requestId, `${NAME} prefers mornings`);
  const findings = scoreFindings([{ id: 'contact-form', category: 'leads', title: 'Contact form', status: 'fail', evidence: ['none'], why: 'w', fix: 'f' }]);
  await insertRun(h.handle.db, { id: crypto.randomUUID(), requestId, url: 'https://quillfeather-physio.example/', status: 'done', finishedAt: new Date(), score: findings.overall ?? null, findings });
  await sendAuditReport(admin, requestId, { summary: `${BUSINESS}: fix the form.`, notes: {}, hidden: [] });
  const [reportMail] = await h.handle.db.select().from(mailQueue).where(eq(mailQueue.to, EMAIL)).orderBy(sql`${mailQueue.createdAt} desc`).limit(1);
  const token = /\/audit-report\/([\w-]+)/.exec(reportMail!.text)![1]!;
  // A chat (as a visitor of their own) with their contact details and a message.
  const identity = { visitorKey: `key-${crypto.randomUUID()}`, userId: null };
  await acceptVisitorMessage({ body: `Hello, this is ${NAME}, ${PHONE}` }, { identity, clientIp: randomIp() });
  await saveChatContact({ name: NAME, email: EMAIL, followUps: true }, { identity, clientIp: randomIp() });
  await addLeadNote(admin, EMAIL, `Met ${NAME} at the fair`);
  await setLeadStage(admin, EMAIL, 'contacted');
  await sendLeadMail(admin, EMAIL, { subject: 'Your audit', body: 'Hello {{first_name}}' });
  await h.handle.db.insert(bookings).values({ id: crypto.randomUUID(), provider: 'webhook', externalId: crypto.randomUUID(), email: EMAIL, startsAt: new Date(Date.now() + 3 * 24 * HOUR), status: 'cancelled' });
  return { token, memberId };
}

describe('erasing a person', () => {
  it('leaves no trace of their email, name, business or phone in any table; the report link is gone; one hashed entry says what went', async () => {
    const { token, memberId } = await personWithEverything();
    // A bystander lead stays whole.
    await requestAudit('bystander@example.com', 'Bea Bystander', undefined, { name: 'Bystander Bakery', phone: '+44 20 7946 0000', website: '' });
    const before = await wholeDatabaseText();
    for (const trace of TRACES) expect(tablesWith(before, trace).length, trace).toBeGreaterThan(0);
    expect(await openReport(token, { method: 'GET', userAgent: null })).toMatchObject({ kind: 'ok' });
    expect(await h.handle.db.select().from(leadSequenceEnrollments).where(eq(leadSequenceEnrollments.email, EMAIL))).toHaveLength(1);

    const preview = await erasePreview(admin, EMAIL.toUpperCase());
    // Two website checks: the one queued with the request, and the finished one the report shows.
    expect(preview).toMatchObject({ auditRequests: 1, websiteChecks: 2, reports: 1, conversations: 1, sequenceEnrolments: 1, bookings: 1, pageViews: 1, memberAccount: 1 });
    expect(preview.chatMessages).toBeGreaterThanOrEqual(1);
    expect(preview.notes).toBe(2);
    expect(preview.leadEvents).toBeGreaterThanOrEqual(3); // sign-up, audit request, chat lead
    expect(preview.mails).toBeGreaterThanOrEqual(3); // confirmation, report, the admin's mail (and the team's notices)
    expect(erasedLines(preview)).toContain('1 audit request');

    const erased = await erasePerson(admin, EMAIL);
    expect(erased).toEqual(preview);

    const after = await wholeDatabaseText();
    expect(tracesIn(after)).toEqual(Object.fromEntries(TRACES.map((t) => [t, []])));
    expect(after.get('audit_requests')).toContain('bystander@example.com');
    expect(await openReport(token, { method: 'GET', userAgent: null })).toEqual({ kind: 'not-found' });
    expect(await findPerson(EMAIL)).toBeUndefined();
    expect(await h.handle.db.select().from(users).where(eq(users.id, memberId))).toEqual([]);

    const entries = await h.handle.db.select().from(activityLog).where(eq(activityLog.action, 'erase'));
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ entityType: 'lead', entityId: erasedKey(EMAIL), actorId: admin, after: erased });
    expect(entries[0]!.entityId).toMatch(/^erased:[0-9a-f]{64}$/);
    expect(entries[0]!.summary).toMatch(/^Erased a person on request: \d+ records$/);
  });

  it('never mails the address again: coming back through the form, they are not offered to any sequence', async () => {
    await saveSequence(admin, 'audit-requested', { active: true, steps: [{ delayDays: 2, subject: 'Hello again', body: 'Hi' }] });
    await requestAudit(EMAIL, NAME);
    expect(await h.handle.db.select().from(leadSequenceEnrollments).where(eq(leadSequenceEnrollments.email, EMAIL))).toHaveLength(1);
    await erasePerson(admin, EMAIL);

    await requestAudit(EMAIL, NAME);
    expect(await h.handle.db.select().from(leadSequenceEnrollments).where(eq(leadSequenceEnrollments.email, EMAIL))).toEqual([]);
    const options = await enrolOptionsOf(EMAIL);
    expect(options.find((o) => o.trigger === 'audit-requested')).toEqual({ trigger: 'audit-requested', refusal: `No follow-up emails go to them: ${SEQUENCE_STOP_LABELS.unsubscribed}.` });
  });

  it('the SQL and the server compute the same hash of an address', async () => {
    const { rows } = (await h.handle.db.execute(sql`select ('erased:' || encode(sha256(convert_to(${EMAIL}, 'UTF8')), 'hex')) as key`)) as unknown as { rows: { key: string }[] };
    expect(rows[0]!.key).toBe(erasedKey(EMAIL.toUpperCase()));
  });

  it('refuses an admin’s address, an address with nothing on record, and anyone but an admin', async () => {
    await expect(erasePerson(admin, 'owner@example.com')).rejects.toMatchObject({ code: 'CONFLICT', message: expect.stringContaining('admin role') });
    await expect(erasePreview(admin, 'nobody@example.com')).rejects.toMatchObject({ code: 'NOT_FOUND', message: 'Nothing is kept about this address.' });
    await expect(erasePerson(admin, 'nobody@example.com')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    const { userId: member } = await h.signUpVerified({ email: 'member@example.com' });
    await requestAudit(EMAIL, NAME);
    await expect(erasePerson(member, EMAIL)).rejects.toMatchObject({ code: 'NOT_ADMIN' });
    await expect(erasePerson(undefined, EMAIL)).rejects.toBeTruthy();
    expect(await findPerson(EMAIL)).toBeDefined();
  });
});
