/** Free-audit requests and their notes: data access only (Drizzle). Writes take the caller's transaction. */
import { and, asc, count, desc, eq, ilike, not, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { db } from '../../db';
import type { Database } from '../../db/client';
import { auditNotes, auditReports, auditRequests, leadEvents, leadPeople, siteAuditRuns, users, type Attribution } from '../../db/schema';
import type { ReportState } from '../../../shared/lead-profile';
import type { AuditListQuery } from '../../../shared/schemas/audit';
import { personAddressOf } from '../leads/aliases';
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
    // An address merged into a person joins that person (issue 39).
    email: event.email ? await personAddressOf(event.email, ex) : event.email,
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

/** Verified, active admins: who is notified of a new request and who can own a lead. */
export async function listAdmins(ex: Pick<Database, 'select'> = db()) {
  return ex
    .select({ id: users.id, email: users.email, name: users.name })
    .from(users)
    .where(and(eq(users.role, 'admin'), eq(users.emailVerified, true), eq(users.banned, false)))
    .orderBy(asc(users.name), asc(users.email));
}

const escapeLike = (q: string) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * The request's own columns as the subqueries below name them. Spelled out with the table: Drizzle writes a
 * column of a one-table query without it, and inside a subquery over another table "id" or "email" would
 * then name that table's column.
 */
const requestId = sql`${sql.identifier('audit_requests')}.${sql.identifier('id')}`;
const requestEmail = sql`${sql.identifier('audit_requests')}.${sql.identifier('email')}`;

/** A report of the request was sent (audit_reports_request_idx): the report's own table. */
const reportSent = sql`exists (select 1 from ${auditReports} where ${auditReports.requestId} = ${requestId})`;
/** A report of the request was opened by its reader. */
const reportOpened = sql`exists (select 1 from ${auditReports} where ${auditReports.requestId} = ${requestId} and ${auditReports.lastOpenedAt} is not null)`;

/** The requester's stage: the person's (lead_people, by the lower-cased email), 'new' while nobody set one. */
const personStage = sql<string>`coalesce((select ${leadPeople.stage} from ${leadPeople} where ${leadPeople.email} = lower(${requestEmail})), 'new')`;
const personOwner = alias(users, 'person_owner');

/**
 * Waiting for a report: none sent yet, and the person is not a client or not a fit (issue 35: the person's
 * stage, not a status of the request's own). The list's filter, the overview's Today and the Audit badge.
 */
export const waitingForReport: SQL = and(not(reportSent), sql`${personStage} not in ('client', 'not-a-fit')`)!;

export type AuditListFilter = Pick<AuditListQuery, 'q'> & Partial<Pick<AuditListQuery, 'report' | 'stage'>>;

const REPORT_FILTERS: Record<ReportState, SQL> = { waiting: waitingForReport, sent: reportSent, opened: reportOpened };

function whereOf(filter: AuditListFilter): SQL | undefined {
  const like = filter.q ? escapeLike(filter.q) : undefined;
  return and(
    filter.report ? REPORT_FILTERS[filter.report] : undefined,
    filter.stage ? sql`${personStage} = ${filter.stage}` : undefined,
    like ? or(ilike(auditRequests.fullName, like), ilike(auditRequests.email, like), ilike(auditRequests.businessName, like)) : undefined,
  );
}

const newestFirst = [desc(auditRequests.createdAt), desc(auditRequests.id)];

/** When a request's newest report went out and was last opened (null: none), for `reportStateOf`. */
export const requestReportColumns = {
  reportSentAt: sql<Date | null>`(select max(${auditReports.sentAt}) from ${auditReports} where ${auditReports.requestId} = ${requestId})`.mapWith(auditReports.sentAt),
  reportOpenedAt: sql<Date | null>`(select max(${auditReports.lastOpenedAt}) from ${auditReports} where ${auditReports.requestId} = ${requestId})`.mapWith(auditReports.sentAt),
};

/** What a list row shows beside the request: its report, its check's score, the person's stage and owner. */
const workColumns = {
  ...requestReportColumns,
  score: sql<number | null>`(select ${siteAuditRuns.score} from ${siteAuditRuns} where ${siteAuditRuns.requestId} = ${requestId} and ${siteAuditRuns.status} = 'done' and ${siteAuditRuns.score} is not null order by ${siteAuditRuns.finishedAt} desc nulls last limit 1)`,
  stage: personStage,
  ownerName: sql<string | null>`coalesce(nullif(${personOwner.name}, ''), ${personOwner.email})`,
  ownerEmail: personOwner.email,
};

/** One page of the admin list, newest first, with each request's report, score and the person's stage and owner. */
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
        website: auditRequests.website,
        phone: auditRequests.phone,
        goals: auditRequests.goals,
        ...workColumns,
      })
      .from(auditRequests)
      .leftJoin(leadPeople, eq(leadPeople.email, sql`lower(${auditRequests.email})`))
      .leftJoin(personOwner, eq(personOwner.id, leadPeople.ownerId))
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
    .select({ request: auditRequests, ...workColumns })
    .from(auditRequests)
    .leftJoin(leadPeople, eq(leadPeople.email, sql`lower(${auditRequests.email})`))
    .leftJoin(personOwner, eq(personOwner.id, leadPeople.ownerId))
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

/** A member's own requests, newest first (their dashboard): whether their report went out, nothing internal. */
export async function listRequestsOfUser(userId: string, limit: number, ex: Pick<Database, 'select'> = db()) {
  return ex
    .select({
      id: auditRequests.id,
      createdAt: auditRequests.createdAt,
      businessName: auditRequests.businessName,
      goals: auditRequests.goals,
      reportSentAt: requestReportColumns.reportSentAt,
    })
    .from(auditRequests)
    .where(eq(auditRequests.userId, userId))
    .orderBy(...newestFirst)
    .limit(limit);
}
