/**
 * The one durable job queue (decision 042): mail delivery and website audits. A job is a row in `jobs`,
 * written in the caller's transaction (so it exists exactly when what it is about exists). Every server
 * process runs the worker; a due job is claimed by one of them in a short transaction of its own
 * (`FOR UPDATE SKIP LOCKED`: another process's claim skips the row rather than waits), its attempt counted
 * and a lease set. The work runs outside that transaction; success finishes the job, a failure schedules
 * the next try with the kind's backoff, and a process that dies mid-job leaves the lease to run out, after
 * which another process takes the job again (at least once, never lost). Each kind may cap how many of
 * its jobs run at once across all processes: its claims are serialised by a transaction-scoped advisory
 * lock, under which the running jobs are counted.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { and, asc, eq, gt, isNull, lte, or, sql, type SQL } from 'drizzle-orm';
import { db } from '../db';
import { runInBackground } from '../db/background-queries';
import type { Database } from '../db/client';
import { jobs } from '../db/schema';
import { logger } from '../logger';

type Executor = Pick<Database, 'insert'>;
export type JobRow = typeof jobs.$inferSelect;

export interface JobKind<P extends Record<string, unknown> = Record<string, unknown>> {
  /** Tries before the job is given up (it stays in the table with its last error, and is logged). */
  maxAttempts: number;
  /** The wait before try `attempts + 1`, after `attempts` failed tries. */
  retryDelayMs: (attempts: number) => number;
  /** Far longer than one run can take: a live process never loses its job to another. */
  leaseMs: number;
  /** At most this many of the kind's jobs run at once across every process; unset: no cap. */
  concurrency?: number | undefined;
  /**
   * A lane starts one of the kind's jobs at most once in this many ms: background work whose every job
   * costs the server's own thread a fixed share (the embedded database's bookkeeping) takes at most that
   * share per second, however fast the jobs themselves end. Unset: back to back.
   */
  spacingMs?: number | undefined;
  /** `now`: the clock the job was claimed by (the worker's, or a test's). */
  run: (payload: P, job: JobRow, now: Date) => Promise<void>;
}

const log = logger.child({ module: 'jobs' });
const kinds = new Map<string, JobKind>();
/** The numbers of the advisory lock each capped kind's claims take (namespace 'agjb'). */
const LOCK_NAMESPACE = 0x61676a62;

/** A retry delay that doubles from `firstMs` with each failed attempt, at most `capMs`. */
export const doublingDelay =
  (firstMs: number, capMs = Number.POSITIVE_INFINITY) =>
  (attempts: number): number =>
    Math.min(capMs, firstMs * 2 ** (attempts - 1));

/** Declares a kind of job and how it runs; done once per kind when its module loads. */
export function defineJobKind<P extends Record<string, unknown>>(kind: string, definition: JobKind<P>): void {
  kinds.set(kind, definition as unknown as JobKind);
}

/**
 * Adds a job in the caller's transaction; the worker takes it at `runAt` (default: now). With `ifAbsent`, a
 * job of the same id (done or not) leaves it as it is: a scheduled job (one per day) is queued once, however
 * many processes ask.
 */
export async function enqueueJob(tx: Executor, job: { kind: string; payload: Record<string, unknown>; id?: string; runAt?: Date; ifAbsent?: boolean }): Promise<string> {
  const definition = kinds.get(job.kind);
  if (!definition) throw new Error(`Unknown job kind: ${job.kind}`);
  const id = job.id ?? crypto.randomUUID();
  const insert = tx.insert(jobs).values({ id, kind: job.kind, payload: job.payload, maxAttempts: definition.maxAttempts, ...(job.runAt ? { runAt: job.runAt } : {}) });
  await (job.ifAbsent ? insert.onConflictDoNothing() : insert);
  scheduleSoon();
  return id;
}

/**
 * Many jobs of one kind, due at `runAt`, as one SQL statement for the caller's own (a data-modifying `with`
 * that inserts what the jobs are about): `rows` selects `(id, payload)` pairs. A job of the same id stays as
 * it is (enqueueJob's `ifAbsent`). Call jobsQueued() once the caller's statement has run.
 */
