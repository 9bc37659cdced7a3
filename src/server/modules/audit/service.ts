/**
 * The free audit (PRODUCT.md "Free audit", "/admin/audit"). A request is validated with the shared rules,
 * refused past the rate limit, silently dropped when the honeypot is filled, and otherwise stored in ONE
 * transaction with its lead event and both emails (the mail queue sends them with retries: a mail failure
 * never loses the request). Every admin write re-checks the admin inside its transaction and is recorded in
 * the activity log with before and after. The requester's confirmation is capped per unconfirmed address
 * and the admins' notices per hour (decision 057); the request itself is always stored.
 */
import { config } from '../../config';
import { leadReplyTo, prospectReplyTo } from '../leads/reply-to';
import { db } from '../../db';
import { enqueueMail } from '../../mail/queue';
import { logger } from '../../logger';
import { insertActivity } from '../activity/repository';
import { withPublicLandingPage } from '../leads/attribution';
import { enrollInSequence, timingNow } from '../lead-sequences/schedule';
import { notifyAdmins } from '../lead-notices/service';
import { roomForAutomaticMail } from '../unconfirmed-mail/service';
import { consumeRateLimit } from '../rate-limit/service';
import { getSiteContent } from '../site/service';
import { requireAdmin } from '../users/service';
import { queueSiteAudit } from '../site-audit/service';
import { announceNewLead } from '../today/live';
import {
  AUDIT_PER_PAGE,
  auditFieldErrors,
  auditFormValuesOf,
  auditNoteSchema,
  auditRequestSchema,
  type AuditFieldErrors,
  type AuditFormValues,
  type AuditListQuery,
  type AuditSubmission,
} from '../../../shared/schemas/audit';
import { toCsv } from '../../../shared/csv';
import { REPORT_STATE_LABELS, reportStateOf } from '../../../shared/lead-profile';
import { normalizeEmail } from '../../../shared/lead-people';
import { isLeadStage, leadStageLabel, type LeadStage } from '../../../shared/schemas/lead-work';
import { findLeadWork, isLead } from '../leads/work-repository';
import { auditConfirmationEmail, auditNotificationEmail, businessTypeLabel, goalLabels } from './mails';
import { AUDIT_ENTITY } from './entity';
import { AuditError } from './errors';
import * as repo from './repository';

/** Five requests per client address in ten minutes: enough for a person, useless for a flood. */
export const AUDIT_RATE_LIMIT = { max: 5, windowSeconds: 600 } as const;
/** The most rows one CSV export holds. */
export const AUDIT_EXPORT_MAX_ROWS = 10_000;
export { AUDIT_ENTITY } from './entity';

export { AuditError, type AuditErrorCode } from './errors';

const notFound = () => new AuditError('NOT_FOUND', 'This audit request does not exist (any more).');

/** "in 45 seconds", "in 7 minutes": when a refused client may try again, in words. */
export function retryInWords(seconds: number): string {
  if (seconds < 60) return `in ${seconds} second${seconds === 1 ? '' : 's'}`;
  const minutes = Math.ceil(seconds / 60);
  return `in ${minutes} minute${minutes === 1 ? '' : 's'}`;
}

export type SubmitResult =
  | { kind: 'accepted'; id: string | undefined }
  | { kind: 'invalid'; fieldErrors: AuditFieldErrors; values: AuditFormValues }
  | { kind: 'rate-limited'; retryAfterSeconds: number; message: string; values: AuditFormValues };

export interface SubmitContext {
  /** The client's address (rate limit); undefined only outside a request (tests). */
  clientIp: string | undefined;
  /** The signed-in member sending it, read from the session on the server (never from the form). */
  userId: string | undefined;
}

