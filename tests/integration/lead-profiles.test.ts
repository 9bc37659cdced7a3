/**
 * What sells, per person (issue 35, migration 0023): the leads list and the person's page carry the business,
 * phone and website they gave, their latest website-check score and where their report stands, kept by
 * triggers on the requests, the checks and the reports (so every writer is covered), and the list sorts by
 * score, the worst website first. And the migration: a request's own status and assignee become the person's
 * stage and owner before the columns go.
 */
import { eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { useDatabaseHandle } from '../../src/server/db';
import type { DatabaseHandle } from '../../src/server/db/client';
import { auditReports, leadPeople, leadProfiles, users } from '../../src/server/db/schema';
import { submitAuditRequest } from '../../src/server/modules/audit/service';
import { openReport, sendAuditReport } from '../../src/server/modules/audit-report/service';
import { hashReportToken } from '../../src/server/modules/audit-report/token';
import { exportPeopleCsv, findPerson, listPeople } from '../../src/server/modules/leads/people';
import { insertRun } from '../../src/server/modules/site-audit/repository';
import type { CheckResult } from '../../src/server/modules/site-audit/findings';
import { scoreFindings } from '../../src/server/modules/site-audit/scoring';
import { peopleQueryOf } from '../../src/shared/lead-people';
import { auditSubmissionOf } from '../../src/shared/schemas/audit';
import { createAuthHarness, randomIp, type AuthHarness } from '../support/auth';
import { emptyDatabase, migrateFrom, migrationsBefore } from '../support/migrations';

const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

describe('the profile of a person', () => {
  let h: AuthHarness;
  let admin: string;
  beforeEach(async () => {
    h = await createAuthHarness();
    ({ userId: admin } = await h.signUpVerified({ email: 'owner@example.com' }));
  });
  afterEach(() => h.close());

  async function request(email: string, over: Record<string, string> = {}): Promise<string> {
    const fields = { fullName: 'Ada Lovelace', email, businessName: 'Analytical Clinic', website: '', phone: '', businessType: 'clinic', goals: ['more-leads'], message: '', consent: true, ...over };
    const result = await submitAuditRequest(auditSubmissionOf(fields), { clientIp: randomIp(), userId: undefined });
    if (result.kind !== 'accepted' || !result.id) throw new Error('not accepted');
    return result.id;
  }
  /** A finished check scoring `passing` of two checks (0, 50 or 100). */
  async function checked(requestId: string, passing: 0 | 1 | 2) {
    const check = (id: string, pass: boolean): CheckResult => ({ id, category: 'leads', title: id, status: pass ? 'pass' : 'fail', evidence: ['x'], why: 'w', fix: 'f' });
    const findings = scoreFindings([check('a', passing >= 1), check('b', passing >= 2)]);
    await insertRun(h.handle.db, { id: crypto.randomUUID(), requestId, url: 'https://clinic.example/', status: 'done', finishedAt: new Date(), score: findings.overall ?? null, findings });
    return findings.overall!;
  }
  const rowOf = async (email: string) => (await findPerson(email))!.profile;

  it('follows the requests, the checks and the reports, newest first, as they are written', async () => {
    const first = await request('Ada@Example.com', { phone: '+44 20 7946 0000', website: 'https://old.example' });
    expect(await rowOf('ada@example.com')).toMatchObject({ businessName: 'Analytical Clinic', phone: '+44 20 7946 0000', website: 'https://old.example', score: null, requestId: first, reportSentAt: null });
    const score = await checked(first, 1);
    expect(await rowOf('ada@example.com')).toMatchObject({ score, scoreRequestId: first });
    // A newer request: its business and website, the phone kept from before (the newest given).
    const second = await request('ada@example.com', { businessName: 'Ada Physio', website: 'https://new.example' });
    expect(await rowOf('ada@example.com')).toMatchObject({ businessName: 'Ada Physio', phone: '+44 20 7946 0000', website: 'https://new.example', requestId: second, score });
    await sendAuditReport(admin, first, { summary: '', notes: {}, hidden: [] });
    const sent = await rowOf('ada@example.com');
    expect(sent.reportSentAt).toBeInstanceOf(Date);
    expect(sent.reportOpenedAt).toBeNull();
    // The reader opens it (a token only the mail holds: set one we know).
    const [report] = await h.handle.db.select().from(auditReports);
    const token = 'T'.repeat(43);
    await h.handle.db.update(auditReports).set({ tokenHash: hashReportToken(token) }).where(eq(auditReports.id, report!.id));
    expect((await openReport(token, { method: 'GET', userAgent: BROWSER })).kind).toBe('ok');
    expect((await rowOf('ada@example.com')).reportOpenedAt).toBeInstanceOf(Date);
  });

  it('falls back to the member account’s phone and website, and is empty without a request', async () => {
    const { userId } = await h.signUpVerified({ email: 'max@example.com', phone: '+1 555 0100', website: 'https://max.example' });
    expect(userId).toBeTruthy();
    expect(await rowOf('max@example.com')).toEqual({ businessName: '', phone: '+1 555 0100', website: 'https://max.example', score: null, scoreRequestId: null, requestId: null, reportSentAt: null, reportOpenedAt: null });
  });

  it('sorts the leads list by score, the worst website first and the unscored last, and exports it', async () => {
    await checked(await request('good@example.com'), 2);
    await checked(await request('poor@example.com'), 0);
    await checked(await request('fair@example.com'), 1);
    await request('none@example.com');
    const { rows } = await listPeople(peopleQueryOf(new URLSearchParams('sort=score')), { actorId: admin, today: '2026-12-07' });
    expect(rows.map((r) => [r.email, r.profile.score])).toEqual([
      ['poor@example.com', 0],
      ['fair@example.com', 50],
      ['good@example.com', 100],
      ['none@example.com', null],
    ]);
    const csv = await exportPeopleCsv(admin, peopleQueryOf(new URLSearchParams('sort=score')));
    const [header, firstRow] = csv.split('\r\n');
    expect(header).toContain('Business,Phone,Website,Website score,Report');
    expect(firstRow).toContain(',Analytical Clinic,,,0,Report not sent,');
  });

  it('goes with the person’s last request', async () => {
    const id = await request('gone@example.com');
    await checked(id, 1);
    await h.handle.db.execute(sql`delete from audit_requests where id = ${id}`);
    expect(await h.handle.db.select().from(leadProfiles).where(eq(leadProfiles.email, 'gone@example.com'))).toEqual([]);
  });
});

describe('the migration (0023), by the app’s migrator on a database of the old shape', () => {
  let handle: DatabaseHandle;
  let before: string;
  beforeAll(async () => {
    before = migrationsBefore('0023_lead_profiles');
    handle = await emptyDatabase();
    await migrateFrom(handle, before);
    useDatabaseHandle(handle);
  }, 120_000);
  afterAll(async () => {
    await handle?.close();
  });

  it('makes the requests’ status and assignee the person’s stage and owner where none was set, and fills the profiles', async () => {
    await handle.db.insert(users).values([{ id: 'maya', name: 'Maya', email: 'maya@example.com', role: 'admin', emailVerified: true }]);
    const insert = (id: string, email: string, status: string, assignedTo: string | null, at: string) =>
      handle.db.execute(sql`insert into audit_requests (id, full_name, email, business_name, business_type, consent_at, status, assigned_to, created_at, phone)
        values (${id}, 'P', ${email}, ${`${id} Co`}, 'clinic', now(), ${status}, ${assignedTo}, ${at}, '+1 555')`);
    await insert('a1', 'Progress@Example.com', 'in-progress', 'maya', '2026-11-01T10:00:00Z');
    await insert('b1', 'closed@example.com', 'closed', null, '2026-11-01T10:00:00Z');
    await insert('c1', 'kept@example.com', 'report-sent', 'maya', '2026-11-01T10:00:00Z');
    await insert('d1', 'fresh@example.com', 'closed', null, '2026-11-01T10:00:00Z');
    await insert('d2', 'fresh@example.com', 'new', null, '2026-11-02T10:00:00Z');
    // A stage and owner the team set already stay.
    await handle.db.execute(sql`insert into lead_people (email, stage) values ('kept@example.com', 'client')`);

    await migrateFrom(handle, undefined);

    const people = await handle.db.select({ email: leadPeople.email, stage: leadPeople.stage, ownerId: leadPeople.ownerId }).from(leadPeople).orderBy(leadPeople.email);
    expect(people).toEqual([
      { email: 'closed@example.com', stage: 'not-a-fit', ownerId: null },
      // The newest request speaks for the person: still new.
      { email: 'fresh@example.com', stage: 'new', ownerId: null },
      { email: 'kept@example.com', stage: 'client', ownerId: 'maya' },
      { email: 'progress@example.com', stage: 'contacted', ownerId: 'maya' },
    ]);
    const columns = await handle.db.execute(sql`select column_name from information_schema.columns where table_name = 'audit_requests' and column_name in ('status', 'assigned_to')`);
    expect((columns as unknown as { rows: unknown[] }).rows).toEqual([]);
    const profiles = await handle.db.select({ email: leadProfiles.email, business: leadProfiles.businessName, requestId: leadProfiles.requestId, phone: leadProfiles.phone }).from(leadProfiles).orderBy(leadProfiles.email);
    expect(profiles).toEqual([
      { email: 'closed@example.com', business: 'b1 Co', requestId: 'b1', phone: '+1 555' },
      { email: 'fresh@example.com', business: 'd2 Co', requestId: 'd2', phone: '+1 555' },
      { email: 'kept@example.com', business: 'c1 Co', requestId: 'c1', phone: '+1 555' },
      { email: 'progress@example.com', business: 'a1 Co', requestId: 'a1', phone: '+1 555' },
    ]);
  });
});
