/**
 * The automatic website audit (issue 22, decision 042): a request with a website gets a run queued in the
 * same transaction; the 'site-audit' job crawls the site through the safe fetch (crawl.ts), judges what it
 * saw (checks/, scoring.ts) and stores the findings on the run. A site that does not answer is a finished
 * run whose checks say so; a run the server itself could not finish (after the job's tries) is `failed`.
 * "Run again" adds a run and keeps the earlier ones, so the owner sees what changed.
 */
import { config } from '../../config';
import { db } from '../../db';
import { defineJobKind, doublingDelay, enqueueJob, type JobRow } from '../../jobs/queue';
import { logger } from '../../logger';
import { insertActivity } from '../activity/repository';
import { AuditError } from '../audit/errors';
import { AUDIT_ENTITY } from '../audit/entity';
import { lockAuditRequest } from '../audit/repository';
import { getSiteContent } from '../site/service';
import { requireAdmin } from '../users/service';
import { normalizeAuditUrl } from './normalize-url';
import * as repo from './repository';
import { auditSiteInOwnProcess } from './audit-process';
import type { StoredSnapshot } from './stored-snapshot';
import { compareFindings, type RunComparison } from './compare';
import type { AuditFindings } from './findings';

const log = logger.child({ module: 'site-audit' });
export const SITE_AUDIT_JOB = 'site-audit';
/** A crawl ends within 45 s and the checks within seconds: a run still leased after this is a dead process's. */
const LEASE_MS = 3 * 60_000;
const MAX_ATTEMPTS = 3;
/**
 * A lane starts a check at most once a second. A check of a real website takes longer than that anyway;
 * one of a site answering at once (a test's on loopback) would otherwise have the embedded database's
 * bookkeeping (about 20 queries a check, on the server's own thread) fill most of that thread.
 */
const CHECK_SPACING_MS = 1000;

/**
 * Queues a run for `website` in the caller's transaction. An address that cannot be audited (a scheme other
 * than http(s), a user name in it) is a failed run saying why, so the owner sees the outcome, not nothing.
 */
export async function queueSiteAudit(tx: repo.Executor, run: { requestId: string; website: string; requestedBy: string | null }): Promise<string> {
  const id = crypto.randomUUID();
  const address = normalizeAuditUrl(run.website);
  if (!address.ok) {
    await repo.insertRun(tx, { id, requestId: run.requestId, url: run.website, requestedBy: run.requestedBy, status: 'failed', finishedAt: new Date(), error: address.message });
    return id;
  }
  await repo.insertRun(tx, { id, requestId: run.requestId, url: address.url, requestedBy: run.requestedBy });
  await enqueueJob(tx, { kind: SITE_AUDIT_JOB, payload: { runId: id } });
  return id;
}

/** The user agent audited sites see: this site's name and address, so their owners know who asked. */
async function userAgent(): Promise<string> {
  const { siteName } = await getSiteContent();
  return `${siteName} website audit (+${config().SITE_URL})`;
}

/** One run: crawl, judge, store. Throws only for the server's own failures (the job tries again). */
async function auditRun(runId: string, job: JobRow): Promise<void> {
  const run = await repo.findRun(runId);
  if (!run || run.status === 'done' || run.status === 'failed') return;
  await repo.updateRun(run.id, { status: 'running', startedAt: new Date() });
  try {
    const cfg = config();
    const { findings, fetched } = await auditSiteInOwnProcess(run.url, {
      userAgent: await userAgent(),
      allowedPorts: [80, 443, ...cfg.AUDIT_EXTRA_PORTS],
      chromiumPath: cfg.AUDIT_CHROMIUM_PATH,
      browser: { memoryMb: cfg.AUDIT_BROWSER_MEMORY_MB, cpuSeconds: cfg.AUDIT_BROWSER_CPU_SECONDS, user: cfg.AUDIT_BROWSER_USER },
    });
    await repo.updateRun(run.id, { status: 'done', finishedAt: new Date(), score: findings.overall ?? null, findings, fetched, error: null });
    log.info({ runId, url: run.url, score: findings.overall }, 'website audited');
  } catch (err) {
    const last = job.attempts >= job.maxAttempts;
    const message = err instanceof Error ? err.message : String(err);
    await repo.updateRun(run.id, last ? { status: 'failed', finishedAt: new Date(), error: `The check could not be finished: ${message}` } : { status: 'queued' });
    if (!last) throw err;
    log.error({ runId, err: message }, 'website audit given up');
  }
}