export async function submitAuditRequest(submission: AuditSubmission, ctx: SubmitContext): Promise<SubmitResult> {
  const values = auditFormValuesOf(submission.fields);
  const parsed = auditRequestSchema.safeParse(submission.fields);
  if (!parsed.success) return { kind: 'invalid', fieldErrors: auditFieldErrors(parsed.error), values };

  const limit = await consumeRateLimit(`audit:${ctx.clientIp ?? 'unknown'}`, AUDIT_RATE_LIMIT);
  if (!limit.ok) {
    const message = `Too many requests from your connection. Please try again ${retryInWords(limit.retryAfterSeconds)}.`;
    return { kind: 'rate-limited', retryAfterSeconds: limit.retryAfterSeconds, message, values };
  }
  // A bot filled the field no person sees: it is told "thank you" and nothing is stored or sent.
  if (submission.honeypot.trim() !== '') {
    logger.info({ ip: ctx.clientIp }, 'audit request dropped: honeypot filled');
    return { kind: 'accepted', id: undefined };
  }

  const fields = parsed.data;
  const { siteName } = await getSiteContent();
  // Read before the transaction opens (the embedded database runs one statement at a time).
  const attribution = await withPublicLandingPage(db(), submission.attribution);
  const timing = await timingNow();
  const id = crypto.randomUUID();
  const consentAt = new Date();
  await db().transaction(async (tx) => {
    const member = ctx.userId ? await repo.findUserSummary(ctx.userId, tx) : undefined;
    await repo.insertAuditRequest(tx, {
      id,
      fullName: fields.fullName,
      email: fields.email,
      businessName: fields.businessName,
      website: fields.website ?? '',
      phone: fields.phone ?? '',
      businessType: fields.businessType,
      goals: fields.goals,
      message: fields.message,
      consentAt,
      userId: member?.id ?? null,
      attribution,
    });
    // The website's automatic check runs from the job queue within a minute (issue 22).
    if (fields.website) await queueSiteAudit(tx, { requestId: id, website: fields.website, requestedBy: null });
    await repo.insertLeadEvent(tx, {
      kind: 'audit-request',
      email: fields.email,
      name: fields.fullName,
      userId: member?.id ?? null,
      refId: id,
      attribution,
    });
    // Their consent on this form ("contacted … about my audit") is what a follow-up sequence may rely on.
    await enrollInSequence(tx, 'audit-requested', { email: fields.email, name: fields.fullName, refId: id, consentedAt: consentAt }, timing);
    // The requester's confirmation; an address nobody confirmed gets only a few automatic mails a day (decision 057).
    const room = await roomForAutomaticMail(tx, fields.email, consentAt);
    if (room.ok) await enqueueMail(tx, { kind: 'audit-confirmation', ...auditConfirmationEmail(fields, siteName), replyTo: await prospectReplyTo(tx, fields.email), at: consentAt });
    const adminUrl = new URL(`/admin/audit/${id}`, config().SITE_URL).toString();
    const notified = { ...fields, id, memberEmail: member?.email, attribution, confirmationHeld: !room.ok };
    await notifyAdmins(
      tx,
      {
        kind: 'audit-request',
        mailKind: 'audit-notification',
        name: fields.fullName,
        email: fields.email,
        detail: fields.businessName,
        url: adminUrl,
        replyTo: leadReplyTo({ name: fields.fullName, email: fields.email }),
        mailTo: (admin) => auditNotificationEmail(admin, notified, adminUrl, siteName),
      },
      consentAt,
    );
  });
  logger.info({ id, member: Boolean(ctx.userId) }, 'audit request received');
  await announceNewLead({ kind: 'audit-request', id });
  return { kind: 'accepted', id };
}

// ---------------------------------------------------------------------------------------------------------
// Admin reads.

export async function auditListPage(query: repo.AuditListFilter & Pick<AuditListQuery, 'page'>) {
  const { rows, total } = await repo.listAuditRequests(query, AUDIT_PER_PAGE, (query.page - 1) * AUDIT_PER_PAGE);
  return { rows, total, pages: Math.max(1, Math.ceil(total / AUDIT_PER_PAGE)) };
}