export function insertJobsFrom(kind: string, rows: SQL, runAt: Date): SQL {
  const definition = kinds.get(kind);
  if (!definition) throw new Error(`Unknown job kind: ${kind}`);
  return sql`insert into ${jobs} (id, kind, payload, max_attempts, run_at)
    select r.id, ${kind}, r.payload, ${definition.maxAttempts}::int, ${runAt}::timestamptz from (${rows}) as r (id, payload)
    on conflict (id) do nothing`;
}

/** Tells this process's worker that jobs were queued (enqueueJob does it itself). */
export const jobsQueued = () => scheduleSoon();

/** A stable small number per kind for its advisory lock. */
function lockIdOf(kind: string): number {
  let h = 0;
  for (const c of kind) h = (Math.imul(h, 31) + c.charCodeAt(0)) | 0;
  return h;
}

const isDue = (now: Date) =>
  and(isNull(jobs.finishedAt), lte(jobs.runAt, now), sql`${jobs.attempts} < ${jobs.maxAttempts}`, or(isNull(jobs.runningUntil), lte(jobs.runningUntil, now)));

/**
 * Takes the next due job of `kind` for this process, or undefined when none is due or the kind runs as
 * many as it may.
 */
async function claimNext(database: Database, kind: string, definition: JobKind, now: Date): Promise<JobRow | undefined> {
  return database.transaction(async (tx) => {
    if (definition.concurrency !== undefined) {
      await tx.execute(sql`select pg_advisory_xact_lock(${LOCK_NAMESPACE}, ${lockIdOf(kind)})`);
      const [running] = await tx
        .select({ n: sql<number>`count(*)`.mapWith(Number) })
        .from(jobs)
        .where(and(eq(jobs.kind, kind), isNull(jobs.finishedAt), gt(jobs.runningUntil, now)));
      if ((running?.n ?? 0) >= definition.concurrency) return undefined;
    }
    const [due] = await tx
      .select({ id: jobs.id })
      .from(jobs)
      .where(and(eq(jobs.kind, kind), isDue(now)))
      .orderBy(asc(jobs.runAt))
      .limit(1)
      .for('update', { skipLocked: true });
    if (!due) return undefined;
    const [claimed] = await tx
      .update(jobs)
      .set({ attempts: sql`${jobs.attempts} + 1`, runningUntil: new Date(now.getTime() + definition.leaseMs) })
      .where(eq(jobs.id, due.id))
      .returning();
    return claimed;
  });
}

async function finish(database: Database, job: JobRow, now: () => Date): Promise<void> {
  await database.update(jobs).set({ finishedAt: now(), runningUntil: null, lastError: null }).where(eq(jobs.id, job.id));
}

async function fail(database: Database, job: JobRow, definition: JobKind, err: unknown, now: () => Date): Promise<void> {
  const message = err instanceof Error ? err.message : String(err);
  const givenUp = job.attempts >= job.maxAttempts;
  await database
    .update(jobs)
    .set({ lastError: message.slice(0, 1000), runningUntil: null, runAt: new Date(now().getTime() + definition.retryDelayMs(job.attempts)) })
    .where(eq(jobs.id, job.id));
  log[givenUp ? 'error' : 'warn']({ id: job.id, kind: job.kind, attempts: job.attempts, err: message }, givenUp ? 'job given up after every try; it stays in jobs' : 'job failed; will try again');
}

export interface RunDueOptions {
  /** Only these kinds (default: every defined kind). */
  kinds?: readonly string[];
  /** Jobs taken per kind in this pass at most. */
  batch?: number;
  /** The clock (tests). */
  now?: () => Date;
  database?: Database;
}

/** Claims and runs jobs of one kind one after the other until none is due for it or `batch` were taken. */
async function runLane(database: Database, kind: string, definition: JobKind, batch: number, now: () => Date): Promise<number> {
  let finished = 0;
  let startedAt: number | undefined;
  for (let i = 0; i < batch; i++) {
    if (definition.spacingMs && startedAt !== undefined) await sleep(Math.max(0, startedAt + definition.spacingMs - performance.now()));
    const job = await claimNext(database, kind, definition, now());
    if (!job) break;
    startedAt = performance.now();
    try {
      await definition.run(job.payload, job, now());
      await finish(database, job, now);
      finished++;
    } catch (err) {
      await fail(database, job, definition, err, now);
    }
  }
  return finished;
}

