/**
 * Members' page-time records (page_times): data access only. Every read is one member's rows, through
 * page_times_user_at_idx (user_id, at), paginated (by keyset, never OFFSET); the count and the per-path totals come
 * from page_time_totals (one row per path, kept by triggers): a member with years of records costs an index
 * range or a few hundred rows, never a table scan or a list in memory.
 */
import { and, asc, desc, eq, gt, lt, or, sql } from 'drizzle-orm';
import { db } from '../../db';
import type { Database } from '../../db/client';
import { pageTimes, pageTimeTotals } from '../../db/schema';

type Writer = Pick<Database, 'insert'>;
type Reader = Pick<Database, 'select'>;

export interface NewPageTime {
  userId: string;
  pagePath: string;
  durationMs: number;
  at: Date;
  sessionId: string;
}

export async function insertPageTime(row: NewPageTime, ex: Writer = db()): Promise<void> {
  await ex.insert(pageTimes).values({ id: crypto.randomUUID(), ...row });
}

export interface PageTimeRow {
  id: string;
  pagePath: string;
  durationMs: number;
  at: Date;
  sessionId: string;
}

const rowColumns = { id: pageTimes.id, pagePath: pageTimes.pagePath, durationMs: pageTimes.durationMs, at: pageTimes.at, sessionId: pageTimes.sessionId };

/**
 * A page of a member's records in the timeline's order, newest first by (at desc, id desc): the first
 * `limit` of them, or — keyset paging — the `limit` just older or just newer than the record `cursorId`.
 * The cursor's `at` is read from its row in SQL (a primary-key lookup), never round-tripped through a JS
 * Date, so stored microseconds cannot make a page skip or repeat a record. Each read is one range of
 * page_times_user_at_idx (user_id, at) from the cursor on, sorted by id only among equal `at` values —
 * as cheap at the 50,000th record as at the first. Newer records come back newest first as well.
 */
export async function pageTimesOf(userId: string, limit: number, cursor?: { id: string; direction: 'older' | 'newer' }, ex: Reader = db()): Promise<PageTimeRow[]> {
  const mine = eq(pageTimes.userId, userId);
  if (!cursor) return ex.select(rowColumns).from(pageTimes).where(mine).orderBy(desc(pageTimes.at), desc(pageTimes.id)).limit(limit);
  const cursorAt = sql`(select c.at from page_times c where c.id = ${cursor.id} and c.user_id = ${userId})`;
  if (cursor.direction === 'older') {
    return ex
      .select(rowColumns)
      .from(pageTimes)
      .where(and(mine, sql`${pageTimes.at} <= ${cursorAt}`, or(sql`${pageTimes.at} < ${cursorAt}`, lt(pageTimes.id, cursor.id))))
      .orderBy(desc(pageTimes.at), desc(pageTimes.id))
      .limit(limit);
  }
  const rows = await ex
    .select(rowColumns)
    .from(pageTimes)
    .where(and(mine, sql`${pageTimes.at} >= ${cursorAt}`, or(sql`${pageTimes.at} > ${cursorAt}`, gt(pageTimes.id, cursor.id))))
    .orderBy(asc(pageTimes.at), asc(pageTimes.id))
    .limit(limit);
  return rows.reverse();
}

/**
 * The record a timeline cursor names, if it is this member's and its `at` falls in the cursor's
 * millisecond (`atMs`, what a JS Date of it shows): anything else is a foreign or forged cursor.
 */
export async function isPageTimeCursorOf(userId: string, id: string, atMs: number, ex: Reader = db()): Promise<boolean> {
  const [row] = await ex
    .select({ ms: sql<string>`floor(extract(epoch from ${pageTimes.at}) * 1000)::bigint` })
    .from(pageTimes)
    .where(and(eq(pageTimes.id, id), eq(pageTimes.userId, userId)));
  return row !== undefined && Number(row.ms) === atMs;
}

/** How many records the member has: the sum of their page_time_totals rows (one per path), not a count of page_times. */
export async function countPageTimesOf(userId: string, ex: Reader = db()): Promise<number> {
  const [row] = await ex.select({ n: sql<number>`coalesce(sum(${pageTimeTotals.views}), 0)` }).from(pageTimeTotals).where(eq(pageTimeTotals.userId, userId));
  return Number(row?.n ?? 0);
}

export interface PageTimeTotalRow {
  pagePath: string;
  totalMs: number;
  views: number;
  lastSeen: Date;
}

/**
 * Per path: total time, records and the latest one; the `limit` paths with the most time (ties by path).
 * Read from page_time_totals, which the database keeps equal to those sums over page_times.
 */
export async function pageTimeTotalsOf(userId: string, limit: number, ex: Reader = db()): Promise<PageTimeTotalRow[]> {
  const rows = await ex
    .select({ pagePath: pageTimeTotals.pagePath, totalMs: pageTimeTotals.totalMs, views: pageTimeTotals.views, lastSeen: pageTimeTotals.lastSeen })
    .from(pageTimeTotals)
    .where(eq(pageTimeTotals.userId, userId))
    .orderBy(desc(pageTimeTotals.totalMs), pageTimeTotals.pagePath)
    .limit(limit);
  return rows.map((r) => ({ pagePath: r.pagePath, totalMs: Number(r.totalMs), views: Number(r.views), lastSeen: r.lastSeen }));
}
