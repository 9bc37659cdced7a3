/**
 * CDN purges, sent from the database (docs/decisions/024). invalidateTags enqueues one row per tag
 * invalidation; a worker in each server process claims every due row at once with FOR UPDATE SKIP LOCKED
 * (so one process sends them), sends their tags once each and deletes them. The claim is a lease (the
 * rows' next attempt moved past the send's time bound), not a transaction held across the network: on
 * PGlite a transaction would hold the only connection while a slow CDN answers. A failed purge is merged
 * into one row with its error and tried again after a growing wait (1 s doubling to 5 min), for as long
 * as it fails: the admin overview says since when (cdnPurgeProblem) and every failure is logged.
 */
import { asc, inArray, isNotNull, lte } from 'drizzle-orm';
import { config } from '../config';
import { db } from '../db';
import { cdnPurges } from '../db/schema';
import { SafeFetchError, safeFetch } from '../http/safe-fetch';
import { logger } from '../logger';
import { purgeRequests, purgeTargetFrom, type PurgeRequest, type PurgeTarget } from './purge-targets';

const log = logger.child({ module: 'cdn-purge' });

/** Rows claimed in one pass: their tags are collapsed into one purge. */
const BATCH = 500;
/** Each purge request's bound; the claim outlasts every request of a pass. */
const REQUEST_TIMEOUT_MS = 5_000;
const LEASE_MS = 60_000;
const FIRST_RETRY_MS = 1_000;
const LONGEST_WAIT_MS = 5 * 60_000;

export function purgeRetryDelayMs(attempts: number): number {
  return Math.min(LONGEST_WAIT_MS, FIRST_RETRY_MS * 2 ** Math.max(0, attempts - 1));
}

export const configuredPurgeTarget = (): PurgeTarget | undefined => purgeTargetFrom(config());

/**
 * Queues a purge of `tags` when a purge target is configured. Called after the write committed (the CDN's
 * next fetch must see it). Never fails the write: an error is logged, and the pages then expire after
 * CDN_MAX_AGE_SECONDS.
 */
export async function enqueueCdnPurge(tags: readonly string[], target = configuredPurgeTarget()): Promise<void> {
  if (!target || tags.length === 0) return;
  try {
    await db().insert(cdnPurges).values({ id: crypto.randomUUID(), tags: [...new Set(tags)] });
    wakeWorker();
  } catch (err) {
    log.error({ err, tags }, 'CDN purge could not be queued; the pages expire after CDN_MAX_AGE_SECONDS');
  }
}

/** Sends `requests` in order; rejects with a message an operator can act on. */
export async function sendPurgeRequests(target: PurgeTarget, requests: readonly PurgeRequest[]): Promise<void> {
  for (const request of requests) {
    const response = await fetchFor(target, request);
    const text = (await response.text()).slice(0, 300);
    if (!response.ok) throw new Error(`${target.kind} answered ${response.status}${text ? `: ${text}` : ''}`);
    // Cloudflare answers 200 with {"success": false} for some refusals.
    if (target.kind === 'cloudflare' && /"success"\s*:\s*false/.test(text)) throw new Error(`cloudflare refused the purge: ${text}`);
  }
}

/**
 * The CDN APIs are public HTTPS services: asked through the safe fetch (decision 018), only their own
 * origin, no redirects. The Varnish address is the operator's own setting (usually loopback or a private
 * network, which the safe fetch refuses by design): asked directly, no redirects, bounded in time.
 */
