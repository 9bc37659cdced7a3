/** The activity log's data access (Drizzle only). Writes take the transaction of the change they record. */
import { and, count, desc, eq, ilike, or, type SQL } from 'drizzle-orm';
import { db } from '../../db';
import type { Database } from '../../db/client';
import { activityLog } from '../../db/schema';

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
  entityType?: string | undefined;
  action?: string | undefined;
  actorEmail?: string | undefined;
  q?: string | undefined;
}

function whereOf(f: ActivityFilter): SQL | undefined {
  const like = f.q ? `%${f.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : undefined;
  return and(
    f.entityType ? eq(activityLog.entityType, f.entityType) : undefined,
    f.action ? eq(activityLog.action, f.action) : undefined,
    f.actorEmail ? eq(activityLog.actorEmail, f.actorEmail) : undefined,
    like ? or(ilike(activityLog.summary, like), ilike(activityLog.entityId, like)) : undefined,
  );
}

/** Newest first, without the before/after documents (the list does not show them). */
export async function listActivity(filter: ActivityFilter, limit: number, offset: number, ex: Executor = db()) {
  const where = whereOf(filter);
  const [rows, [total]] = await Promise.all([
    ex
      .select({
        id: activityLog.id,
        at: activityLog.at,
        actorEmail: activityLog.actorEmail,
        action: activityLog.action,
        entityType: activityLog.entityType,
        entityId: activityLog.entityId,
        summary: activityLog.summary,
        revertOf: activityLog.revertOf,
      })
      .from(activityLog)
      .where(where)
      .orderBy(desc(activityLog.at), desc(activityLog.id))
      .limit(limit)
      .offset(offset),
    ex.select({ n: count() }).from(activityLog).where(where),
  ]);
  return { rows, total: total?.n ?? 0 };
}

export async function findActivity(id: string, ex: Executor = db()): Promise<ActivityRow | undefined> {
  const [row] = await ex.select().from(activityLog).where(eq(activityLog.id, id)).limit(1);
  return row;
}
