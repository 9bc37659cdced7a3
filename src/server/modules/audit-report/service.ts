/**
 * The report an owner makes of a website check and sends (issue 22, decision 044). The draft (summary, a
 * note per check, checks left out) is kept per request; "Send report" freezes it with the newest finished
 * run behind a private link, mails the link, and sets the request to "report sent", in one transaction.
 * Opening the link is counted on the report and is a lead event ("report opened") on the person's timeline.
 */
import { isbot } from 'isbot';
import { prospectReplyTo } from '../leads/reply-to';
import { config } from '../../config';
import { db } from '../../db';
import { enqueueMail } from '../../mail/queue';
import { logger } from '../../logger';
import { insertActivity } from '../activity/repository';
import { AUDIT_ENTITY } from '../audit/entity';
import { AuditError } from '../audit/errors';
import { findAuditRequest, insertLeadEvent, type AuditRequestRow } from '../audit/repository';
import { markContacted } from '../leads/work';
import { adminWrite, requestLabel } from '../audit/service';
import { listActivePackages, listServices } from '../catalog/repository';
import { getSiteContent } from '../site/service';
import { siteTimeZone } from '../site/time-zone';
import { enrollInSequence, timingNow } from '../lead-sequences/schedule';
import { announceTodayChange } from '../today/live';
import { findRun, newestDoneRun, type SiteAuditRunRow } from '../site-audit/repository';
import type { AuditFindings } from '../site-audit/findings';
import type { LeadKind } from '../../../shared/lead-events';
import { EMPTY_REPORT_DRAFT, REPORT_PATH_PREFIX, reportDraftSchema, type ReportDraft } from '../../../shared/schemas/audit-report';
import { reportDocument, suggestedSummary, type ReportDocument } from './document';
import { auditReportEmail } from './mails';
import { matchOffers, type Offer } from './offers';
import * as repo from './repository';
import { hashReportToken, isReportToken, newReportToken } from './token';

const log = logger.child({ module: 'audit-report' });
export const REPORT_OPENED_KIND: LeadKind = 'report-opened';
/** Openings closer together than this are one visit: one lead event, every opening still counted. */
export const REPORT_OPENING_QUIET_MS = 60 * 60_000;
const DAY_MS = 86_400_000;
/** The most reports a member's dashboard lists. */
const MEMBER_REPORTS_MAX = 20;

function parseDraft(input: unknown): ReportDraft {
  const parsed = reportDraftSchema.safeParse(input);
  if (parsed.success) return parsed.data;
  const fieldErrors: Record<string, string> = {};
  for (const issue of parsed.error.issues) fieldErrors[issue.path.join('.') || 'summary'] ??= issue.message;
  throw new AuditError('INVALID', 'Please correct the report.', fieldErrors);
}

const noFinishedRun = () => new AuditError('CONFLICT', 'There is no finished website check to report on yet. Run the check first.');

/** The owner's draft of a request's report (a suggested summary until first saved), and the reports already sent. */
export async function reportEditorView(requestId: string, suggestFrom?: { findings: AuditFindings; businessName: string }) {
  const [draft, sent] = await Promise.all([repo.findDraft(requestId), repo.reportsOfRequest(requestId)]);
  // Until the owner saves a draft, the summary starts as one written from the top fixes (suggested: true).
  if (!draft && suggestFrom) return { draft: { ...EMPTY_REPORT_DRAFT, summary: suggestedSummary(suggestFrom.findings, suggestFrom.businessName) }, suggested: true, sent };
  return { draft: draft ?? EMPTY_REPORT_DRAFT, suggested: false, sent };
}

/** Saves the draft; recorded in the activity log with what it was before. */
export async function saveReportDraft(actorId: string | undefined, requestId: string, input: unknown): Promise<ReportDraft> {
  const draft = parseDraft(input);
  return adminWrite(actorId, requestId, async (tx, actor, request) => {
    const before = (await repo.findDraft(request.id, tx)) ?? EMPTY_REPORT_DRAFT;
    await repo.saveDraft(tx, request.id, draft, actor.id);
    await insertActivity(tx, {
      actorId: actor.id,
      actorEmail: actor.email,
      action: 'report-draft',
      entityType: AUDIT_ENTITY,
      entityId: request.id,
      summary: `${requestLabel(request)}: report draft saved`,
      before,
      after: draft,
    });
    return draft;
  });
}