/**
 * Runs due jobs of one kind under `definition` (a kind's own definition, or a test's with a stand-in
 * service), in as many lanes as its cap. Returns how many finished.
 */
export async function runDueJobsOf<P extends Record<string, unknown>>(kind: string, definition: JobKind<P>, options: Omit<RunDueOptions, 'kinds'> = {}): Promise<number> {
  const database = options.database ?? db();
  const now = options.now ?? (() => new Date());
  // A job's payload is what its kind wrote (enqueueJob): read back as that kind's.
  const any = definition as unknown as JobKind;
  const lanes = Array.from({ length: definition.concurrency ?? 1 }, () => runLane(database, kind, any, options.batch ?? 20, now));
  return (await Promise.all(lanes)).reduce((a, b) => a + b, 0);
}

/**
 * Runs due jobs this process claims: per kind as many lanes side by side as the kind's cap (one when
 * uncapped), each taking jobs one after the other. Returns how many finished. Several processes may run
 * this at once: each job is claimed by one, and a capped kind never runs more than its cap in all.
 */
export async function runDueJobs(options: RunDueOptions = {}): Promise<number> {
  const names = (options.kinds ?? [...kinds.keys()]).filter((kind) => kinds.has(kind));
  const done = await Promise.all(names.map((kind) => runDueJobsOf(kind, kinds.get(kind)!, options)));
  return done.reduce((a, b) => a + b, 0);
}

// The worker: a pass per kind soon after one of its jobs is queued, and one every POLL_MS for retries and
// other processes' jobs. Kinds pass independently, so a minute-long audit never holds up the mail.
const POLL_MS = 15_000;
interface KindPass {
  running?: Promise<void> | undefined;
  /** A job was queued during the pass and may have missed it: one more pass follows. */
  again?: boolean;
}
const state = globalThis as unknown as { __jobWorker?: { timer?: NodeJS.Timeout; soon?: NodeJS.Timeout; passes: Map<string, KindPass> } };

function passOf(kind: string) {
  const worker = state.__jobWorker;
  if (!worker) return;
  let pass = worker.passes.get(kind);
  if (!pass) worker.passes.set(kind, (pass = {}));
  if (pass.running) {
    pass.again = true;
    return;
  }
  const current = pass;
  current.running = runInBackground(() => runDueJobs({ kinds: [kind] }))
    .then(() => undefined)
    .catch((err: unknown) => log.error({ err, kind }, 'job worker pass failed'))
    .finally(() => {
      current.running = undefined;
      if (current.again && state.__jobWorker === worker) {
        current.again = false;
        passOf(kind);
      }
    });
}

function runOnce() {
  for (const kind of kinds.keys()) passOf(kind);
}

function scheduleSoon() {
  const worker = state.__jobWorker;
  if (!worker?.timer || worker.soon) return; // not started (tests, CLI): the caller runs jobs or the server will
  worker.soon = setTimeout(() => {
    worker.soon = undefined;
    runOnce();
  }, 50);
  worker.soon.unref();
}

/** Started once by the server's start-up, after every kind is defined. */
export function startJobWorker(): void {
  if (state.__jobWorker?.timer) return;
  const worker = (state.__jobWorker = { passes: new Map() as Map<string, KindPass> }) as NonNullable<typeof state.__jobWorker>;
  worker.timer = setInterval(runOnce, POLL_MS);
  worker.timer.unref();
  runOnce();
}

/** Stops taking jobs; resolves once the passes under way have ended (their jobs finished or failed). */
export async function stopJobWorker(): Promise<void> {
  const worker = state.__jobWorker;
  if (!worker) return;
  if (worker.timer) clearInterval(worker.timer);
  if (worker.soon) clearTimeout(worker.soon);
  state.__jobWorker = undefined;
  await Promise.all([...worker.passes.values()].map((p) => p.running));
}