export async function auditRequestDetail(id: string) {
  const request = await repo.findAuditRequest(id);
  if (!request) return undefined;
  const email = normalizeEmail(request.email);
  const [notes, admins, member, work, lead] = await Promise.all([
    repo.listNotes(id),
    repo.listAdmins(),
    request.userId ? repo.findUserSummary(request.userId) : undefined,
    findLeadWork(email),
    isLead(email),
  ]);
  // One person, one stage, one owner (issue 35): the request shows the person's. The team's own requests
  // (an admin trying the form) are no lead (decision 032), so they have none.
  const stage: LeadStage = isLeadStage(work?.stage) ? work.stage : 'new';
  return { request, notes, admins, member, work: { email, isLead: lead, stage, ownerId: work?.ownerId ?? null } };
}

export const auditExportRows = (query: repo.AuditListFilter) => repo.exportAuditRequests(query, AUDIT_EXPORT_MAX_ROWS);

const CSV_HEADER = [
  'Received (UTC)',
  'Report',
  'Website score',
  'Stage',
  'Owner',
  'Full name',
  'Email',
  'Business name',
  'Website',
  'Phone',
  'Business type',
  'Goals',
  'Message',
  'Consent given (UTC)',
  'Member account',
  'Source page',
  'Referrer',
  'UTM source',
  'UTM medium',
  'UTM campaign',
  'UTM term',
  'UTM content',
  'Id',
];

/** The CSV export of the list as filtered (admin only; checked again here, not only by the route guard). */
export async function exportAuditCsv(actorId: string | undefined, query: repo.AuditListFilter): Promise<string> {
  await requireAdmin(actorId, db());
  const rows = await auditExportRows(query);
  return toCsv([
    CSV_HEADER,
    ...rows.map(({ request: r, reportSentAt, reportOpenedAt, score, stage, ownerEmail }) => {
      const a = r.attribution;
      return [
        r.createdAt,
        REPORT_STATE_LABELS[reportStateOf(reportSentAt, reportOpenedAt)],
        score ?? '',
        leadStageLabel(stage),
        ownerEmail ?? '',
        r.fullName,
        r.email,
        r.businessName,
        r.website,
        r.phone,
        businessTypeLabel(r.businessType),
        goalLabels(r.goals).join('; '),
        r.message,
        r.consentAt,
        r.userId ? 'yes' : 'no',
        a.sourcePage,
        a.referrer,
        a.utmSource,
        a.utmMedium,
        a.utmCampaign,
        a.utmTerm,
        a.utmContent,
        r.id,
      ];
    }),
  ]);
}

/** A member's own requests and whether their report went out (the dashboard). Notes, stage and owner stay internal. */
export const memberAuditRequests = (userId: string) => repo.listRequestsOfUser(userId, 50);

// ---------------------------------------------------------------------------------------------------------
// Admin writes.

export const requestLabel = (r: repo.AuditRequestRow) => `${r.fullName} (${r.businessName})`;

/** An admin write to one request: the admin re-checked and the request locked, in one transaction. */
export async function adminWrite<T>(actorId: string | undefined, requestId: string, work: (tx: repo.Executor, actor: Awaited<ReturnType<typeof requireAdmin>>, request: repo.AuditRequestRow) => Promise<T>) {
  return db().transaction(async (tx) => {
    const actor = await requireAdmin(actorId, tx);
    const request = await repo.lockAuditRequest(requestId, tx);
    if (!request) throw notFound();
    return work(tx, actor, request);
  });
}

/** An internal note with its author and time; never shown or sent to the requester. */
export async function addAuditNote(actorId: string | undefined, requestId: string, body: unknown) {
  const parsed = auditNoteSchema.safeParse({ body });
  if (!parsed.success) throw new AuditError('INVALID', 'Please correct the note.', { body: parsed.error.issues[0]!.message });
  return adminWrite(actorId, requestId, async (tx, actor, request) => {
    const note = await repo.insertNote(tx, { requestId: request.id, authorId: actor.id, authorName: actor.name.trim() || actor.email, body: parsed.data.body });
    await insertActivity(tx, {
      actorId: actor.id,
      actorEmail: actor.email,
      action: 'note',
      entityType: AUDIT_ENTITY,
      entityId: request.id,
      summary: `Note on ${requestLabel(request)}`,
      before: null,
      after: { note: parsed.data.body },
    });
    return note;
  });
}

