/**
 * The activity log: every admin change, who made it and when (PRODUCT.md "Every admin change is
 * recorded"). Writers record through the repository inside their own transaction; this module reads.
 */
import { and, desc, eq } from 'drizzle-orm';
import { activityLog } from '../../db/schema';
import { listActivity, type ActivityFilter, type Executor } from './repository';

export type { ActivityFilter } from './repository';

/** Who changed a record last, and when (for "saved by someone else" messages). */
export async function latestChangeOf(ex: Executor, entityType: string, entityId: string) {
  const [row] = await ex
    .select({ actorEmail: activityLog.actorEmail, at: activityLog.at })
    .from(activityLog)
    .where(and(eq(activityLog.entityType, entityType), eq(activityLog.entityId, entityId)))
    .orderBy(desc(activityLog.at))
    .limit(1);
  return row;
}

export const ACTIVITY_PER_PAGE = 50;

export async function activityPage(filter: ActivityFilter, page: number) {
  return listActivity(filter, ACTIVITY_PER_PAGE, (page - 1) * ACTIVITY_PER_PAGE);
}
