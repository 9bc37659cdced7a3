/**
 * Mail that must not be lost. enqueueMail writes the message (mail_queue, the record the lead's timeline
 * shows) and its 'mail' job (the one job queue, src/server/jobs/queue.ts) in the caller's transaction, so
 * both exist exactly when what it is about exists. The job sends the message and, when sending fails, is
 * tried again later with a growing wait (30 s, 1 min, 2 min … up to 1 h), for up to two days. A message
 * that still cannot be sent stays in the table with its last error (and is logged), never silently dropped.
 */
import { and, eq, gt, inArray, sql } from 'drizzle-orm';
import { db } from '../db';
import type { Database } from '../db/client';
import { mailQueue } from '../db/schema';
import { defineJobKind, enqueueJob, runDueJobsOf, type JobKind } from '../jobs/queue';
import { getMailer, type Mailer } from './index';

type Executor = Pick<Database, 'insert'>;

export interface QueuedMail {
  /** What it is about, for the logs ('audit-confirmation', 'audit-notification', 'chat-lead' …). */
  kind: string;
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** Where replies go (an admin writing to a lead); the site's From otherwise. */
  replyTo?: string;
  /** Extra headers (a sequence mail's List-Unsubscribe and List-Unsubscribe-Post). */
  headers?: Record<string, string>;
  /** The message's id, when the caller records it beside (a sequence step's send). */
  id?: string;
  /** When it was queued, when the caller's clock says (a sequence step's); the database's otherwise. */
  at?: Date;
}

const FIRST_RETRY_MS = 30_000;
const LONGEST_WAIT_MS = 60 * 60_000;
/** 30 s doubling to 1 h, then hourly: about two days of tries. */
export const MAX_ATTEMPTS = 55;

export function retryDelayMs(attempts: number): number {
  return Math.min(LONGEST_WAIT_MS, FIRST_RETRY_MS * 2 ** Math.max(0, attempts - 1));
}

/**
 * How long a claimed message belongs to the process that claimed it: far longer than a send can take (the
 * SMTP transport gives up within about a minute), so two live processes never send one message; a process
 * killed mid-send leaves the message to be tried again once the lease runs out.
 */
export const LEASE_MS = 5 * 60_000;

/**
 * Sending one message. It is marked sent after the mailer accepted it, so a process killed between the
 * two sends it again after the lease (at least once, never lost). Every try and its failure are written on
 * the message too, for its timeline.
 */
function mailJob(mailer: () => Mailer, database: () => Database): JobKind<{ mailId: string }> {
  return {
    maxAttempts: MAX_ATTEMPTS,
    retryDelayMs,
    leaseMs: LEASE_MS,
    async run({ mailId }) {
      const [mail] = await database()
        .update(mailQueue)
        .set({ attempts: sql`${mailQueue.attempts} + 1` })
        .where(eq(mailQueue.id, mailId))
        .returning();
      if (!mail || mail.sentAt) return; // deleted, or sent by a try whose finish was lost
      try {
        await mailer().send({
          to: mail.to,
          subject: mail.subject,
          text: mail.text,
          html: mail.html || mail.text,
          ...(mail.replyTo ? { replyTo: mail.replyTo } : {}),
          ...(Object.keys(mail.headers).length ? { headers: mail.headers } : {}),
        });
      } catch (err) {
        const message = err instanceof Error ? err.message : String(err);
        await database().update(mailQueue).set({ lastError: message.slice(0, 1000) }).where(eq(mailQueue.id, mailId));
        throw err;
      }
      await database().update(mailQueue).set({ sentAt: new Date(), lastError: null }).where(eq(mailQueue.id, mailId));
    },
  };
}

defineJobKind('mail', mailJob(getMailer, db));

export async function enqueueMail(tx: Executor, mail: QueuedMail): Promise<void> {
  const id = mail.id ?? crypto.randomUUID();
  await tx.insert(mailQueue).values({ id, kind: mail.kind, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html ?? '', replyTo: mail.replyTo ?? '', headers: mail.headers ?? {}, ...(mail.at ? { createdAt: mail.at } : {}) });
  await enqueueJob(tx, { kind: 'mail', payload: { mailId: id }, id: `mail-${id}` });
}

/** When the messages of `kinds` to `address` (any case) queued after `since` were queued: what the mail caps count. */
export async function queuedMailTimes(address: string, kinds: readonly string[], since: Date, ex: Pick<Database, 'select'>): Promise<Date[]> {
  const rows = await ex
    .select({ at: mailQueue.createdAt })
    .from(mailQueue)
    .where(and(sql`lower(${mailQueue.to}) = ${address.toLowerCase()}`, gt(mailQueue.createdAt, since), inArray(mailQueue.kind, [...kinds])));
  return rows.map((r) => r.at);
}

/**
 * Sends due messages (up to a batch) that this process claims, through `mailer`; returns how many were
 * sent. The worker does this on its own; tests and scripts call it with their mailer and clock.
 */
export function sendDueMail(mailer: Mailer = getMailer(), now = new Date(), database: Database = db()): Promise<number> {
  return runDueJobsOf('mail', mailJob(() => mailer, () => database), { now: () => now, database });
}