defineJobKind<{ runId: string }>(SITE_AUDIT_JOB, {
  maxAttempts: MAX_ATTEMPTS,
  retryDelayMs: doublingDelay(60_000),
  leaseMs: LEASE_MS,
  spacingMs: CHECK_SPACING_MS,
  get concurrency() {
    return config().AUDIT_CONCURRENCY;
  },
  run: ({ runId }, job) => auditRun(runId, job),
});

/**
 * "Run again" (admin): a new run of the request's website, or of `url` when the admin corrects it. Refused
 * while a run of the request is still queued or running.
 */
export async function runSiteAuditAgain(actorId: string | undefined, requestId: string, url?: string): Promise<{ runId: string }> {
  return db().transaction(async (tx) => {
    const actor = await requireAdmin(actorId, tx);
    const request = await lockAuditRequest(requestId, tx);
    if (!request) throw new AuditError('NOT_FOUND', 'This audit request does not exist (any more).');
    const website = (url ?? request.website).trim();
    if (!website) throw new AuditError('INVALID', 'Enter the website to check.', { url: 'The request has no website: enter one' });
    const address = normalizeAuditUrl(website);
    if (!address.ok) throw new AuditError('INVALID', address.message, { url: address.message });
    if (await repo.unfinishedRunOf(request.id, tx)) throw new AuditError('CONFLICT', 'A check of this website is already under way.');
    const runId = await queueSiteAudit(tx, { requestId: request.id, website: address.url, requestedBy: actor.id });
    await insertActivity(tx, {
      actorId: actor.id,
      actorEmail: actor.email,
      action: 'site-audit',
      entityType: AUDIT_ENTITY,
      entityId: request.id,
      summary: `${request.fullName} (${request.businessName}): website check run again for ${address.url}`,
      before: null,
      after: { url: address.url },
    });
    return { runId };
  });
}

// ---------------------------------------------------------------------------------------------------------
// Admin reads.

export interface SiteAuditView {
  /** Every run, newest first. */
  runs: repo.SiteAuditRunRow[];
  /** The newest run, whatever its state (queued, running: the page says so and waits for it). */
  latest: repo.SiteAuditRunRow | undefined;
  /** The newest finished run and what it found. */
  report: { run: repo.SiteAuditRunRow; findings: AuditFindings; fetched: StoredSnapshot | undefined } | undefined;
  /** What changed since the finished run before it. */
  changes: RunComparison | undefined;
}

export async function siteAuditView(requestId: string): Promise<SiteAuditView> {
  const runs = await repo.runsOfRequest(requestId);
  const done = runs.filter((r) => r.status === 'done' && r.findings);
  const [last, previous] = done;
  return {
    runs,
    latest: runs[0],
    report: last ? { run: last, findings: last.findings as AuditFindings, fetched: (last.fetched as StoredSnapshot | null) ?? undefined } : undefined,
    changes: last && previous ? compareFindings(previous.findings as AuditFindings, last.findings as AuditFindings) : undefined,
  };
}

/** The newest run's state, for the admin page waiting on it. */
export async function latestRunState(actorId: string | undefined, requestId: string) {
  // Admin only: checked here too, not only by the route guard of every `admin.` Action.
  await requireAdmin(actorId, db());
  return repo.newestRunState(requestId);
}
