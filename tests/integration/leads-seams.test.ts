/**
 * The two seams the lead forms and the chat stand on: database-counted rate limits (fixed window, atomic,
 * a retry time when refused) and the mail queue (a message queued in a transaction exists exactly when the
 * transaction commits; a failed send is retried later with a growing wait, never dropped).
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { db } from '../../src/server/db';
import type { DatabaseHandle } from '../../src/server/db/client';
import { jobs, mailQueue, rateLimits } from '../../src/server/db/schema';
import { enqueueMail, MAX_ATTEMPTS, retryDelayMs, sendDueMail } from '../../src/server/mail/queue';
import type { Mailer } from '../../src/server/mail';
import { consumeRateLimit } from '../../src/server/modules/rate-limit/service';
import { freshDatabase } from '../support/db';

let handle: DatabaseHandle;
beforeAll(async () => {
  handle = await freshDatabase();
});
afterAll(async () => {
  await handle.close();
});

describe('consumeRateLimit', () => {
  const rule = { max: 3, windowSeconds: 60 };

  it('allows max requests in a window, then refuses with the seconds until the window ends', async () => {
    const t0 = 1_800_000_000_000;
    expect(await consumeRateLimit('audit:203.0.113.7', rule, t0)).toEqual({ ok: true, remaining: 2 });
    expect(await consumeRateLimit('audit:203.0.113.7', rule, t0 + 1000)).toEqual({ ok: true, remaining: 1 });
    expect(await consumeRateLimit('audit:203.0.113.7', rule, t0 + 2000)).toEqual({ ok: true, remaining: 0 });
    expect(await consumeRateLimit('audit:203.0.113.7', rule, t0 + 20_500)).toEqual({ ok: false, retryAfterSeconds: 40 });
    // Another client, and the same client for another purpose, have their own counts.
    expect((await consumeRateLimit('audit:203.0.113.8', rule, t0 + 3000)).ok).toBe(true);
    expect((await consumeRateLimit('chat:203.0.113.7', rule, t0 + 3000)).ok).toBe(true);
    // A new window starts once the old one has passed.
    expect(await consumeRateLimit('audit:203.0.113.7', rule, t0 + 60_000)).toEqual({ ok: true, remaining: 2 });
  });

  it('lets exactly max of many simultaneous requests through', async () => {
    const t0 = 1_800_100_000_000;
    const answers = await Promise.all(Array.from({ length: 12 }, () => consumeRateLimit('burst:198.51.100.1', rule, t0)));
    expect(answers.filter((a) => a.ok)).toHaveLength(3);
  });

  it('keeps its rows apart from better-auth’s keys', async () => {
    const rows = await db().select({ key: rateLimits.key }).from(rateLimits);
    expect(rows.every((r) => r.key.startsWith('app:'))).toBe(true);
  });
});

describe('the mail queue', () => {
  const sent: string[] = [];
  let failing = false;
  const mailer: Mailer = {
    mode: 'outbox',
    async send(message) {
      if (failing) throw new Error('connect ECONNREFUSED 127.0.0.1:25');
      sent.push(`${message.to}: ${message.subject}`);
    },
  };
  beforeEach(async () => {
    sent.length = 0;
    failing = false;
    await db().delete(mailQueue);
    await db().delete(jobs);
  });

  it('holds a message only when its transaction commits', async () => {
    await db()
      .transaction(async (tx) => {
        await enqueueMail(tx, { kind: 'audit-confirmation', to: 'lost@example.com', subject: 'Never sent', text: 'x' });
        throw new Error('the request failed to save');
      })
      .catch(() => undefined);
    await db().transaction((tx) => enqueueMail(tx, { kind: 'audit-confirmation', to: 'ana@example.com', subject: 'We got your request', text: 'Thanks' }));
    expect(await sendDueMail(mailer)).toBe(1);
    expect(sent).toEqual(['ana@example.com: We got your request']);
    expect(await sendDueMail(mailer)).toBe(0); // sent once, not again
  });

  it('retries a failed send later with a growing wait, and sends it once the server is back', async () => {
    await db().transaction((tx) => enqueueMail(tx, { kind: 'audit-notification', to: 'owner@example.com', subject: 'New audit request', text: 'x' }));
    failing = true;
    const t0 = new Date();
    expect(await sendDueMail(mailer, t0)).toBe(0);
    let [row] = await db().select().from(mailQueue);
    expect(row).toMatchObject({ attempts: 1, lastError: 'connect ECONNREFUSED 127.0.0.1:25', sentAt: null });
    const [job] = await db().select().from(jobs);
    expect(job!.runAt.getTime()).toBe(t0.getTime() + 30_000);
    // Not due yet: nothing is tried.
    expect(await sendDueMail(mailer, new Date(t0.getTime() + 10_000))).toBe(0);
    expect((await db().select().from(mailQueue))[0]!.attempts).toBe(1);
    failing = false;
    expect(await sendDueMail(mailer, new Date(t0.getTime() + 30_000))).toBe(1);
    [row] = await db().select().from(mailQueue).where(eq(mailQueue.to, 'owner@example.com'));
    expect(row!.sentAt).not.toBeNull();
    expect(sent).toEqual(['owner@example.com: New audit request']);
  });

  it('waits 30 s, then twice as long each time, at most an hour, for about two days', () => {
    expect([1, 2, 3, 4].map(retryDelayMs)).toEqual([30_000, 60_000, 120_000, 240_000]);
    expect(retryDelayMs(20)).toBe(3_600_000);
    const total = Array.from({ length: MAX_ATTEMPTS }, (_, i) => retryDelayMs(i + 1)).reduce((a, b) => a + b, 0);
    expect(total / 3_600_000).toBeGreaterThan(40);
    expect(total / 3_600_000).toBeLessThan(60);
  });
});
