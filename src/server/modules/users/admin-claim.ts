/**
 * Who becomes admin on a new site: its owner, not whichever stranger signs up first. While no enabled
 * admin exists (none, or only disabled ones), every server start prints a one-time claim link to the log
 * (only the owner reads it); a verified user who opens it and confirms becomes admin, once — with
 * ADMIN_EMAIL set, only the account of that address. The link dies as soon as an enabled admin exists
 * (the claim, the first-verified-user rule, create-admin or an admin's promotion), and a restart
 * replaces it. Only a hash of the token is stored.
 */
import { createHash, randomBytes } from 'node:crypto';
import { isDesignatedAdminEmail } from '../../../shared/admin-rules';
import { ADMIN_CLAIM_PAGE } from '../../../shared/form-pages';
import { config } from '../../config';
import { logger } from '../../logger';
import * as repo from './repository';
import { transaction, UsersError, type Profile } from './service';

const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');

/** Tokens are 43 base64url characters; anything else is not worth a database read. */
export function isWellFormedClaimToken(token: unknown): token is string {
  return typeof token === 'string' && /^[A-Za-z0-9_-]{43}$/.test(token);
}

export function claimUrl(siteUrl: string, token: string): string {
  return new URL(`${ADMIN_CLAIM_PAGE}?token=${token}`, siteUrl).href;
}

/** A new claim token when no enabled admin exists (replacing any earlier one); undefined otherwise. */
export async function issueAdminClaim(): Promise<string | undefined> {
  return transaction(async (tx) => {
    if ((await repo.countEnabledAdmins(tx)) > 0) {
      await repo.replaceAdminClaims(undefined, tx);
      return undefined;
    }
    const token = randomBytes(32).toString('base64url');
    await repo.replaceAdminClaims(hashOf(token), tx);
    return token;
  });
}

/** At start-up: print the claim link while the site has no admin. A failure is logged, never fatal. */
export async function announceAdminClaim(siteUrl: string): Promise<void> {
  try {
    const token = await issueAdminClaim();
    if (!token) return;
    const adminEmail = config().ADMIN_EMAIL;
    logger.warn(
      { adminClaimUrl: claimUrl(siteUrl, token) },
      `This site has no admin (or only disabled ones). Sign up${adminEmail ? ` as ${adminEmail} (ADMIN_EMAIL)` : ''} and verify your email, then open ${claimUrl(siteUrl, token)} to become its admin (the link works once; a restart prints a new one; or run: npm run create-admin -- you@example.com).`,
    );
  } catch (err) {
    logger.error({ err }, 'could not issue the admin claim link');
  }
}

export type ClaimStatus = 'valid' | 'invalid' | 'admin-exists' | 'other-email';

/** What the claim page shows the signed-in user (their email) before they confirm. */
export async function adminClaimStatus(token: unknown, email?: string): Promise<ClaimStatus> {
  return transaction(async (tx) => {
    if ((await repo.countEnabledAdmins(tx)) > 0) return 'admin-exists';
    if (!isWellFormedClaimToken(token) || !(await repo.hasAdminClaim(hashOf(token), tx))) return 'invalid';
    return email === undefined || isDesignatedAdminEmail(email, config().ADMIN_EMAIL) ? 'valid' : 'other-email';
  });
}

/** The signed-in, verified user holding the claim becomes admin; the claim is used up. */
export async function claimAdmin(userId: string | undefined, token: unknown): Promise<Profile> {
  return transaction(async (tx) => {
    const user = userId ? await repo.findProfile(userId, tx) : undefined;
    if (!user || user.banned) throw new UsersError('NO_USER_LOGGED_IN');
    if ((await repo.countEnabledAdmins(tx)) > 0) throw new UsersError('ADMIN_EXISTS');
    // Looked up by its hash: the database never holds (nor compares) the token itself.
    if (!isWellFormedClaimToken(token) || !(await repo.hasAdminClaim(hashOf(token), tx))) throw new UsersError('CLAIM_INVALID');
    if (!user.emailVerified) throw new UsersError('NOT_VERIFIED');
    // Only after the token: a stranger without it learns nothing about ADMIN_EMAIL.
    if (!isDesignatedAdminEmail(user.email, config().ADMIN_EMAIL)) throw new UsersError('NOT_ADMIN_EMAIL');
    await repo.updateRole(user.id, 'admin', tx);
    await repo.replaceAdminClaims(undefined, tx);
    logger.info({ userId: user.id }, 'admin claimed with the start-up link');
    return { ...user, role: 'admin' };
  });
}
