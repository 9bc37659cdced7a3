/**
 * Mail that must not be lost. enqueueMail writes the message in the caller's transaction (so it exists
 * exactly when what it is about exists); the worker sends due messages and, when sending fails, tries again
 * later with a growing wait (30 s, 1 min, 2 min … up to 1 h), for up to two days. A message that still
 * cannot be sent stays in the table with its last error (and is logged), never silently dropped.
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

/** Sends every due message once; returns how many were sent. */
export async function sendDueMail(mailer: Mailer = getMailer(), now = new Date()): Promise<number> {
  const due = await db()
    .select()
    .from(mailQueue)
    .where(and(isNull(mailQueue.sentAt), lte(mailQueue.nextAttemptAt, now), sql`${mailQueue.attempts} < ${MAX_ATTEMPTS}`))
    .orderBy(asc(mailQueue.nextAttemptAt))
    .limit(BATCH);
  let sent = 0;
  for (const mail of due) {
    try {
      await mailer.send({ to: mail.to, subject: mail.subject, text: mail.text, html: mail.html || mail.text });
      await db().update(mailQueue).set({ sentAt: new Date(), attempts: mail.attempts + 1, lastError: null }).where(eq(mailQueue.id, mail.id));
      sent++;
    } catch (err) {
      const attempts = mail.attempts + 1;
      const message = err instanceof Error ? err.message : String(err);
      await db()
        .update(mailQueue)
        .set({ attempts, lastError: message.slice(0, 1000), nextAttemptAt: new Date(now.getTime() + retryDelayMs(attempts)) })
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
