/**
 * The one durable job queue (decision 042) with several server processes on one database: each job runs
 * once at a time, a dead process's job is taken again after its lease and not before, failures are tried
 * again with the kind's backoff until given up, and a capped kind never runs more than its cap across
 * processes. On PostgreSQL the "processes" are separate connection pools on one database, as two instances
 * are; on PGlite (single-process) the same rules hold in one process.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { db } from '../../src/server/db';
import type { Database, DatabaseHandle } from '../../src/server/db/client';
import { jobs } from '../../src/server/db/schema';
import { defineJobKind, enqueueJob, runDueJobsOf, type JobKind } from '../../src/server/jobs/queue';
import { twoInstances } from '../support/db';

let handle: DatabaseHandle;
/** The second instance's own pool on the same database (PostgreSQL); the same handle on PGlite. */
let otherDb: Database;
let closeAll: () => Promise<void>;

beforeAll(async () => {
  ({ handle, otherDb, close: closeAll } = await twoInstances());
});
afterAll(() => closeAll());
beforeEach(async () => {
  await db().delete(jobs);
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const LEASE_MS = 60_000;

/** A kind whose runs are recorded; `work` decides what one run does. */
function recordingKind(work: (n: number) => Promise<unknown> = () => sleep(5), overrides: Partial<JobKind> = {}) {
  const ran: number[] = [];
  const kind: JobKind = {
    maxAttempts: 3,
    retryDelayMs: (attempts) => 10_000 * attempts,
    leaseMs: LEASE_MS,
    ...overrides,
    async run(payload) {
      const n = payload.n as number;
      await work(n);
      ran.push(n);
    },
  };
  return { kind, ran };
}

async function queue(kind: string, count: number) {
  defineJobKind(kind, { maxAttempts: 3, retryDelayMs: () => 0, leaseMs: LEASE_MS, run: async () => undefined });
  await db().transaction(async (tx) => {
    for (let n = 0; n < count; n++) await enqueueJob(tx, { kind, payload: { n } });
  });
}

describe('the job queue on several processes', () => {
  it('two instances draining at once run every job exactly once', async () => {
    await queue('test-once', 30);
    const { kind, ran } = recordingKind();
    const drain = async (database: Database) => {
      while ((await runDueJobsOf('test-once', kind, { database })) > 0);
    };
    await Promise.all([drain(handle.db), drain(otherDb), drain(handle.db), drain(otherDb)]);
    expect(ran.toSorted((a, b) => a - b)).toEqual(Array.from({ length: 30 }, (_, n) => n));
    const rows = await db().select().from(jobs);
    expect(rows.every((r) => r.finishedAt !== null && r.attempts === 1 && r.runningUntil === null)).toBe(true);
  });

  it("a job whose process died mid-run is taken by another once its lease ends, not before", async () => {
    await queue('test-lease', 1);
    // A millisecond on: the database's now() of the insert has microseconds, which may round past Date.now().
    const t0 = new Date(Date.now() + 1);
    const dying = recordingKind(() => new Promise<void>(() => {}));
    void runDueJobsOf('test-lease', dying.kind, { database: handle.db, now: () => t0 });
    await expect.poll(async () => (await db().select().from(jobs))[0]!.attempts).toBe(1);

    const alive = recordingKind();
    expect(await runDueJobsOf('test-lease', alive.kind, { database: otherDb, now: () => new Date(t0.getTime() + LEASE_MS - 1000) })).toBe(0);
    expect(await runDueJobsOf('test-lease', alive.kind, { database: otherDb, now: () => new Date(t0.getTime() + LEASE_MS) })).toBe(1);
    expect(alive.ran).toEqual([0]);
    const [row] = await db().select().from(jobs);
    expect(row).toMatchObject({ attempts: 2, runningUntil: null });
    expect(row!.finishedAt).not.toBeNull();
  });

  it('a failing job is tried again after its backoff, then given up and kept with its error', async () => {
    await queue('test-retry', 1);
    const failing = recordingKind(() => Promise.reject(new Error('the site did not answer')));
    // A millisecond on: the database's now() of the insert has microseconds, which may round past Date.now().
    const t0 = Date.now() + 1;
    expect(await runDueJobsOf('test-retry', failing.kind, { now: () => new Date(t0) })).toBe(0);
    let [row] = await db().select().from(jobs);
    expect(row).toMatchObject({ attempts: 1, lastError: 'the site did not answer', finishedAt: null, runningUntil: null });
    expect(row!.runAt.getTime()).toBe(t0 + 10_000);
    // Not due before its backoff ends.
    expect(await runDueJobsOf('test-retry', failing.kind, { now: () => new Date(t0 + 9_000) })).toBe(0);
    expect((await db().select().from(jobs))[0]!.attempts).toBe(1);
    await runDueJobsOf('test-retry', failing.kind, { now: () => new Date(t0 + 10_000) });
    [row] = await db().select().from(jobs);
    expect(row!.runAt.getTime()).toBe(t0 + 10_000 + 20_000);
    await runDueJobsOf('test-retry', failing.kind, { now: () => new Date(t0 + 30_000) });
    // Three tries: given up, never taken again, still there with the reason.
    await runDueJobsOf('test-retry', failing.kind, { now: () => new Date(t0 + 10 * 60_000) });
    [row] = await db().select().from(jobs);
    expect(row).toMatchObject({ attempts: 3, lastError: 'the site did not answer', finishedAt: null });
  });

  it('a capped kind runs at most its cap at once across processes', async () => {
    await queue('test-cap', 8);
    let running = 0;
    let most = 0;
    const capped = recordingKind(
      async () => {
        running++;
        most = Math.max(most, running);
        await sleep(60);
        running--;
      },
      { concurrency: 2 },
    );
    const drain = async (database: Database) => {
      for (let i = 0; i < 20 && (await db().select().from(jobs).where(eq(jobs.kind, 'test-cap'))).some((r) => !r.finishedAt); i++) {
        await runDueJobsOf('test-cap', capped.kind, { database });
        await sleep(10);
      }
    };
    await Promise.all([drain(handle.db), drain(otherDb)]);
    expect(capped.ran).toHaveLength(8);
    expect(most).toBe(2);
  });

  it('a spaced kind starts its jobs in a lane at most once per spacing, the first at once', async () => {
    await queue('test-spaced', 3);
    const started: number[] = [];
    const spaced = recordingKind(
      async () => {
        started.push(performance.now());
      },
      { spacingMs: 250 },
    );
    const t0 = performance.now();
    expect(await runDueJobsOf('test-spaced', spaced.kind)).toBe(3);
    expect(started[0]! - t0).toBeLessThan(250);
    // Timers may fire a millisecond early against performance.now().
    expect(started[1]! - started[0]!).toBeGreaterThanOrEqual(249);
    expect(started[2]! - started[1]!).toBeGreaterThanOrEqual(249);
  });
});
