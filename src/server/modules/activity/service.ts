/**
 * The activity log: every admin change, who made it and when (PRODUCT.md "Every admin change is
 * recorded"). Writers record through the repository inside their own transaction; this module reads.
 */
import { and, desc, eq } from 'drizzle-orm';
import { activityLog } from '../../db/schema';
import { activityFacets, listActivity, listActivityWithChanges, revertsOf, type ActivityFilter, type Executor } from './repository';
import type { LastSave } from '../content/errors';
import { siteTimeZoneIn } from '../site/time-zone';

export type { ActivityFilter } from './repository';

/** Who changed a record last, and when (for "saved by someone else" messages). */
export async function latestChangeOf(ex: Executor, entityType: string, entityId: string) {
  const [row] = await ex
    .select({ id: activityLog.id, actorEmail: activityLog.actorEmail, at: activityLog.at })
    .from(activityLog)
    .where(and(eq(activityLog.entityType, entityType), eq(activityLog.entityId, entityId)))
    .orderBy(desc(activityLog.at))
    .limit(1);
  return row;
}

/** The facts of a conflict message: who saved the thing last, when, and the site's time zone to say it in. */
export async function lastSaveOf(ex: Executor, entityType: string, entityId: string): Promise<LastSave | undefined> {
  const last = await latestChangeOf(ex, entityType, entityId);
  return last && { email: last.actorEmail, at: last.at, timeZone: await siteTimeZoneIn(ex) };
}

export const ACTIVITY_PER_PAGE = 50;

/**
 * One page of the activity log (newest first) with each entry's before/after, which entries were reverted
 * and by which entry, and the values the filters can take.
 */
export async function activityPage(filter: ActivityFilter, page: number) {
  const [{ rows, total }, facets] = await Promise.all([
    listActivityWithChanges(filter, ACTIVITY_PER_PAGE, (page - 1) * ACTIVITY_PER_PAGE),
    activityFacets(),
  ]);
  const revertedBy = await revertsOf(rows.map((r) => r.id));
  return { rows, total, pages: Math.max(1, Math.ceil(total / ACTIVITY_PER_PAGE)), revertedBy, facets };
}

/** The newest entries, for the admin overview. */
export async function latestActivity(limit: number) {
  return (await listActivity({}, limit, 0)).rows;
}
