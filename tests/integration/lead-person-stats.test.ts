/**
 * The leads list's per-person summary (lead_person_stats, decision 050) is kept by triggers on lead_events,
 * on both engines: after inserts (one, many, a bulk SQL insert), an account deleted (its events' user_id set
 * null), deletes and a truncate, it equals what the events themselves add up to, counted here in JavaScript
 * from the plain rows; and writers of one person in parallel transactions (two connection pools on
 * PostgreSQL) lose none of each other's events.
 */
import { eq, inArray, sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Database, type DatabaseHandle } from '../../src/server/db/client';
import { leadEvents, leadPersonStats, users } from '../../src/server/db/schema';
import { freshDatabase, onPostgres, postgresUrlOf } from '../support/db';

let handle: DatabaseHandle;
beforeEach(async () => {
  handle = await freshDatabase();
});
afterEach(() => handle.close());

const KINDS = ['audit-request', 'chat-lead', 'sign-up', 'book-call', 'call-booked', 'report-opened'] as const;
type Kind = (typeof KINDS)[number];
const COLUMN = { 'audit-request': 'audits', 'chat-lead': 'chats', 'sign-up': 'signUps', 'book-call': 'bookCalls', 'call-booked': 'callsBooked', 'report-opened': 'reportsOpened' } as const satisfies Record<Kind, string>;
type Summary = Omit<typeof leadPersonStats.$inferSelect, 'names'> & { names: string[] };
const bySummaryKey = (a: Summary, b: Summary) => `${a.email}|${a.userKey}`.localeCompare(`${b.email}|${b.userKey}`);

/** What the summary must hold, from the events alone. */
async function expected(db: Database): Promise<Summary[]> {
  const out = new Map<string, Summary>();
  for (const e of (await db.select().from(leadEvents)).filter((r) => r.email !== '')) {
    const key = `${e.email.toLowerCase()}|${e.userId ?? ''}`;
    const s = out.get(key) ?? { email: e.email.toLowerCase(), userKey: e.userId ?? '', firstAt: e.at, lastAt: e.at, total: 0, audits: 0, chats: 0, signUps: 0, bookCalls: 0, callsBooked: 0, reportsOpened: 0, names: [] };
    if (e.at < s.firstAt) s.firstAt = e.at;
    if (e.at > s.lastAt) s.lastAt = e.at;
    s.total++;
    s[COLUMN[e.kind as Kind]]++;
    if (e.name && !s.names.includes(e.name)) s.names.push(e.name);
    out.set(key, s);
  }
  return [...out.values()].map((s) => ({ ...s, names: s.names.sort() })).sort(bySummaryKey);
}

async function actual(db: Database): Promise<Summary[]> {
  const rows = await db.select().from(leadPersonStats);
  return rows.map((r) => ({ ...r, names: r.names === '' ? [] : r.names.split('\n').sort() })).sort(bySummaryKey);
}

const event = (n: number, over: Partial<typeof leadEvents.$inferInsert> = {}) => ({
  id: `e-${n}-${Math.random().toString(36).slice(2)}`,
  kind: KINDS[n % KINDS.length]! as string,
  email: n % 3 === 0 ? `Person${n % 7}@Example.com` : `person${n % 7}@example.com`,
  name: n % 4 === 0 ? '' : `Name ${n % 5}`,
  at: new Date(Date.UTC(2026, 10, 1) + n * 3_600_000),
  ...over,
});

describe('the per-person summary', () => {
  it('follows every write to lead_events', async () => {
    const db = handle.db;
    await db.insert(users).values([
      { id: 'u1', email: 'person1@example.com', name: 'One', emailVerified: true },
      { id: 'u2', email: 'other@example.com', name: 'Two', emailVerified: true },
    ]);
    // One at a time, a batch, events of two accounts, and an anonymous click without an email.
    for (let n = 0; n < 5; n++) await db.insert(leadEvents).values(event(n));
    await db.insert(leadEvents).values(Array.from({ length: 40 }, (_, i) => event(i + 5, i % 5 === 0 ? { userId: 'u1' } : i % 7 === 0 ? { userId: 'u2' } : {})));
    await db.insert(leadEvents).values({ id: 'anon', kind: 'book-call', email: '' });
    // A bulk insert in SQL, as a restore or the bench's seed writes.
    await db.execute(sql`insert into lead_events (id, kind, email, name, at) select 'bulk-' || g, 'chat-lead', 'bulk' || (g % 4) || '@example.com', 'Bulk ' || g, now() - g * interval '1 minute' from generate_series(1, 200) g`);
    expect(await actual(db)).toEqual(await expected(db));
    expect((await actual(db)).some((r) => r.email === '')).toBe(false);

    // An account deleted: its events keep the email, lose the account.
    await db.delete(users).where(eq(users.id, 'u1'));
    expect(await actual(db)).toEqual(await expected(db));
    // Events deleted: counts drop, a person with none left is gone.
    const some = (await db.select({ id: leadEvents.id }).from(leadEvents).limit(30)).map((r) => r.id);
    await db.delete(leadEvents).where(inArray(leadEvents.id, some));
    await db.delete(leadEvents).where(eq(leadEvents.email, 'bulk1@example.com'));
    expect(await actual(db)).toEqual(await expected(db));
    expect((await actual(db)).some((r) => r.email === 'bulk1@example.com')).toBe(false);
    // An event moved to another person (an email corrected).
    await db.update(leadEvents).set({ email: 'moved@example.com', name: 'Moved' }).where(eq(leadEvents.email, 'bulk2@example.com'));
    expect(await actual(db)).toEqual(await expected(db));
    await db.execute(sql`truncate lead_events`);
    expect(await actual(db)).toEqual([]);
  });

  it('writers of the same person in parallel transactions lose none of each other’s events', async () => {
    const other = onPostgres ? await openDatabase({ kind: 'postgres', url: await postgresUrlOf(handle) }) : undefined;
    try {
      const dbs = [handle.db, other?.db ?? handle.db];
      await Promise.all(
        Array.from({ length: 40 }, (_, n) =>
          dbs[n % 2]!.transaction(async (tx) => {
            await tx.insert(leadEvents).values(event(n, { email: 'same@example.com', kind: 'chat-lead' }));
            // Held open a moment, so the other pool's transactions overlap this one.
            await tx.execute(sql`select pg_sleep(0.005)`);
          }),
        ),
      );
      const [row] = await handle.db.select().from(leadPersonStats).where(eq(leadPersonStats.email, 'same@example.com'));
      expect(row).toMatchObject({ total: 40, chats: 40 });
      expect(await actual(handle.db)).toEqual(await expected(handle.db));
    } finally {
      await other?.close();
    }
  });
});