async function fetchFor(target: PurgeTarget, request: PurgeRequest): Promise<Response> {
  const init = { method: request.method, headers: request.headers, body: request.body };
  try {
    if (target.kind === 'varnish') {
      return await fetch(request.url, { ...init, redirect: 'manual', signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
    }
    return await safeFetch(request.url, {
      ...init,
      allowedOrigins: [new URL(request.url).origin],
      protocols: ['https:'],
      maxRedirects: 0,
      maxResponseBytes: 64 * 1024,
      timeoutMs: REQUEST_TIMEOUT_MS,
    });
  } catch (err) {
    const reason = err instanceof SafeFetchError ? err.message : err instanceof Error ? (err.cause instanceof Error ? err.cause.message : err.message) : String(err);
    throw new Error(`${target.kind} could not be reached at ${new URL(request.url).origin}: ${reason}`, { cause: err });
  }
}

export type PurgePass = { outcome: 'idle' } | { outcome: 'sent' | 'failed'; tags: string[] };

/** One pass: claims every due purge, sends their tags once, deletes them (or records the failure). */
export async function sendDuePurges(
  target: PurgeTarget | undefined = configuredPurgeTarget(),
  send: (target: PurgeTarget, tags: string[]) => Promise<void> = (t, tags) => sendPurgeRequests(t, purgeRequests(t, tags)),
  now = new Date(),
): Promise<PurgePass> {
  if (!target) return { outcome: 'idle' };
  const due = db()
    .select({ id: cdnPurges.id })
    .from(cdnPurges)
    .where(lte(cdnPurges.nextAttemptAt, now))
    .orderBy(asc(cdnPurges.createdAt))
    .limit(BATCH)
    .for('update', { skipLocked: true });
  const claimed = await db()
    .update(cdnPurges)
    .set({ nextAttemptAt: new Date(now.getTime() + LEASE_MS) })
    .where(inArray(cdnPurges.id, due))
    .returning();
  if (claimed.length === 0) return { outcome: 'idle' };
  const tags = [...new Set(claimed.flatMap((row) => row.tags))].sort();
  const ids = claimed.map((row) => row.id);
  try {
    await send(target, tags);
  } catch (err) {
    await recordFailure(claimed, tags, err, now);
    return { outcome: 'failed', tags };
  }
  await db().delete(cdnPurges).where(inArray(cdnPurges.id, ids));
  if (claimed.some((row) => row.attempts > 0)) log.info({ tags }, 'CDN purge sent after earlier failures');
  return { outcome: 'sent', tags };
}

type PurgeRow = typeof cdnPurges.$inferSelect;

/** The claimed rows become one row holding all their tags, its error and its next try. */
async function recordFailure(claimed: PurgeRow[], tags: string[], err: unknown, now: Date) {
  const message = (err instanceof Error ? err.message : String(err)).slice(0, 1000);
  const [keep, ...merged] = claimed;
  const attempts = Math.max(...claimed.map((row) => row.attempts)) + 1;
  const since = claimed.map((row) => row.firstFailedAt).filter((d): d is Date => d !== null);
  const firstFailedAt = since.length ? new Date(Math.min(...since.map((d) => d.getTime()))) : now;
  const nextAttemptAt = new Date(now.getTime() + purgeRetryDelayMs(attempts));
  await db().transaction(async (tx) => {
    await tx.update(cdnPurges).set({ tags, attempts, lastError: message, firstFailedAt, nextAttemptAt }).where(inArray(cdnPurges.id, [keep!.id]));
    if (merged.length) await tx.delete(cdnPurges).where(inArray(cdnPurges.id, merged.map((row) => row.id)));
  });
  log.warn({ err: message, tags, attempts, retryAt: nextAttemptAt.toISOString() }, 'CDN purge failed; will retry');
}

export interface CdnPurgeProblem {
  failingSince: Date;
  lastError: string;
  attempts: number;
  nextAttemptAt: Date;
  tags: string[];
}

/** The oldest failing purge, for the admin overview; null when every purge went through. */
export async function cdnPurgeProblem(): Promise<CdnPurgeProblem | null> {
  if (!configuredPurgeTarget()) return null;
  const [row] = await db().select().from(cdnPurges).where(isNotNull(cdnPurges.firstFailedAt)).orderBy(asc(cdnPurges.firstFailedAt)).limit(1);
  if (!row?.firstFailedAt) return null;
  return { failingSince: row.firstFailedAt, lastError: row.lastError ?? '', attempts: row.attempts, nextAttemptAt: row.nextAttemptAt, tags: row.tags };
}

// ---- The worker: a pass as soon as this process queues a purge, and one every POLL_MS for retries and for
// purges other processes queued but could not send (they stopped mid-way: their lease runs out).
const POLL_MS = 5_000;
interface PurgeWorker {
  timer?: NodeJS.Timeout;
  running?: Promise<void> | undefined;
  again?: boolean;
}
const state = globalThis as unknown as { __cdnPurgeWorker?: PurgeWorker };

function runPass() {
  const worker = state.__cdnPurgeWorker;
  if (!worker) return;
  if (worker.running) {
    // A purge queued while a pass sends: it may have missed the claim, so one more pass follows.
    worker.again = true;
    return;
  }
  worker.running = sendDuePurges()
    .then(() => undefined)
    .catch((err: unknown) => log.error({ err }, 'CDN purge pass failed'))
    .finally(() => {
      worker.running = undefined;
      if (worker.again) {
        worker.again = false;
        runPass();
      }
    });
}

function wakeWorker() {
  if (state.__cdnPurgeWorker?.timer) setImmediate(runPass);
}

/** Started once by the server's start-up when a purge target is configured. */
export function startCdnPurgeWorker(): void {
  if (!configuredPurgeTarget() || state.__cdnPurgeWorker) return;
  const timer = setInterval(runPass, POLL_MS);
  timer.unref();
  state.__cdnPurgeWorker = { timer };
  runPass();
}

export function stopCdnPurgeWorker(): void {
  const worker = state.__cdnPurgeWorker;
  if (worker?.timer) clearInterval(worker.timer);
  state.__cdnPurgeWorker = undefined;
}