/**
 * Saves the draft and sends the report of the newest finished check: a new private link (the token is in
 * the mail only), the mail queued, a person still New made Contacted, all or nothing.
 */
export async function sendAuditReport(actorId: string | undefined, requestId: string, input: unknown): Promise<{ reportId: string; sentTo: string; expiresAt: Date }> {
  const draft = parseDraft(input);
  const [{ siteName, bookingUrl }, timeZone, timing] = await Promise.all([getSiteContent(), siteTimeZone(), timingNow()]);
  const result = await adminWrite(actorId, requestId, async (tx, actor, request) => {
    const run = await newestDoneRun(request.id, tx);
    if (!run) throw noFinishedRun();
    await repo.saveDraft(tx, request.id, draft, actor.id);
    const { token, hash } = newReportToken();
    const id = crypto.randomUUID();
    const sentAt = new Date();
    const expiresAt = new Date(sentAt.getTime() + config().AUDIT_REPORT_TTL_DAYS * DAY_MS);
    await repo.insertReport(tx, { id, requestId: request.id, runId: run.id, tokenHash: hash, ...draft, sentTo: request.email, sentBy: actor.id, sentAt, expiresAt });
    const url = new URL(`${REPORT_PATH_PREFIX}${token}`, config().SITE_URL).toString();
    await enqueueMail(tx, { kind: 'audit-report', ...auditReportEmail(request.email, { url, expiresAt, bookingUrl, siteName, timeZone }), replyTo: await prospectReplyTo(tx, request.email) });
    // The request's consent ("contacted … about my audit") covers the follow-ups about its report.
    await enrollInSequence(tx, 'report-sent', { email: request.email, name: request.fullName, refId: request.id, consentedAt: request.consentAt }, timing);
    // A report sent is a first contact: a person still New becomes Contacted (the person's stage, issue 35).
    const contacted = await markContacted(tx, request.email, actor);
    await insertActivity(tx, {
      actorId: actor.id,
      actorEmail: actor.email,
      action: 'report-sent',
      entityType: AUDIT_ENTITY,
      entityId: request.id,
      summary: `${requestLabel(request)}: report sent to ${request.email} (score ${run.score ?? '–'})`,
      before: null,
      after: { reportId: id, runId: run.id, sentTo: request.email, expiresAt: expiresAt.toISOString(), ...(contacted ? { stage: 'contacted' } : {}) },
    });
    return { reportId: id, sentTo: request.email, expiresAt };
  });
  log.info({ requestId, reportId: result.reportId }, 'audit report sent');
  await announceTodayChange();
  return result;
}

/**
 * A new private link to the newest report sent to this (lower-cased) email, for a mail an admin writes to
 * the lead: the links are stored hashed, so the old one cannot be given again. The report is sent anew as it
 * was (same run and text, a fresh expiry) in the caller's transaction; undefined when none was ever sent.
 */
export async function newLinkToLatestReport(tx: repo.Executor, email: string, actorId: string | null): Promise<string | undefined> {
  const latest = await repo.latestReportSentTo(email, tx);
  if (!latest) return undefined;
  const { token, hash } = newReportToken();
  const sentAt = new Date();
  await repo.insertReport(tx, {
    id: crypto.randomUUID(),
    requestId: latest.requestId,
    runId: latest.runId,
    tokenHash: hash,
    summary: latest.summary,
    notes: latest.notes,
    hidden: latest.hidden,
    sentTo: latest.sentTo,
    sentBy: actorId,
    sentAt,
    expiresAt: new Date(sentAt.getTime() + config().AUDIT_REPORT_TTL_DAYS * DAY_MS),
  });
  return new URL(`${REPORT_PATH_PREFIX}${token}`, config().SITE_URL).toString();
}

// ---------------------------------------------------------------------------------------------------------
// Reading a report: the requester's link, the member's dashboard, the admin's preview.

export interface ReportPage {
  businessName: string;
  website: string;
  checkedAt: Date | null;
  document: ReportDocument;
  bookingUrl: string;
  siteName: string;
  /** The site's public contact address, printed at the foot of the report ('' when none is set). */
  contactEmail: string;
  expiresAt?: Date | undefined;
  /** The site's time zone: the report's dates are its days, and the one time it shows names it. */
  timeZone: string;
}

