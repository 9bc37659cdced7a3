/**
 * Mail that must not be lost. enqueueMail writes the message in the caller's transaction (so it exists
 * exactly when what it is about exists); the worker sends due messages and, when sending fails, tries again
 * later with a growing wait (30 s, 1 min, 2 min … up to 1 h), for up to two days. A message that still
 * cannot be sent stays in the table with its last error (and is logged), never silently dropped.
 * Every server process runs the worker; each due message is claimed by one of them (claimNext).
 */
import { and, asc, eq, isNull, lte, sql } from 'drizzle-orm';
import { db } from '../db';
import type { Database } from '../db/client';
import { mailQueue } from '../db/schema';
import { logger } from '../logger';
import { getMailer, type Mailer } from './index';

type Executor = Pick<Database, 'insert'>;

export interface QueuedMail {
  /** What it is about, for the logs ('audit-confirmation', 'audit-notification', 'chat-lead' …). */
  kind: string;
  to: string;
  subject: string;
  text: string;
  html?: string;
}

const log = logger.child({ module: 'mail-queue' });
const BATCH = 20;
const FIRST_RETRY_MS = 30_000;
const LONGEST_WAIT_MS = 60 * 60_000;
/** 30 s doubling to 1 h, then hourly: about two days of tries. */
export const MAX_ATTEMPTS = 55;

export function retryDelayMs(attempts: number): number {
  return Math.min(LONGEST_WAIT_MS, FIRST_RETRY_MS * 2 ** Math.max(0, attempts - 1));
}

export async function enqueueMail(tx: Executor, mail: QueuedMail): Promise<void> {
  await tx.insert(mailQueue).values({ id: crypto.randomUUID(), kind: mail.kind, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html ?? '' });
  scheduleSoon();
}

/**
 * How long a claimed message belongs to the process that claimed it: far longer than a send can take (the
 * SMTP transport gives up within about a minute), so two live processes never send one message; a process
 * killed mid-send leaves the message to be tried again once the lease runs out.
 */
export const LEASE_MS = 5 * 60_000;

/**
 * Takes the next due message for this process, in a short transaction of its own: the row is locked
 * (`FOR UPDATE SKIP LOCKED`: another process's claim skips it rather than waits), its attempt counted and
 * its next attempt pushed out by the lease, so it is no longer due for anyone else.
 */
async function claimNext(database: Database, now: Date): Promise<typeof mailQueue.$inferSelect | undefined> {
  return database.transaction(async (tx) => {
    const [due] = await tx
      .select({ id: mailQueue.id })
      .from(mailQueue)
      .where(and(isNull(mailQueue.sentAt), lte(mailQueue.nextAttemptAt, now), sql`${mailQueue.attempts} < ${MAX_ATTEMPTS}`))
      .orderBy(asc(mailQueue.nextAttemptAt))
      .limit(1)
      .for('update', { skipLocked: true });
    if (!due) return undefined;
    const [claimed] = await tx
      .update(mailQueue)
      .set({ attempts: sql`${mailQueue.attempts} + 1`, nextAttemptAt: new Date(now.getTime() + LEASE_MS) })
      .where(eq(mailQueue.id, due.id))
      .returning();
    return claimed;
  });
}

/**
 * Sends due messages (up to a batch) that this process claims; returns how many were sent. Several
 * processes may run this at once: each message is claimed by one. A message is marked sent after the
 * mailer accepted it, so a process killed between the two sends it again after the lease (at least once,
 * never lost).
 */
export async function sendDueMail(mailer: Mailer = getMailer(), now = new Date(), database: Database = db()): Promise<number> {
  let sent = 0;
  for (let i = 0; i < BATCH; i++) {
    const mail = await claimNext(database, now);
    if (!mail) break;
    try {
      await mailer.send({ to: mail.to, subject: mail.subject, text: mail.text, html: mail.html || mail.text });
      await database.update(mailQueue).set({ sentAt: new Date(), lastError: null }).where(eq(mailQueue.id, mail.id));
      sent++;
    } catch (err) {
      const attempts = mail.attempts;
      const message = err instanceof Error ? err.message : String(err);
      await database
        .update(mailQueue)
        .set({ lastError: message.slice(0, 1000), nextAttemptAt: new Date(now.getTime() + retryDelayMs(attempts)) })
        .where(eq(mailQueue.id, mail.id));
      const level = attempts >= MAX_ATTEMPTS ? 'error' : 'warn';
      log[level]({ id: mail.id, kind: mail.kind, attempts, err: message }, attempts >= MAX_ATTEMPTS ? 'mail given up after every retry; it stays in mail_queue' : 'mail not sent; will retry');
    }
  }
  return sent;
}

// The worker: one pass soon after a message is queued, and one every POLL_MS for retries.
const POLL_MS = 15_000;
const state = globalThis as unknown as { __mailWorker?: { timer?: NodeJS.Timeout; soon?: NodeJS.Timeout; running?: Promise<void> } };

function runOnce() {
  const worker = (state.__mailWorker ??= {});
  if (worker.running) return;
  worker.running = sendDueMail()
    .then(() => undefined)
    .catch((err: unknown) => log.error({ err }, 'mail worker pass failed'))
    .finally(() => {
      worker.running = undefined;
    });
}

function scheduleSoon() {
  const worker = state.__mailWorker;
  if (!worker?.timer || worker.soon) return; // not started (tests, CLI): the caller sends or the server will
  worker.soon = setTimeout(() => {
    worker.soon = undefined;
    runOnce();
  }, 50);
  worker.soon.unref();
}

/** Started once by the server's start-up. */
export function startMailWorker(): void {
  const worker = (state.__mailWorker ??= {});
  if (worker.timer) return;
  worker.timer = setInterval(runOnce, POLL_MS);
  worker.timer.unref();
  runOnce();
}

export function stopMailWorker(): void {
  const worker = state.__mailWorker;
  if (worker?.timer) clearInterval(worker.timer);
  if (worker?.soon) clearTimeout(worker.soon);
  state.__mailWorker = undefined;
}
