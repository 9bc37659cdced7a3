/**
 * Working a lead: data access only (Drizzle). A person's row in lead_people is made the first time the
 * team changes something about them; until then they are a new lead nobody owns.
 */
import { and, asc, desc, eq, inArray, isNotNull, lt, lte, ne, sql } from 'drizzle-orm';
import { db } from '../../db';
import type { Database } from '../../db/client';
import { activityLog, leadEvents, leadNotes, leadPeople, leadReminders, users } from '../../db/schema';
import { actorNameOf } from '../activity/repository';
import { notByTeam } from './team';

export type Executor = Pick<Database, 'select' | 'insert' | 'update' | 'execute'>;
type Reader = Pick<Database, 'select'>;

/** The activity log's entity type of a person's working state and notes (entity id: the lower-cased email). */
export const LEAD_ENTITY = 'lead';
/** The changes of a person the timeline shows. */
export const LEAD_CHANGE_ACTIONS = ['stage', 'owner', 'follow-up', 'replied', 'unsubscribed', 'sequence-enrolled'] as const;

export type LeadWorkRow = typeof leadPeople.$inferSelect;

/** Whether anyone outside the team has a lead event with this (lower-cased) email. */
export async function isLead(email: string, ex: Reader = db()): Promise<boolean> {
  const [row] = await ex
    .select({ id: leadEvents.id })
    .from(leadEvents)
    .where(and(sql`lower(${leadEvents.email}) = ${email}`, ne(leadEvents.email, ''), notByTeam))
    .limit(1);
  return Boolean(row);
}

/** The person's row, made if missing, locked until the transaction ends (two admins' changes queue). */
export async function lockLeadWork(email: string, tx: Executor): Promise<LeadWorkRow> {
  await tx.insert(leadPeople).values({ email }).onConflictDoNothing();
  const [row] = await tx.select().from(leadPeople).where(eq(leadPeople.email, email)).for('update');
  return row!;
}

export async function updateLeadWork(email: string, patch: Partial<Pick<LeadWorkRow, 'stage' | 'ownerId' | 'followUpOn' | 'repliedAt'>>, tx: Executor) {
  await tx
    .update(leadPeople)
    .set({ ...patch, updatedAt: new Date() })
    .where(eq(leadPeople.email, email));
}

export async function findLeadWork(email: string, ex: Reader = db()) {
  const [row] = await ex.select().from(leadPeople).where(eq(leadPeople.email, email)).limit(1);
  return row;
}

export async function insertLeadNote(tx: Executor, note: { email: string; authorId: string; authorName: string; body: string }) {
  const [row] = await tx
    .insert(leadNotes)
    .values({ id: crypto.randomUUID(), ...note })
    .returning();
  return row!;
}

export async function leadNotesOf(email: string, w: { before: Date | undefined; limit: number }, ex: Reader = db()) {
  return ex
    .select({ id: leadNotes.id, at: leadNotes.createdAt, authorName: leadNotes.authorName, body: leadNotes.body })
    .from(leadNotes)
    .where(and(eq(leadNotes.email, email), w.before ? lt(leadNotes.createdAt, w.before) : undefined))
    .orderBy(desc(leadNotes.createdAt), desc(leadNotes.id))
    .limit(w.limit);
}

/** Stage, owner and follow-up changes of the person, as the activity log recorded them. */
export async function leadChangesOf(email: string, w: { before: Date | undefined; limit: number }, ex: Reader = db()) {
  return ex
    .select({ id: activityLog.id, at: activityLog.at, action: activityLog.action, actorName: actorNameOf, before: activityLog.before, after: activityLog.after })
    .from(activityLog)
    .where(
      and(
        eq(activityLog.entityType, LEAD_ENTITY),
        eq(activityLog.entityId, email),
        inArray(activityLog.action, [...LEAD_CHANGE_ACTIONS]),
        w.before ? lt(activityLog.at, w.before) : undefined,
      ),
    )
    .orderBy(desc(activityLog.at), desc(activityLog.id))
    .limit(w.limit);
}

/** A lead_people row's person's newest non-empty name (a correlated read of lead_events_person_at_idx). */
const latestNameOfPerson = sql<string>`coalesce((select ${leadEvents.name} from ${leadEvents} where lower(${leadEvents.email}) = ${leadPeople.email} and ${leadEvents.name} <> '' order by ${leadEvents.at} desc limit 1), '')`;

/**
 * Follow-ups due by `day` (today in the site's zone: today's and the overdue), soonest first, with each
 * person's latest name and owner. As the leads list's "follow-up due" filter: whatever the stage.
 */
export async function dueFollowUps(day: string, limit: number, ex: Reader = db()) {
  const where = and(isNotNull(leadPeople.followUpOn), lte(leadPeople.followUpOn, day));
  const [rows, [count]] = await Promise.all([
    ex
      .select({ email: leadPeople.email, followUpOn: leadPeople.followUpOn, stage: leadPeople.stage, name: latestNameOfPerson, ownerName: sql<string | null>`coalesce(nullif(${users.name}, ''), ${users.email})` })
      .from(leadPeople)
      .leftJoin(users, eq(users.id, leadPeople.ownerId))
      .where(where)
      .orderBy(asc(leadPeople.followUpOn), asc(leadPeople.email))
      .limit(limit),
    ex.select({ n: sql<number>`count(*)`.mapWith(Number) }).from(leadPeople).where(where),
  ]);
  return { rows: rows.map((r) => ({ ...r, followUpOn: r.followUpOn! })), total: count?.n ?? 0 };
}

/** The leads falling due on exactly `day`, with their owner, for owners who are active admins; by owner. */
export async function followUpsOwnedOn(day: string, ex: Reader = db()) {
  return ex
    .select({ ownerId: users.id, ownerEmail: users.email, ownerName: users.name, email: leadPeople.email, stage: leadPeople.stage, name: latestNameOfPerson })
    .from(leadPeople)
    .innerJoin(users, eq(users.id, leadPeople.ownerId))
    .where(and(eq(leadPeople.followUpOn, day), eq(users.role, 'admin'), eq(users.emailVerified, true), eq(users.banned, false)))
    .orderBy(asc(users.id), asc(leadPeople.email));
}

/** Marks `day`'s reminder to the owner as sent; false when it was already (another run, another process). */
export async function claimReminder(tx: Executor, ownerId: string, day: string): Promise<boolean> {
  const [claimed] = await tx.insert(leadReminders).values({ ownerId, day }).onConflictDoNothing().returning();
  return Boolean(claimed);
}
