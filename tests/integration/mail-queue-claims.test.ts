/**
 * The mail queue with several server processes on one database (issue 19): each process runs the worker,
 * and each message goes out once. On PostgreSQL the "processes" here are separate connection pools on one
 * database, as two instances are; on PGlite (single-process) the same tests hold trivially.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { db } from '../../src/server/db';
import type { Database, DatabaseHandle } from '../../src/server/db/client';
import { jobs, mailQueue } from '../../src/server/db/schema';
import type { Mailer } from '../../src/server/mail';
import { enqueueMail, LEASE_MS, sendDueMail } from '../../src/server/mail/queue';
import { twoInstances } from '../support/db';

let handle: DatabaseHandle;
/** The second instance's own pool on the same database (PostgreSQL); the same handle on PGlite. */
let otherDb: Database;
let closeAll: () => Promise<void>;

beforeAll(async () => {
  ({ handle, otherDb, close: closeAll } = await twoInstances());
});
afterAll(() => closeAll());

/** A mailer that counts what it was asked to send and takes a little while, as SMTP does. */
function countingMailer(delayMs = 5) {
  const sent: string[] = [];
  const mailer: Mailer = {
    mode: 'smtp',
    async send(message) {
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      sent.push(message.to);
    },
  };
  return { mailer, sent };
}

async function queue(count: number) {
  await db().transaction(async (tx) => {
    for (let i = 0; i < count; i++) await enqueueMail(tx, { kind: 'audit-confirmation', to: `visitor${i}@example.com`, subject: 'We got your request', text: 'x' });
  });
}

beforeEach(async () => {
  await db().delete(mailQueue);
  await db().delete(jobs);
});

describe('the mail queue on several processes', () => {
  it('two instances sending at once send every message exactly once', async () => {
    await queue(30);
    const { mailer, sent } = countingMailer();
    // Both workers pass over the queue until it is empty, at the same time, as two instances' timers do.
    const drain = async (database: Database) => {
      while ((await sendDueMail(mailer, new Date(), database)) > 0);
    };
    await Promise.all([drain(handle.db), drain(otherDb), drain(handle.db), drain(otherDb)]);
    expect(sent).toHaveLength(30);
    expect(new Set(sent).size).toBe(30);
    const rows = await db().select().from(mailQueue);
    expect(rows.every((r) => r.sentAt !== null && r.attempts === 1)).toBe(true);
  });

  it('a message whose sender died mid-send is sent by another instance once its lease ends, not before', async () => {
    await queue(1);
    const t0 = new Date();
    // The first instance claims the message and never finishes (killed while talking to the SMTP server).
    const dying: Mailer = { mode: 'smtp', send: () => new Promise<void>(() => {}) };
    void sendDueMail(dying, t0, handle.db);
    await expect.poll(async () => (await db().select().from(mailQueue))[0]!.attempts).toBe(1);

    const { mailer, sent } = countingMailer();
    expect(await sendDueMail(mailer, new Date(t0.getTime() + 60_000), otherDb)).toBe(0);
    expect(await sendDueMail(mailer, new Date(t0.getTime() + LEASE_MS - 1000), otherDb)).toBe(0);
    expect(await sendDueMail(mailer, new Date(t0.getTime() + LEASE_MS), otherDb)).toBe(1);
    expect(sent).toEqual(['visitor0@example.com']);
    const [row] = await db().select().from(mailQueue);
    expect(row).toMatchObject({ attempts: 2 });
    expect(row!.sentAt).not.toBeNull();
  });
});
