/**
 * The website check from request to stored findings (issue 22): a request with a website queues a run in
 * its own transaction; the job crawls the fixture site and stores the score, the checks and what was
 * fetched; "Run again" keeps the history and is the admin's only; an address that cannot be checked is a
 * failed run saying why, never a crash.
 */
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { activityLog, jobs, siteAuditRuns } from '../../src/server/db/schema';
import { useTestNetwork } from '../../src/server/http/safe-fetch';
import { runDueJobs } from '../../src/server/jobs/queue';
import { submitAuditRequest } from '../../src/server/modules/audit/service';
import { runSiteAuditAgain, SITE_AUDIT_JOB, siteAuditView } from '../../src/server/modules/site-audit/service';
import { auditSubmissionOf } from '../../src/shared/schemas/audit';
import { AUDIT_FIXTURE_HOSTS, startAuditFixtureSites, type AuditFixtureSites } from '../support/audit-fixture-sites';
import { createAuthHarness, randomIp, type AuthHarness } from '../support/auth';

let sites: AuditFixtureSites;
let h: AuthHarness;
let admin: string;
let member: string;

beforeAll(async () => {
  sites = await startAuditFixtureSites();
  useTestNetwork({ hosts: Object.fromEntries(AUDIT_FIXTURE_HOSTS.map((host) => [host, '127.0.0.1'])) });
});
afterAll(async () => {
  useTestNetwork(undefined);
  await sites.close();
});
beforeEach(async () => {
  h = await createAuthHarness();
  ({ userId: admin } = await h.signUpVerified({ email: 'owner@example.com' }));
  ({ userId: member } = await h.signUpVerified({ email: 'member@example.com' }));
});
afterEach(() => h.close());

async function request(website: string): Promise<string> {
  const fields = { fullName: 'Ada Lovelace', email: 'ada@example.com', businessName: 'Analytical Clinic', website, businessType: 'clinic', goals: ['more-leads'], message: '', consent: true };
  const result = await submitAuditRequest(auditSubmissionOf(fields), { clientIp: randomIp(), userId: undefined });
  if (result.kind !== 'accepted' || !result.id) throw new Error(`not accepted: ${JSON.stringify(result)}`);
  return result.id;
}
const runs = (requestId: string) => h.handle.db.select().from(siteAuditRuns).where(eq(siteAuditRuns.requestId, requestId));
const auditJobs = () => runDueJobs({ kinds: [SITE_AUDIT_JOB] });

describe('the website check of a request', () => {
  it('is queued with the request and, run by the job, stores a score, every check and the pages fetched', async () => {
    const id = await request(sites.url('good.test'));
    const [queued] = await runs(id);
    expect(queued).toMatchObject({ status: 'queued', url: sites.url('good.test'), requestedBy: null, score: null });
    expect(await h.handle.db.select().from(jobs).where(eq(jobs.kind, SITE_AUDIT_JOB))).toHaveLength(1);

    expect(await auditJobs()).toBe(1);
    const view = await siteAuditView(id);
    expect(view.latest?.status).toBe('done');
    const report = view.report!;
    expect(report.run.score).toBeGreaterThanOrEqual(60);
    expect(report.findings.overall).toBe(report.run.score);
    const check = (checkId: string) => report.findings.checks.find((c) => c.id === checkId);
    // The good fixture has a contact form (on /contact), a booking link and a chat widget.
    expect(check('contact-form')?.status).toBe('pass');
    expect(check('booking-link')?.status).toBe('pass');
    expect(check('https')?.status).toBe('fail'); // served over plain http on this machine
    expect(report.fetched?.pages.map((p) => new URL(p.url).pathname)).toContain('/contact');
    // Page bodies are judged, not kept.
    expect(JSON.stringify(report.fetched)).not.toContain('<html');
  });

  it('of a request without a website is not queued', async () => {
    const id = await request('');
    expect(await runs(id)).toEqual([]);
    expect((await siteAuditView(id)).latest).toBeUndefined();
  });

  it('of a site that does not answer is a finished run that says so', async () => {
    const id = await request(sites.url('error.test'));
    await auditJobs();
    const { report } = await siteAuditView(id);
    expect(report?.run.status).toBe('done');
    const reachable = report!.findings.checks.find((c) => c.id === 'reachable')!;
    expect(reachable.status).toBe('fail');
    expect(reachable.evidence.join(' ')).toMatch(/500/);
  });

  it('run again keeps the earlier run, shows what changed, and is recorded in the activity log', async () => {
    const id = await request(sites.url('bad.test'));
    await auditJobs();
    // Corrected by the admin to the site that is in order.
    await runSiteAuditAgain(admin, id, sites.url('good.test'));
    await expect(runSiteAuditAgain(admin, id)).rejects.toMatchObject({ code: 'CONFLICT' });
    await auditJobs();
    const view = await siteAuditView(id);
    expect(view.runs).toHaveLength(2);
    expect(view.runs[0]).toMatchObject({ status: 'done', requestedBy: admin, url: sites.url('good.test') });
    expect(view.changes!.scoreDelta).toBeGreaterThan(0);
    expect(view.changes!.changes.find((c) => c.id === 'contact-form')).toMatchObject({ from: 'fail', to: 'pass' });
    const [entry] = await h.handle.db.select().from(activityLog).where(eq(activityLog.action, 'site-audit'));
    expect(entry).toMatchObject({ entityId: id, actorEmail: 'owner@example.com' });
  });

  it('run again refuses members, nobody, unknown requests and addresses that cannot be checked, changing nothing', async () => {
    const id = await request(sites.url('good.test'));
    await auditJobs();
    await expect(runSiteAuditAgain(member, id)).rejects.toMatchObject({ code: 'NOT_ADMIN' });
    await expect(runSiteAuditAgain(undefined, id)).rejects.toMatchObject({ code: 'NO_USER_LOGGED_IN' });
    await expect(runSiteAuditAgain(admin, crypto.randomUUID())).rejects.toMatchObject({ code: 'NOT_FOUND' });
    for (const url of ['javascript:alert(1)', 'ftp://files.example.com/', 'https://user:secret@example.com/', 'file:///etc/passwd']) {
      await expect(runSiteAuditAgain(admin, id, url)).rejects.toMatchObject({ code: 'INVALID' });
    }
    expect(await runs(id)).toHaveLength(1);
  });

  it('of an address inside the network is refused by the safe fetch, and says so', async () => {
    const id = await request('http://127.0.0.1/');
    await auditJobs();
    const reachable = (await siteAuditView(id)).report!.findings.checks.find((c) => c.id === 'reachable')!;
    expect(reachable.status).toBe('fail');
    expect(reachable.evidence.join(' ')).toMatch(/loopback/);
  });
});
