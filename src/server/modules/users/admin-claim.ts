/**
 * Who becomes admin on a new site: its owner, not whichever stranger signs up first. While no enabled
 * admin exists (none, or only disabled ones), every server start prints a one-time claim link to the log
 * (only the owner reads it); a verified user who opens it and confirms becomes admin, once — with
 * ADMIN_EMAIL set, only the account of that address. The link dies as soon as an enabled admin exists
 * (the claim, the first-verified-user rule, create-admin or an admin's promotion), and a restart
 * replaces it. Only a hash of the token is stored.
 *
 * One link for the whole site, however many processes serve it: the process that prints the link holds
 * the site-wide admin-claim lock for as long as it runs. Another instance (or worker) starting meanwhile
 * leaves that link alone and says where it is; once the printing process has ended (a restart), the next
 * start prints a new link.
 */
import { createHash, randomBytes } from 'node:crypto';
import { becomesFirstAdmin, isDesignatedAdminEmail } from '../../../shared/admin-rules';
import { ADMIN_CLAIM_PAGE, AUTH_FORM_PAGE } from '../../../shared/form-pages';
import { config } from '../../config';
import { dbHandle } from '../../db';
import { inProcessLocks, type HeldLock, type SiteLocks } from '../../db/advisory-lock';
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

export type ClaimAnnouncement =
  | { kind: 'printed'; url: string }
  /** Another running process printed the link (issuedAt: when; undefined if no claim is open). */
  | { kind: 'printed-elsewhere'; issuedAt: Date | undefined }
  | { kind: 'not-needed' }
  | { kind: 'failed' };

/** The claim lock this process holds, per lock set (one in the server; tests start several "processes"). */
const heldClaimLocks = new WeakMap<SiteLocks, HeldLock>();

const createAdminHint = 'npm run create-admin -- you@example.com';

/**
 * The start log's words for a site without an enabled admin, naming the way that applies (issue 20): on a
 * new site the first account to verify becomes admin by itself (or the ADMIN_EMAIL account does), and the
 * claim link is only the way round someone who signed up first; on a site with accounts but no enabled
 * admin the claim link is the way. `outbox`: no SMTP_URL, so the verification email lands in the outbox.
 */
export function adminClaimNotice(p: { siteUrl: string; claimUrl: string; adminEmail: string | undefined; accounts: number; outbox: boolean }): string {
  const signUp = new URL(`${AUTH_FORM_PAGE}?tab=signup`, p.siteUrl).href;
  const admin = new URL('/admin', p.siteUrl).href;
  const mail = p.outbox ? ' (without SMTP_URL the email is written to DATA_DIR/outbox/ and, on a local site, its link is printed in this log)' : '';
  const fallback = `the link works once; a restart prints a new one; or run: ${createAdminHint}`;
  if (p.adminEmail !== undefined) {
    return `This site has no admin yet. Sign up at ${signUp} as ${p.adminEmail} (ADMIN_EMAIL) and open the link in the verification email${mail}: that account becomes the admin by itself; then go to ${admin}. If that account is already verified, sign in and open ${p.claimUrl} instead (${fallback}).`;
  }
  if (becomesFirstAdmin({ email: '', adminEmail: undefined, accounts: p.accounts, enabledAdmins: 0 })) {
    return `This site has no admin yet. The first account that signs up and verifies its email becomes the admin by itself: sign up at ${signUp}, open the link in the verification email${mail}, then go to ${admin}. Only if someone else signed up first: open ${p.claimUrl} once your account is verified (${fallback}).`;
  }
  return `This site has no admin (or only disabled ones). Sign up and verify your email${mail}, then open ${p.claimUrl} to become its admin (${fallback}).`;
}

/**
 * At start-up: print the claim link while the site has no admin, unless another running process of this
 * site already did (then say where it is). A failure is logged, never fatal.
 */
export async function announceAdminClaim(siteUrl: string, locks: SiteLocks = dbHandle()?.locks ?? inProcessLocks): Promise<ClaimAnnouncement> {
  try {
    if ((await transaction((tx) => repo.countEnabledAdmins(tx))) > 0) {
      await issueAdminClaim(); // clears any claim left over
      return { kind: 'not-needed' };
    }
    // One start at a time from here: a process starting alongside the printer reads the link it wrote.
    const outcome = await locks.runExclusive('announceClaim', async () => {
      let held = heldClaimLocks.get(locks);
      if (!held) {
        held = await locks.tryHold('adminClaim');
        if (!held) return { kind: 'printed-elsewhere' as const, issuedAt: await transaction((tx) => repo.adminClaimIssuedAt(tx)) };
        heldClaimLocks.set(locks, held);
      }
      const token = await issueAdminClaim();
      if (!token) {
        heldClaimLocks.delete(locks);
        await held.release();
      }
      return { kind: 'issued' as const, token };
    });
    if (outcome.kind === 'printed-elsewhere') {
      const { issuedAt } = outcome;
      logger.warn(
        { adminClaimIssuedAt: issuedAt?.toISOString() },
        issuedAt
          ? `This site has no admin. Its claim link was printed at ${issuedAt.toISOString()} in the log of another running process of this site (another instance, or another worker of this one), and still works; or run: ${createAdminHint}.`
          : `This site has no admin, and another running instance holds the admin claim. Run: ${createAdminHint} (or restart that instance for a new claim link).`,
      );
      return outcome;
    }
    const { token } = outcome;
    if (!token) return { kind: 'not-needed' };
    const url = claimUrl(siteUrl, token);
    const accounts = await transaction((tx) => repo.countUsers(tx));
    logger.warn({ adminClaimUrl: url }, adminClaimNotice({ siteUrl, claimUrl: url, adminEmail: config().ADMIN_EMAIL, accounts, outbox: !config().SMTP_URL }));
    return { kind: 'printed', url };
  } catch (err) {
    logger.error({ err }, 'could not issue the admin claim link');
    return { kind: 'failed' };
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
  const profile = await transaction(async (tx) => {
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
    return { ...user, role: 'admin' as const };
  });
  // The claim is used up: this process need not hold the claim lock any longer.
  const locks = dbHandle()?.locks;
  const held = locks && heldClaimLocks.get(locks);
  if (held) {
    heldClaimLocks.delete(locks);
    await held.release().catch(() => {});
  }
  return profile;
}
