/** Report drafts and sent reports: data access only (Drizzle). Writes take the caller's transaction. */
import { and, desc, eq, gt, isNull, lt, or, sql } from 'drizzle-orm';
import { db } from '../../db';
import type { Database } from '../../db/client';
import { auditReportDrafts, auditReports, auditRequests } from '../../db/schema';
import type { ReportDraft } from '../../../shared/schemas/audit-report';

export type Executor = Pick<Database, 'select' | 'insert' | 'update'>;
export type AuditReportRow = typeof auditReports.$inferSelect;
export type NewAuditReport = typeof auditReports.$inferInsert;

export async function findDraft(requestId: string, ex: Pick<Database, 'select'> = db()): Promise<ReportDraft | undefined> {
  const [row] = await ex
    .select({ summary: auditReportDrafts.summary, notes: auditReportDrafts.notes, hidden: auditReportDrafts.hidden })
    .from(auditReportDrafts)
    .where(eq(auditReportDrafts.requestId, requestId));
  return row;
}

export async function saveDraft(ex: Executor, requestId: string, draft: ReportDraft, updatedBy: string): Promise<void> {
  const values = { ...draft, updatedAt: new Date(), updatedBy };
  await ex
    .insert(auditReportDrafts)
    .values({ requestId, ...values })
    .onConflictDoUpdate({ target: auditReportDrafts.requestId, set: values });
}

export async function insertReport(ex: Executor, report: NewAuditReport): Promise<void> {
  await ex.insert(auditReports).values(report);
}

/** Every report sent for a request, newest first. */
export function reportsOfRequest(requestId: string, ex: Pick<Database, 'select'> = db()): Promise<AuditReportRow[]> {
  return ex.select().from(auditReports).where(eq(auditReports.requestId, requestId)).orderBy(desc(auditReports.sentAt), desc(auditReports.id));
}

export async function findByTokenHash(tokenHash: string, ex: Pick<Database, 'select'> = db()): Promise<AuditReportRow | undefined> {
  const [row] = await ex.select().from(auditReports).where(eq(auditReports.tokenHash, tokenHash));
  return row;
}

export async function findReport(id: string, ex: Pick<Database, 'select'> = db()): Promise<AuditReportRow | undefined> {
  const [row] = await ex.select().from(auditReports).where(eq(auditReports.id, id));
  return row;
}

/**
 * Counts an opening. Returns true when this opening should be a lead event: the first one, or the first
 * after `quietMs` without one (a reader scrolling back and forth is one visit, a return days later is news).
 */
export async function recordOpening(ex: Executor, id: string, now: Date, quietMs: number): Promise<boolean> {
  const quietSince = new Date(now.getTime() - quietMs);
  const [news] = await ex
    .update(auditReports)
    .set({ openCount: sql`${auditReports.openCount} + 1`, firstOpenedAt: sql`coalesce(${auditReports.firstOpenedAt}, ${now})`, lastOpenedAt: now })
    .where(and(eq(auditReports.id, id), or(isNull(auditReports.lastOpenedAt), lt(auditReports.lastOpenedAt, quietSince))))
    .returning({ id: auditReports.id });
  if (news) return true;
  await ex
    .update(auditReports)
    .set({ openCount: sql`${auditReports.openCount} + 1`, lastOpenedAt: now })
    .where(eq(auditReports.id, id));
  return false;
}

/**
 * A member's reports still open: of the requests they sent signed in, or sent with their (verified) email
 * address. Newest first, with the business they were for.
 */
export function reportsOfMember(member: { id: string; email: string }, now: Date, limit: number, ex: Pick<Database, 'select'> = db()) {
  return ex
    .select({ id: auditReports.id, sentAt: auditReports.sentAt, expiresAt: auditReports.expiresAt, businessName: auditRequests.businessName, requestId: auditRequests.id })
    .from(auditReports)
    .innerJoin(auditRequests, eq(auditRequests.id, auditReports.requestId))
    .where(and(or(eq(auditRequests.userId, member.id), eq(sql`lower(${auditRequests.email})`, member.email.toLowerCase())), gt(auditReports.expiresAt, now)))
    .orderBy(desc(auditReports.sentAt))
    .limit(limit);
}


/** The newest report sent to this (lower-cased) email, of any of their requests. */
export async function latestReportSentTo(email: string, ex: Pick<Database, 'select'> = db()): Promise<AuditReportRow | undefined> {
  const [row] = await ex
    .select()
    .from(auditReports)
    .where(sql`lower(${auditReports.sentTo}) = ${email}`)
    .orderBy(desc(auditReports.sentAt))
    .limit(1);
  return row;
}
