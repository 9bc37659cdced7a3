/** The activity log's data access (Drizzle only). Writes take the transaction of the change they record. */
import { and, asc, count, desc, eq, ilike, inArray, or, sql, type SQL } from 'drizzle-orm';
import { db } from '../../db';
import type { Database } from '../../db/client';
import { activityLog, users } from '../../db/schema';

export type Executor = Pick<Database, 'select' | 'insert'>;
export type ActivityRow = typeof activityLog.$inferSelect;
export type NewActivity = Omit<typeof activityLog.$inferInsert, 'id' | 'at'>;

export async function insertActivity(ex: Executor, entry: NewActivity): Promise<ActivityRow> {
  const [row] = await ex
    .insert(activityLog)
    .values({ id: crypto.randomUUID(), ...entry })
    .returning();
  return row!;
}

export interface ActivityFilter {
  /** One entry by id (the others are ignored). */
  id?: string | undefined;
  entityType?: string | undefined;
  action?: string | undefined;
  actorEmail?: string | undefined;
  q?: string | undefined;
}

function whereOf(f: ActivityFilter): SQL | undefined {
  if (f.id) return eq(activityLog.id, f.id);
  const like = f.q ? `%${f.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : undefined;
  return and(
    f.entityType ? eq(activityLog.entityType, f.entityType) : undefined,
    f.action ? eq(activityLog.action, f.action) : undefined,
    f.actorEmail ? eq(activityLog.actorEmail, f.actorEmail) : undefined,
    like ? or(ilike(activityLog.summary, like), ilike(activityLog.entityId, like)) : undefined,
  );
}

/**
 * Who made a change, as people name them (issue 35): the account's name now, else the address recorded
 * (an account deleted since, or a scheduler's name such as "Cal.com" where no admin was behind it).
 */
export const actorNameOf = sql<string>`coalesce((select nullif(trim(${users.name}), '') from ${users} where ${users.id} = ${activityLog.actorId}), ${activityLog.actorEmail})`;

const LIST_COLUMNS = {
  id: activityLog.id,
  at: activityLog.at,
  actorId: activityLog.actorId,
  actorEmail: activityLog.actorEmail,
  actorName: actorNameOf,
  action: activityLog.action,
  entityType: activityLog.entityType,
  entityId: activityLog.entityId,
  summary: activityLog.summary,
  revertOf: activityLog.revertOf,
};

const WITH_CHANGES = { ...LIST_COLUMNS, before: activityLog.before, after: activityLog.after };

const newestFirst = [desc(activityLog.at), desc(activityLog.id)];

async function countWhere(where: SQL | undefined, ex: Executor) {
  const [total] = await ex.select({ n: count() }).from(activityLog).where(where);
  return total?.n ?? 0;
}

/** Newest first, without the before/after documents (the overview does not show them). */
export async function listActivity(filter: ActivityFilter, limit: number, offset: number, ex: Executor = db()) {
  const where = whereOf(filter);
  const [rows, total] = await Promise.all([
    ex.select(LIST_COLUMNS).from(activityLog).where(where).orderBy(...newestFirst).limit(limit).offset(offset),
    countWhere(where, ex),
  ]);
  return { rows, total };
}

/** Newest first, with the record before and after each change (the activity page's "Show changes"). */
export async function listActivityWithChanges(filter: ActivityFilter, limit: number, offset: number, ex: Executor = db()) {
  const where = whereOf(filter);
  const [rows, total] = await Promise.all([
    ex.select(WITH_CHANGES).from(activityLog).where(where).orderBy(...newestFirst).limit(limit).offset(offset),
    countWhere(where, ex),
  ]);
  return { rows, total };
}

export async function findActivity(id: string, ex: Executor = db()): Promise<ActivityRow | undefined> {
  const [row] = await ex.select().from(activityLog).where(eq(activityLog.id, id)).limit(1);
  return row;
}

/** For each of `ids` that was reverted: the (first) entry that reverted it. */
export async function revertsOf(ids: readonly string[], ex: Executor = db()): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await ex
    .select({ id: activityLog.id, revertOf: activityLog.revertOf })
    .from(activityLog)
    .where(inArray(activityLog.revertOf, [...ids]))
    .orderBy(asc(activityLog.at));
  const reverts = new Map<string, string>();
  for (const row of rows) if (row.revertOf && !reverts.has(row.revertOf)) reverts.set(row.revertOf, row.id);
  return reverts;
}

/** The values the filters can take: every content type, action and admin the log holds. */
export async function activityFacets(ex: Pick<Database, 'selectDistinct'> = db()) {
  const [types, actions, admins] = await Promise.all([
    ex.selectDistinct({ v: activityLog.entityType }).from(activityLog).orderBy(asc(activityLog.entityType)),
    ex.selectDistinct({ v: activityLog.action }).from(activityLog).orderBy(asc(activityLog.action)),
    ex.selectDistinct({ v: activityLog.actorEmail }).from(activityLog).orderBy(asc(activityLog.actorEmail)),
  ]);
  return { types: types.map((r) => r.v), actions: actions.map((r) => r.v), admins: admins.map((r) => r.v) };
}