/** The agency's services, then its active packages, in the admin's order: what findings are matched to. */
async function agencyOffers(): Promise<Offer[]> {
  const [services, packages] = await Promise.all([listServices(), listActivePackages()]);
  return [
    ...services.map((s) => ({ kind: 'service' as const, id: s.id, name: s.name, shortText: s.shortText })),
    ...packages.map((p) => ({ kind: 'package' as const, id: p.id, name: p.name, shortText: p.shortText })),
  ];
}

async function reportPage(request: AuditRequestRow, run: SiteAuditRunRow, draft: ReportDraft, expiresAt?: Date): Promise<ReportPage> {
  const [{ siteName, bookingUrl, footer }, offers, timeZone] = await Promise.all([getSiteContent(), agencyOffers(), siteTimeZone()]);
  return {
    contactEmail: footer.contactEmail,
    businessName: request.businessName,
    website: run.url,
    checkedAt: run.finishedAt,
    document: reportDocument(run.findings as AuditFindings, draft, matchOffers(offers)),
    bookingUrl,
    siteName,
    expiresAt,
    timeZone,
  };
}

/** The admin's preview: the saved draft on the newest finished run, exactly as it would be sent. */
export async function previewReport(requestId: string): Promise<ReportPage | undefined> {
  const request = await findAuditRequest(requestId);
  if (!request) return undefined;
  const [run, draft] = await Promise.all([newestDoneRun(request.id), repo.findDraft(request.id)]);
  return run ? reportPage(request, run, draft ?? EMPTY_REPORT_DRAFT) : undefined;
}

async function sentReportPage(report: repo.AuditReportRow): Promise<ReportPage | undefined> {
  const [request, run] = await Promise.all([findAuditRequest(report.requestId), findRun(report.runId)]);
  if (!request || !run?.findings) return undefined;
  return reportPage(request, run, { summary: report.summary, notes: report.notes, hidden: report.hidden }, report.expiresAt);
}

export type OpenedReport = { kind: 'ok'; page: ReportPage } | { kind: 'expired'; siteName: string; bookingUrl: string } | { kind: 'not-found' };

/**
 * The requester's link. A person's opening (a GET by a browser, not a link checker or a bot) is counted,
 * and a new visit is a "report opened" lead event, in the same transaction.
 */
export async function openReport(token: string | undefined, visit: { method: string; userAgent: string | null }, now: Date = new Date()): Promise<OpenedReport> {
  if (!isReportToken(token)) return { kind: 'not-found' };
  const report = await repo.findByTokenHash(hashReportToken(token));
  if (!report) return { kind: 'not-found' };
  if (report.expiresAt <= now) {
    const { siteName, bookingUrl } = await getSiteContent();
    return { kind: 'expired', siteName, bookingUrl };
  }
  const page = await sentReportPage(report);
  if (!page) return { kind: 'not-found' };
  if (visit.method === 'GET' && visit.userAgent && !isbot(visit.userAgent)) await countOpening(report, now);
  return { kind: 'ok', page };
}

async function countOpening(report: repo.AuditReportRow, now: Date): Promise<void> {
  try {
    await db().transaction(async (tx) => {
      const isNews = await repo.recordOpening(tx, report.id, now, REPORT_OPENING_QUIET_MS);
      if (!isNews) return;
      const request = await findAuditRequest(report.requestId, tx);
      if (!request) return;
      await insertLeadEvent(tx, { kind: REPORT_OPENED_KIND, email: request.email, name: request.fullName, userId: request.userId, refId: report.requestId, attribution: {} });
    });
    // The overview's "reports opened without a reply" follows it.
    await announceTodayChange();
  } catch (err) {
    // The reader still gets the report; the count is what is lost.
    log.error({ err, reportId: report.id }, 'report opening not recorded');
  }
}

/** A member's reports still open (of requests they sent signed in or with their address). */
export const memberReports = (member: { id: string; email: string }) => repo.reportsOfMember(member, new Date(), MEMBER_REPORTS_MAX);

/** One of the member's own reports (an opening like the link's); undefined for anyone else's, an expired one or none. */
export async function memberReport(member: { id: string; email: string }, reportId: string, now: Date = new Date()): Promise<ReportPage | undefined> {
  const mine = (await memberReports(member)).some((r) => r.id === reportId);
  const report = mine ? await repo.findReport(reportId) : undefined;
  const page = report && (await sentReportPage(report));
  if (report && page) await countOpening(report, now);
  return page;
}
