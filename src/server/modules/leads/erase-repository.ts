/**
 * Erasing a person (issue 39): data access only. `findPersonRecords` gathers what is theirs by the
 * lower-cased address (and their member account's id, when they have one); `countPersonRecords` says how
 * much of each kind there is, for the confirmation; `deletePersonRecords` deletes it all in the caller's
 * transaction and answers the same counts. Rows that only point at deleted ones go with them by their
 * foreign keys (an audit request's notes, website checks, draft and reports; a conversation's messages; an
 * enrolment's sends; a booking's changes; an account's sessions, sign-in methods and page times).
 */
import { count, eq, inArray, isNull, or, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client';
import {
  activityLog,
  auditNotes,
  auditReports,
  auditRequests,
  bookingChanges,
  bookings,
  chatConversations,
  chatMessages,
  jobs,
  leadAliases,
  leadEvents,
  leadNoticeHolds,
  leadNotes,
  leadPeople,
  leadPersonStats,
  leadProfiles,
  leadSequenceEnrollments,
  mailQueue,
  mailUnsubscribes,
  pageTimes,
  siteAuditRuns,
  users,
  verifications,
} from '../../db/schema';
import type { ErasedCounts } from '../../../shared/erase-person';
import { aliasesOf } from './aliases';

export type Executor = Pick<Database, 'select' | 'insert' | 'update' | 'delete' | 'execute'>;
type Reader = Pick<Database, 'select'>;

export interface PersonRecords {
  /** The lower-cased address. */
  email: string;
  /** Addresses merged into the person (lead_aliases). */
  aliases: string[];
  member: { id: string; role: string } | undefined;
  requestIds: string[];
  runIds: string[];
  conversationIds: string[];
  enrollmentIds: string[];
  bookingIds: string[];
  mailIds: string[];
}

export type { ErasedCounts };

const ids = async (rows: Promise<{ id: string }[]>) => (await rows).map((r) => r.id);
const contains = (text: SQL, email: string) => sql`position(${email} in lower(${text})) > 0`;
/** `column in (…)`, false for an empty list (no query may name an empty IN list). */
const within = (column: AnyColumn, values: string[]): SQL => (values.length ? inArray(column, values) : sql`false`);

export async function findPersonRecords(email: string, ex: Reader): Promise<PersonRecords> {
  const aliases = await aliasesOf(email, ex);
  const addresses = [email, ...aliases];
  const [member] = await ex.select({ id: users.id, role: users.role }).from(users).where(sql`lower(${users.email}) = ${email}`).limit(1);
  const ofMember = (column: AnyColumn): SQL => (member ? eq(column, member.id) : sql`false`);
  const requestIds = await ids(ex.select({ id: auditRequests.id }).from(auditRequests).where(or(sql`lower(${auditRequests.email}) = ${email}`, ofMember(auditRequests.userId))));
  const [runIds, conversationIds, enrollmentIds, bookingIds, mailIds] = await Promise.all([
    ids(ex.select({ id: siteAuditRuns.id }).from(siteAuditRuns).where(within(siteAuditRuns.requestId, requestIds))),
    ids(ex.select({ id: chatConversations.id }).from(chatConversations).where(or(inArray(sql`lower(${chatConversations.contactEmail})`, addresses), ofMember(chatConversations.userId)))),
    ids(ex.select({ id: leadSequenceEnrollments.id }).from(leadSequenceEnrollments).where(eq(leadSequenceEnrollments.email, email))),
    ids(ex.select({ id: bookings.id }).from(bookings).where(eq(bookings.email, email))),
    // Mail to them, and mail about them (the team's notices name them): the queue is also the mail log.
    ids(
      ex
        .select({ id: mailQueue.id })
        .from(mailQueue)
        .where(
          or(
            ...addresses.flatMap((address) => [
              sql`lower(${mailQueue.to}) = ${address}`,
              sql`lower(${mailQueue.replyTo}) = ${address}`,
              contains(sql`${mailQueue.subject}`, address),
              contains(sql`${mailQueue.text}`, address),
              contains(sql`${mailQueue.html}`, address),
            ]),
          ),
        ),
    ),
  ]);
  return { email, aliases, member, requestIds, runIds, conversationIds, enrollmentIds, bookingIds, mailIds };
}

const leadEventsOf = (p: PersonRecords) => or(sql`lower(${leadEvents.email}) = ${p.email}`, p.member ? eq(leadEvents.userId, p.member.id) : sql`false`);
const auditNotesOf = (p: PersonRecords) => within(auditNotes.requestId, p.requestIds);

/** Entries about them: by the records' ids, or naming the address anywhere (a summary, a before or after). */
function activityOf(p: PersonRecords): SQL {
  const entityIds = [p.email, ...p.aliases, ...(p.member ? [p.member.id] : []), ...p.requestIds, ...p.conversationIds];
  return or(
    within(activityLog.entityId, entityIds),
    ...[p.email, ...p.aliases].flatMap((address) => [
      sql`lower(${activityLog.actorEmail}) = ${address}`,
      contains(sql`${activityLog.summary}`, address),
      contains(sql`coalesce(${activityLog.before}::text, '')`, address),
      contains(sql`coalesce(${activityLog.after}::text, '')`, address),
    ]),
  )!;
}

const number = async (rows: Promise<{ n: number }[]>) => Number((await rows)[0]?.n ?? 0);

export async function countPersonRecords(p: PersonRecords, ex: Reader): Promise<ErasedCounts> {
  const [reports, chatMessageCount, leadEventCount, leadNoteCount, auditNoteCount, pageViews] = await Promise.all([
    number(ex.select({ n: count() }).from(auditReports).where(within(auditReports.requestId, p.requestIds))),
    number(ex.select({ n: count() }).from(chatMessages).where(within(chatMessages.conversationId, p.conversationIds))),
    number(ex.select({ n: count() }).from(leadEvents).where(leadEventsOf(p))),
    number(ex.select({ n: count() }).from(leadNotes).where(eq(leadNotes.email, p.email))),
    number(ex.select({ n: count() }).from(auditNotes).where(auditNotesOf(p))),
    p.member ? number(ex.select({ n: count() }).from(pageTimes).where(eq(pageTimes.userId, p.member.id))) : 0,
  ]);
  return {
    auditRequests: p.requestIds.length,
    websiteChecks: p.runIds.length,
    reports,
    conversations: p.conversationIds.length,
    chatMessages: chatMessageCount,
    leadEvents: leadEventCount,
    notes: leadNoteCount + auditNoteCount,
    mails: p.mailIds.length,
    sequenceEnrolments: p.enrollmentIds.length,
    bookings: p.bookingIds.length,
    pageViews,
    memberAccount: p.member ? 1 : 0,
  };
}

/**
 * Deletes everything of `p` (counted first, in the same transaction), and keeps their addresses'
 * unsubscribe records under `erasedKeys` only: unsubscribed as of `unsubscribedSince`.
 */
export async function deletePersonRecords(p: PersonRecords, erasedKeys: string[], unsubscribedSince: Date, tx: Executor): Promise<ErasedCounts> {
  const counts = await countPersonRecords(p, tx);
  const inPayload = (field: string, values: string[]) => (values.length ? sql`${jobs.payload} ->> ${field} in (${sql.join(values.map((v) => sql`${v}`), sql`, `)})` : sql`false`);
  // Jobs that would still send, check or mail something of theirs (finished ones too: they name the ids).
  await tx.delete(jobs).where(or(inPayload('mailId', p.mailIds), inPayload('enrollmentId', p.enrollmentIds), inPayload('conversationId', p.conversationIds), inPayload('runId', p.runIds)));
  await tx.delete(mailQueue).where(within(mailQueue.id, p.mailIds));
  await tx.delete(leadSequenceEnrollments).where(within(leadSequenceEnrollments.id, p.enrollmentIds));
  await tx.delete(bookingChanges).where(eq(bookingChanges.email, p.email));
  await tx.delete(bookings).where(within(bookings.id, p.bookingIds));
  await tx.delete(chatConversations).where(within(chatConversations.id, p.conversationIds));
  await tx.delete(auditRequests).where(within(auditRequests.id, p.requestIds));
  await tx.delete(leadEvents).where(leadEventsOf(p));
  await tx.delete(leadNotes).where(eq(leadNotes.email, p.email));
  await tx.delete(leadPeople).where(eq(leadPeople.email, p.email));
  // Kept by triggers from the rows above; deleted here too, whatever the triggers left.
  await tx.delete(leadProfiles).where(eq(leadProfiles.email, p.email));
  await tx.delete(leadPersonStats).where(eq(leadPersonStats.email, p.email));
  await tx.delete(leadNoticeHolds).where(sql`lower(${leadNoticeHolds.email}) = ${p.email}`);
  await tx.delete(activityLog).where(activityOf(p));
  if (p.member) {
    await tx.delete(verifications).where(or(eq(verifications.value, p.member.id), contains(sql`${verifications.identifier}`, p.email)));
    await tx.delete(users).where(eq(users.id, p.member.id));
  }
  await tx.delete(leadAliases).where(eq(leadAliases.email, p.email));
  // An address merged into them goes too; its unsubscribe is kept under its own hash below.
  await tx.delete(mailUnsubscribes).where(within(mailUnsubscribes.email, [p.email, ...p.aliases]));
  // Its token hash is no SHA-256 of any token (not hex), so no link ever finds this row.
  for (const key of erasedKeys) {
    await tx
      .insert(mailUnsubscribes)
      .values({ email: key, tokenHash: `${key}:no-link`, unsubscribedAt: unsubscribedSince })
      .onConflictDoUpdate({ target: mailUnsubscribes.email, set: { unsubscribedAt: unsubscribedSince }, where: isNull(mailUnsubscribes.unsubscribedAt) });
  }
  return counts;
}

/** Of `keys` (erased key → address), the addresses that were erased here. */
export async function erasedAmong(keys: ReadonlyMap<string, string>, ex: Reader): Promise<Set<string>> {
  const found = new Set<string>();
  const all = [...keys.keys()];
  // In slices: a query takes at most 65,535 parameters, an import may bring more members.
  for (let i = 0; i < all.length; i += 5_000) {
    const rows = await ex.select({ key: mailUnsubscribes.email }).from(mailUnsubscribes).where(inArray(mailUnsubscribes.email, all.slice(i, i + 5_000)));
    for (const row of rows) found.add(keys.get(row.key)!);
  }
  return found;
}
