/** Free-audit requests and their notes: data access only (Drizzle). Writes take the caller's transaction. */
import { and, asc, count, desc, eq, ilike, ne, not, or, sql, type SQL } from 'drizzle-orm';
import { db } from '../../db';
import type { Database } from '../../db/client';
import { auditNotes, auditReports, auditRequests, leadEvents, users, type Attribution } from '../../db/schema';
import type { AuditListQuery } from '../../../shared/schemas/audit';
import { boundLeadAttribution } from '../leads/attribution';

export type Executor = Pick<Database, 'select' | 'insert' | 'update' | 'delete' | 'execute'>;
export type AuditRequestRow = typeof auditRequests.$inferSelect;
export type NewAuditRequest = typeof auditRequests.$inferInsert;
export type AuditNoteRow = typeof auditNotes.$inferSelect;

export async function insertAuditRequest(ex: Executor, row: NewAuditRequest): Promise<AuditRequestRow> {
  const [inserted] = await ex.insert(auditRequests).values(row).returning();
  return inserted!;
}

/**
 * The one writer of lead_events (audit requests, chat leads, sign-ups, book-a-call clicks): the
 * attribution is bounded here (src/server/modules/leads/attribution.ts), so no caller can store more.
 */
export async function insertLeadEvent(ex: Executor, event: { kind: string; email: string; name: string; userId: string | null; refId: string; attribution: Attribution }) {
  const a = await boundLeadAttribution(ex, event.attribution);
  await ex.insert(leadEvents).values({
    id: crypto.randomUUID(),
    kind: event.kind,
    email: event.email,
    name: event.name,
    userId: event.userId,
    refId: event.refId,
    sourcePage: a.sourcePage ?? '',
    referrer: a.referrer ?? '',
    utmSource: a.utmSource ?? '',
    utmMedium: a.utmMedium ?? '',
    utmCampaign: a.utmCampaign ?? '',
    utmTerm: a.utmTerm ?? '',
    utmContent: a.utmContent ?? '',
  });
}

/** Verified, active admins: who is notified of a new request and who a request can be assigned to. */
export async function listAdmins(ex: Pick<Database, 'select'> = db()) {
  return ex
    .select({ id: users.id, email: users.email, name: users.name })
    .from(users)
    .where(and(eq(users.role, 'admin'), eq(users.emailVerified, true), eq(users.banned, false)))
    .orderBy(asc(users.name), asc(users.email));
}

const escapeLike = (q: string) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** A report of the request was sent (audit_reports_request_idx): the report's own table, never the status. */
const reportSent = sql`exists (select 1 from ${auditReports} where ${auditReports.requestId} = ${auditRequests.id})`;

/** Waiting for a report: none sent yet, and not closed (the list's filter, the overview's Today, the Audit badge). */
export const waitingForReport: SQL = and(ne(auditRequests.status, 'closed'), not(reportSent))!;

export type AuditListFilter = Pick<AuditListQuery, 'q' | 'status'> & Partial<Pick<AuditListQuery, 'report'>>;

function whereOf(filter: AuditListFilter): SQL | undefined {
  const like = filter.q ? escapeLike(filter.q) : undefined;
  return and(
    filter.status ? eq(auditRequests.status, filter.status) : undefined,
    filter.report === 'waiting' ? waitingForReport : filter.report === 'sent' ? reportSent : undefined,
    like ? or(ilike(auditRequests.fullName, like), ilike(auditRequests.email, like), ilike(auditRequests.businessName, like)) : undefined,
  );
}

const newestFirst = [desc(auditRequests.createdAt), desc(auditRequests.id)];

const assignee = users;

/** One page of the admin list, newest first, with the assigned admin's name. */
export async function listAuditRequests(filter: AuditListFilter, limit: number, offset: number, ex: Pick<Database, 'select'> = db()) {
  const where = whereOf(filter);
  const [rows, [total]] = await Promise.all([
    ex
      .select({
        id: auditRequests.id,
        createdAt: auditRequests.createdAt,
        fullName: auditRequests.fullName,
        email: auditRequests.email,
        businessName: auditRequests.businessName,
        businessType: auditRequests.businessType,
        goals: auditRequests.goals,
        status: auditRequests.status,
        assigneeName: assignee.name,
        assigneeEmail: assignee.email,
      })
      .from(auditRequests)
      .leftJoin(assignee, eq(assignee.id, auditRequests.assignedTo))
      .where(where)
      .orderBy(...newestFirst)
      .limit(limit)
      .offset(offset),
    ex.select({ n: count() }).from(auditRequests).where(where),
  ]);
  return { rows, total: total?.n ?? 0 };
}

/** Every matching request with every field (the CSV export), newest first, at most `limit`. */
export async function exportAuditRequests(filter: AuditListFilter, limit: number, ex: Pick<Database, 'select'> = db()) {
  return ex
    .select({ request: auditRequests, assigneeEmail: assignee.email })
    .from(auditRequests)
    .leftJoin(assignee, eq(assignee.id, auditRequests.assignedTo))
    .where(whereOf(filter))
    .orderBy(...newestFirst)
    .limit(limit);
}

export async function findAuditRequest(id: string, ex: Pick<Database, 'select'> = db()): Promise<AuditRequestRow | undefined> {
  const [row] = await ex.select().from(auditRequests).where(eq(auditRequests.id, id)).limit(1);
  return row;
}

/** The row locked for the rest of the transaction: two admins changing one request take turns. */
export async function lockAuditRequest(id: string, ex: Executor): Promise<AuditRequestRow | undefined> {
  const [row] = await ex.select().from(auditRequests).where(eq(auditRequests.id, id)).limit(1).for('update');
  return row;
}

export async function updateAuditRequest(id: string, values: Partial<Pick<AuditRequestRow, 'status' | 'assignedTo'>>, ex: Executor) {
  await ex
    .update(auditRequests)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(auditRequests.id, id));
}

export async function insertNote(ex: Executor, note: Omit<typeof auditNotes.$inferInsert, 'id' | 'createdAt'>): Promise<AuditNoteRow> {
  const [row] = await ex
    .insert(auditNotes)
    .values({ id: crypto.randomUUID(), ...note })
    .returning();
  return row!;
}

/** A request's notes, oldest first (a conversation among the team). */
export async function listNotes(requestId: string, ex: Pick<Database, 'select'> = db()) {
  return ex.select().from(auditNotes).where(eq(auditNotes.requestId, requestId)).orderBy(asc(auditNotes.createdAt), asc(auditNotes.id));
}

export async function findUserSummary(id: string, ex: Pick<Database, 'select'> = db()) {
  const [row] = await ex.select({ id: users.id, email: users.email, name: users.name }).from(users).where(eq(users.id, id)).limit(1);
  return row;
}

/** A member's own requests, newest first (their dashboard): no notes, no assignee. */
export async function listRequestsOfUser(userId: string, limit: number, ex: Pick<Database, 'select'> = db()) {
  return ex
    .select({
      id: auditRequests.id,
      createdAt: auditRequests.createdAt,
      businessName: auditRequests.businessName,
      goals: auditRequests.goals,
      status: auditRequests.status,
    })
    .from(auditRequests)
    .where(eq(auditRequests.userId, userId))
    .orderBy(...newestFirst)
    .limit(limit);
}
