/**
 * The admin's users screens (PRODUCT.md "Admin"): the list as filtered in the URL, paginated in SQL; a
 * person's page with their sessions, audit requests and chats; the CSV export of the filtered list,
 * streamed page by page; and sending the verification email again. The role, disable and enable writes
 * live in service.ts with the rules they keep (the last admin, not oneself).
 */
import { toCsv } from '../../../shared/csv';
import { USER_CSV_HEADER, USERS_PER_PAGE, userCsvRow, type UserListFilter, type UserListQuery } from '../../../shared/admin-users';
import { getAuth } from '../../auth';
import { db } from '../../db';
import { logger } from '../../logger';
import { retryInWords } from '../audit/service';
import { consumeRateLimit } from '../rate-limit/service';
import * as repo from './repository';
import { recordUserActivity, requireAdmin, UsersError } from './service';

/** How many of each kind a person's page lists (with the total beside it). */
export const USER_PAGE_LIMITS = { sessions: 20, auditRequests: 20, conversations: 20 } as const;
/** Rows per database round trip of the CSV export. */
export const USER_EXPORT_BATCH = 500;
/**
 * Verification emails an admin may send one account: a person who lost the first mail gets another at
 * once, a double click or an impatient admin cannot fill their inbox.
 */
export const RESEND_VERIFICATION_LIMIT = { max: 3, windowSeconds: 15 * 60 } as const;

export async function userListPage(query: UserListQuery) {
  const [rows, total] = await Promise.all([
    repo.listUsers(query, USERS_PER_PAGE, (query.page - 1) * USERS_PER_PAGE),
    repo.countMatchingUsers(query),
  ]);
  return { rows, total, pages: Math.max(1, Math.ceil(total / USERS_PER_PAGE)) };
}

/** A person's page, or undefined for an id that is no account. */
export async function userDetail(userId: string, now = new Date()) {
  const user = await repo.findAdminUser(userId);
  if (!user) return undefined;
  const [sessions, auditRequests, conversations] = await Promise.all([
    repo.listActiveSessions(userId, USER_PAGE_LIMITS.sessions, now),
    repo.listAuditRequestsOf(userId, USER_PAGE_LIMITS.auditRequests),
    repo.listConversationsOf(userId, USER_PAGE_LIMITS.conversations),
  ]);
  return { user, sessions, auditRequests, conversations };
}

/**
 * The accounts matching the list's filter, in its order, as CSV text chunks: the header first, then one
 * chunk per batch read from the database (never the whole table in memory). Admin only: checked before
 * the first row, not only by the route guard.
 */
export async function userCsvChunks(actorId: string | undefined, filter: UserListFilter): Promise<AsyncGenerator<string>> {
  await requireAdmin(actorId, db());
  return (async function* () {
    yield toCsv([USER_CSV_HEADER]);
    for (let offset = 0; ; offset += USER_EXPORT_BATCH) {
      const rows = await repo.listUsers(filter, USER_EXPORT_BATCH, offset);
      if (rows.length > 0) yield toCsv(rows.map(userCsvRow));
      if (rows.length < USER_EXPORT_BATCH) return;
    }
  })();
}

export type SendVerification = (email: string) => Promise<unknown>;

/** better-auth's own endpoint: the same signed link and mail as at sign-up. */
const sendWithBetterAuth: SendVerification = (email) => getAuth().api.sendVerificationEmail({ body: { email } });

export class ResendRefusedError extends Error {
  constructor(
    readonly code: 'ALREADY_VERIFIED' | 'RATE_LIMITED' | 'DISABLED',
    message: string,
  ) {
    super(message);
    this.name = 'ResendRefusedError';
  }
}

/**
 * Sends an unverified account its verification email again. The mail goes out before the activity entry
 * is written (better-auth reads the account outside our transaction, and PGlite has one connection), so
 * the log only ever records mails that were handed to the mailer.
 */
export async function resendVerificationEmail(actorId: string | undefined, targetId: string, send: SendVerification = sendWithBetterAuth) {
  await requireAdmin(actorId, db());
  const target = await repo.findProfile(targetId);
  if (!target) throw new UsersError('NOT_FOUND');
  if (target.emailVerified) throw new ResendRefusedError('ALREADY_VERIFIED', 'This email address is already verified.');
  if (target.banned) throw new ResendRefusedError('DISABLED', 'This account is disabled: enable it before sending a verification email.');
  const limit = await consumeRateLimit(`admin-verification:${target.id}`, RESEND_VERIFICATION_LIMIT);
  if (!limit.ok) {
    throw new ResendRefusedError('RATE_LIMITED', `A verification email was sent to this address a moment ago. You can send another ${retryInWords(limit.retryAfterSeconds)}.`);
  }
  await send(target.email);
  await db().transaction(async (tx) => {
    const actor = await requireAdmin(actorId, tx);
    await recordUserActivity(tx, actor, target, { action: 'verification-email', summary: `verification email sent to ${target.email}`, before: null, after: null });
  });
  logger.info({ actorId, targetId }, 'verification email sent again by an admin');
  return { email: target.email };
}
