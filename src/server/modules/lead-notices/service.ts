/**
 * The team's mail about new leads (decision 057). Each admin gets a lead's notice on its own (with the
 * lead as Reply-To) while fewer than LEAD_NOTICES_PER_HOUR went to them in the last hour; past that the
 * hour's other leads wait in lead_notice_holds for one digest mail, a job of the durable queue that runs when
 * the hour's notices have left the window. A flood of forms then costs each admin a few mails an hour, and
 * no lead is lost: every one is in the admin lists at once, and in a notice or a digest.
 */
import { config } from '../../config';
import { db } from '../../db';
import { defineJobKind, doublingDelay, enqueueJob } from '../../jobs/queue';
import { logger } from '../../logger';
import { enqueueMail, queuedMailTimes } from '../../mail/queue';
import type { MailMessage } from '../../mail/templates';
import { NOTICE_WINDOW_MS, noticeRoute } from '../../../shared/mail-limits';
import { listAdmins } from '../audit/repository';
import { getSiteContent } from '../site/service';
import { leadNoticeDigestEmail, type HeldNotice } from './mails';
import * as repo from './repository';

export const LEAD_NOTICE_DIGEST_JOB = 'lead-notice-digest';
/** The mail queue's kind of a digest. */
export const LEAD_NOTICE_DIGEST_KIND = 'lead-notice-digest';
/** The notices (and digests) an admin's hourly count is made of. */
const NOTICE_MAIL_KINDS = ['audit-notification', 'chat-lead', LEAD_NOTICE_DIGEST_KIND] as const;

const log = logger.child({ module: 'lead-notices' });

export interface LeadNotice extends HeldNotice {
  kind: 'audit-request' | 'chat-lead';
  /** The mail queue's kind of the notice on its own ('audit-notification', 'chat-lead'). */
  mailKind: (typeof NOTICE_MAIL_KINDS)[number];
  /** The notice on its own, to one admin. */
  mailTo: (adminEmail: string) => MailMessage;
  /** Where the admin's reply to the notice goes: the lead. */
  replyTo: string;
}

/**
 * Tells every admin about a new lead, in the caller's transaction (the one that records the lead): a notice
 * of its own, or a place in the admin's next digest.
 */
export async function notifyAdmins(tx: repo.Executor, notice: LeadNotice, now: Date = new Date()): Promise<void> {
  const perHour = config().LEAD_NOTICES_PER_HOUR;
  for (const admin of await listAdmins(tx)) {
    await repo.lockAdmin(tx, admin.id);
    const waiting = await repo.oldestWaiting(admin.id, tx);
    const sent = await queuedMailTimes(admin.email, NOTICE_MAIL_KINDS, new Date(now.getTime() - NOTICE_WINDOW_MS), tx);
    const route = noticeRoute(sent, perHour, Boolean(waiting), now);
    if (route.send) {
      await enqueueMail(tx, { kind: notice.mailKind, ...notice.mailTo(admin.email), replyTo: notice.replyTo, at: now });
      continue;
    }
    const hold = await repo.insertHold(tx, { adminId: admin.id, kind: notice.kind, name: notice.name, email: notice.email, detail: notice.detail, url: notice.url, createdAt: now });
    // One digest per run of held notices: named after the first, so every later one finds it queued.
    const first = waiting ?? hold;
    await enqueueJob(tx, { kind: LEAD_NOTICE_DIGEST_JOB, id: `${LEAD_NOTICE_DIGEST_JOB}:${first.id}`, payload: { adminId: admin.id }, runAt: route.digestAt, ifAbsent: true });
  }
}

/**
 * The digest job's work: the admin's waiting notices in one mail, marked as told, in one transaction under
 * the admin's lock (a lead recorded meanwhile is either in this digest or starts the next). Returns how
 * many notices it told.
 */
export async function sendLeadNoticeDigest(adminId: string, now: Date = new Date()): Promise<number> {
  // Read before the transaction (PGlite has one connection).
  const { siteName } = await getSiteContent();
  const leadsUrl = new URL('/admin/leads', config().SITE_URL).toString();
  const told = await db().transaction(async (tx) => {
    await repo.lockAdmin(tx, adminId);
    const holds = await repo.waitingHolds(adminId, tx);
    if (holds.length === 0) return 0;
    const admin = (await listAdmins(tx)).find((a) => a.id === adminId);
    const ids = holds.map((h) => h.id);
    if (!admin) {
      // No longer an admin (or disabled): nobody to tell; the leads are in the lists.
      await repo.markDigested(tx, ids, '');
      return 0;
    }
    const mailId = crypto.randomUUID();
    await enqueueMail(tx, { id: mailId, kind: LEAD_NOTICE_DIGEST_KIND, ...leadNoticeDigestEmail(admin.email, holds, { siteName, leadsUrl, perHour: config().LEAD_NOTICES_PER_HOUR }), at: now });
    await repo.markDigested(tx, ids, mailId);
    return holds.length;
  });
  log.info({ adminId, told }, 'lead notice digest');
  return told;
}

defineJobKind<{ adminId: string }>(LEAD_NOTICE_DIGEST_JOB, {
  maxAttempts: 20,
  retryDelayMs: doublingDelay(30_000, 60 * 60_000),
  leaseMs: 5 * 60_000,
  run: async ({ adminId }, _job, now) => void (await sendLeadNoticeDigest(adminId, now)),
});
