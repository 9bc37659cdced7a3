/**
 * Merging two people (issue 39): data access only. `countMovable` says what of the other address would move;
 * `moveRecords` moves it onto the kept address in the caller's transaction: lead events, audit requests (the
 * profile triggers follow), chat contacts, notes, bookings, sequence enrolments (one per sequence: the kept
 * person's stays), the activity entries of their working state, and any alias that pointed at the other
 * address. Mail stays addressed as it was sent; the timeline reads it through the alias.
 */
import { and, count, eq, inArray, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { activityLog, auditRequests, bookingChanges, bookings, chatConversations, leadAliases, leadEvents, leadNoticeHolds, leadNotes, leadPeople, leadSequenceEnrollments } from '../../db/schema';
import type { MergedCounts } from '../../../shared/merge-people';
import { LEAD_ENTITY } from './work-repository';

export type Executor = Pick<Database, 'select' | 'insert' | 'update' | 'delete' | 'execute'>;
type Reader = Pick<Database, 'select'>;
export type { MergedCounts };

const number = async (rows: Promise<{ n: number }[]>) => Number((await rows)[0]?.n ?? 0);
const lowerIs = (column: Parameters<typeof sql>[1], email: string) => sql`lower(${column}) = ${email}`;

export async function countMovable(other: string, ex: Reader): Promise<MergedCounts> {
  const [leadEventCount, auditRequestCount, conversations, notes, bookingCount, enrolments] = await Promise.all([
    number(ex.select({ n: count() }).from(leadEvents).where(lowerIs(leadEvents.email, other))),
    number(ex.select({ n: count() }).from(auditRequests).where(lowerIs(auditRequests.email, other))),
    number(ex.select({ n: count() }).from(chatConversations).where(lowerIs(chatConversations.contactEmail, other))),
    number(ex.select({ n: count() }).from(leadNotes).where(eq(leadNotes.email, other))),
    number(ex.select({ n: count() }).from(bookings).where(eq(bookings.email, other))),
    number(ex.select({ n: count() }).from(leadSequenceEnrollments).where(eq(leadSequenceEnrollments.email, other))),
  ]);
  return { leadEvents: leadEventCount, auditRequests: auditRequestCount, conversations, notes, bookings: bookingCount, sequenceEnrolments: enrolments };
}

export type WorkRow = typeof leadPeople.$inferSelect;

export async function lockWorkRows(emails: string[], tx: Executor): Promise<WorkRow[]> {
  return tx.select().from(leadPeople).where(inArray(leadPeople.email, emails)).orderBy(leadPeople.email).for('update');
}

/** Moves everything of `other` onto `keep` (both lower-cased) and keeps `other` as an alias of `keep`. */
export async function moveRecords(keep: string, other: string, work: Omit<WorkRow, 'email' | 'updatedAt'>, actorId: string, tx: Executor): Promise<void> {
  await tx.update(leadEvents).set({ email: keep }).where(lowerIs(leadEvents.email, other));
  await tx.update(auditRequests).set({ email: keep }).where(lowerIs(auditRequests.email, other));
  await tx.update(chatConversations).set({ contactEmail: keep }).where(lowerIs(chatConversations.contactEmail, other));
  await tx.update(leadNotes).set({ email: keep }).where(eq(leadNotes.email, other));
  await tx.update(bookings).set({ email: keep }).where(eq(bookings.email, other));
  await tx.update(bookingChanges).set({ email: keep }).where(eq(bookingChanges.email, other));
  await tx.update(leadNoticeHolds).set({ email: keep }).where(lowerIs(leadNoticeHolds.email, other));
  // A person goes through each sequence once: where both were enrolled, the kept person's enrolment stays.
  await tx
    .delete(leadSequenceEnrollments)
    .where(and(eq(leadSequenceEnrollments.email, other), sql`${leadSequenceEnrollments.trigger} in (select trigger from ${leadSequenceEnrollments} where email = ${keep})`));
  await tx.update(leadSequenceEnrollments).set({ email: keep }).where(eq(leadSequenceEnrollments.email, other));
  await tx.update(activityLog).set({ entityId: keep }).where(and(eq(activityLog.entityType, LEAD_ENTITY), eq(activityLog.entityId, other)));
  await tx.delete(leadPeople).where(eq(leadPeople.email, other));
  await tx
    .insert(leadPeople)
    .values({ email: keep, ...work })
    .onConflictDoUpdate({ target: leadPeople.email, set: { ...work, updatedAt: new Date() } });
  await tx.update(leadAliases).set({ email: keep }).where(eq(leadAliases.email, other));
  await tx.insert(leadAliases).values({ alias: other, email: keep, createdBy: actorId }).onConflictDoUpdate({ target: leadAliases.alias, set: { email: keep } });
}
