/**
 * Members' page-time records (page_times): data access only. Every read is one member's rows, through
 * page_times_user_at_idx (user_id, at), paginated and aggregated in SQL: a member with years of records
 * costs an index range, never a table scan or a list in memory.
 */
import { desc, eq, sql } from 'drizzle-orm';
import { db } from '../../db';
import type { Database } from '../../db/client';
import { pageTimes } from '../../db/schema';

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

/** One page of a member's records, newest first (ties by id so pages never overlap). */
export async function pageTimesOf(userId: string, limit: number, offset: number, ex: Reader = db()): Promise<PageTimeRow[]> {
  return ex
    .select({ id: pageTimes.id, pagePath: pageTimes.pagePath, durationMs: pageTimes.durationMs, at: pageTimes.at, sessionId: pageTimes.sessionId })
    .from(pageTimes)
    .where(eq(pageTimes.userId, userId))
    .orderBy(desc(pageTimes.at), desc(pageTimes.id))
    .limit(limit)
    .offset(offset);
}

export async function countPageTimesOf(userId: string, ex: Reader = db()): Promise<number> {
  const [row] = await ex.select({ n: sql<number>`count(*)` }).from(pageTimes).where(eq(pageTimes.userId, userId));
  return Number(row?.n ?? 0);
}

export interface PageTimeTotalRow {
  pagePath: string;
  totalMs: number;
  views: number;
  lastSeen: Date;
}

const totalMs = sql<number>`sum(${pageTimes.durationMs})`;

/** Per path: total time, records and the latest one; the `limit` paths with the most time. */
export async function pageTimeTotalsOf(userId: string, limit: number, ex: Reader = db()): Promise<PageTimeTotalRow[]> {
  const rows = await ex
    .select({ pagePath: pageTimes.pagePath, totalMs, views: sql<number>`count(*)`, lastSeen: sql<Date>`max(${pageTimes.at})`.mapWith(pageTimes.at) })
    .from(pageTimes)
    .where(eq(pageTimes.userId, userId))
    .groupBy(pageTimes.pagePath)
    .orderBy(desc(totalMs), pageTimes.pagePath)
    .limit(limit);
  return rows.map((r) => ({ pagePath: r.pagePath, totalMs: Number(r.totalMs), views: Number(r.views), lastSeen: r.lastSeen }));
}
