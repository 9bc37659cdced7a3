/** The website audit's runs: data access only (Drizzle). Writes that belong to a request take its transaction. */
import { and, desc, eq, inArray } from 'drizzle-orm';
import { db } from '../../db';
import type { Database } from '../../db/client';
import { siteAuditRuns } from '../../db/schema';

export type Executor = Pick<Database, 'select' | 'insert' | 'update'>;
export type SiteAuditRunRow = typeof siteAuditRuns.$inferSelect;

export type NewSiteAuditRun = typeof siteAuditRuns.$inferInsert;

export async function insertRun(ex: Executor, run: NewSiteAuditRun): Promise<void> {
  await ex.insert(siteAuditRuns).values(run);
}

export async function findRun(id: string, ex: Pick<Database, 'select'> = db()): Promise<SiteAuditRunRow | undefined> {
  const [row] = await ex.select().from(siteAuditRuns).where(eq(siteAuditRuns.id, id));
  return row;
}

/** Every run of a request, newest first (a handful: each is a request's or an admin's "Run again"). */
export function runsOfRequest(requestId: string, ex: Pick<Database, 'select'> = db()): Promise<SiteAuditRunRow[]> {
  return ex.select().from(siteAuditRuns).where(eq(siteAuditRuns.requestId, requestId)).orderBy(desc(siteAuditRuns.createdAt), desc(siteAuditRuns.id));
}

/** The newest run's id and state only: what the admin page polls while a run is under way. */
export async function newestRunState(requestId: string, ex: Pick<Database, 'select'> = db()): Promise<{ id: string; status: string } | undefined> {
  const [row] = await ex
    .select({ id: siteAuditRuns.id, status: siteAuditRuns.status })
    .from(siteAuditRuns)
    .where(eq(siteAuditRuns.requestId, requestId))
    .orderBy(desc(siteAuditRuns.createdAt), desc(siteAuditRuns.id))
    .limit(1);
  return row;
}

/** The request's run that has not finished yet, if any ("Run again" waits for it). */
export async function unfinishedRunOf(requestId: string, ex: Pick<Database, 'select'> = db()): Promise<SiteAuditRunRow | undefined> {
  const [row] = await ex
    .select()
    .from(siteAuditRuns)
    .where(and(eq(siteAuditRuns.requestId, requestId), inArray(siteAuditRuns.status, ['queued', 'running'])))
    .limit(1);
  return row;
}

export async function updateRun(id: string, values: Partial<Omit<SiteAuditRunRow, 'id' | 'requestId'>>, ex: Pick<Database, 'update'> = db()): Promise<void> {
  await ex.update(siteAuditRuns).set(values).where(eq(siteAuditRuns.id, id));
}

/** The request's newest finished run with findings: what a report shows. */
export async function newestDoneRun(requestId: string, ex: Pick<Database, 'select'> = db()): Promise<SiteAuditRunRow | undefined> {
  const [row] = await ex
    .select()
    .from(siteAuditRuns)
    .where(and(eq(siteAuditRuns.requestId, requestId), eq(siteAuditRuns.status, 'done')))
    .orderBy(desc(siteAuditRuns.createdAt), desc(siteAuditRuns.id))
    .limit(1);
  return row?.findings ? row : undefined;
}
