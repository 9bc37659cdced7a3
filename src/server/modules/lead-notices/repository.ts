/** Lead notices held for an admin's digest (decision 057): data access only (Drizzle). */
import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { leadNoticeHolds } from '../../db/schema';

export type Executor = Pick<Database, 'select' | 'insert' | 'update' | 'execute'>;
export type HoldRow = typeof leadNoticeHolds.$inferSelect;

/** Serialises one admin's notices and digest within the caller's transaction (two leads at once count both). */
export async function lockAdmin(tx: Pick<Database, 'execute'>, adminId: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`lead-notices:${adminId}`}))`);
}

/** The oldest notice still waiting for this admin's digest, if any. */
export async function oldestWaiting(adminId: string, ex: Pick<Database, 'select'>): Promise<Pick<HoldRow, 'id'> | undefined> {
  const [row] = await ex
    .select({ id: leadNoticeHolds.id })
    .from(leadNoticeHolds)
    .where(and(eq(leadNoticeHolds.adminId, adminId), isNull(leadNoticeHolds.digestMailId)))
    .orderBy(asc(leadNoticeHolds.createdAt), asc(leadNoticeHolds.id))
    .limit(1);
  return row;
}

export async function insertHold(tx: Executor, hold: Omit<HoldRow, 'id' | 'digestMailId' | 'createdAt'> & { createdAt: Date }): Promise<HoldRow> {
  const [row] = await tx
    .insert(leadNoticeHolds)
    .values({ id: crypto.randomUUID(), ...hold })
    .returning();
  return row!;
}

/** Every notice waiting for this admin's digest, oldest first. */
export async function waitingHolds(adminId: string, tx: Executor): Promise<HoldRow[]> {
  return tx
    .select()
    .from(leadNoticeHolds)
    .where(and(eq(leadNoticeHolds.adminId, adminId), isNull(leadNoticeHolds.digestMailId)))
    .orderBy(asc(leadNoticeHolds.createdAt), asc(leadNoticeHolds.id));
}

/** Marks notices as told by the digest `mailId` ('' when nobody is told: no longer an admin). */
export async function markDigested(tx: Executor, ids: string[], mailId: string): Promise<void> {
  if (ids.length) await tx.update(leadNoticeHolds).set({ digestMailId: mailId }).where(inArray(leadNoticeHolds.id, ids));
}
