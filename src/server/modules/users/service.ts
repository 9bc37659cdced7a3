/**
 * Member profiles and roles. Every role change happens here, on the server, in one transaction holding
 * the users lock (PRODUCT.md "Deliberate differences" 2): the first verified user becomes admin while the
 * table holds at most one row (seed section 6; with ADMIN_EMAIL set, instead the account of that address
 * while no enabled admin exists: admin-rules.ts); otherwise an admin promotes, or the site's owner uses
 * the one-time admin claim printed to the server log while no enabled admin exists (admin-claim.ts), or
 * the create-admin command; the last enabled admin can never be demoted. Taking the admin role away or
 * disabling an account ends its live streams once the change has committed (docs/decisions/017).
 */
import { becomesFirstAdmin, isEnabledAdmin, removesLastEnabledAdmin } from '../../../shared/admin-rules';
import { DISABLE_REASON_MAX } from '../../../shared/admin-users';
import { fieldErrorsOf, profileSchema, type FieldErrors } from '../../../shared/auth-schemas';
import { config } from '../../config';
import { db } from '../../db';
import type { UserRole } from '../../db/schema';
import { logger } from '../../logger';
import { insertActivity } from '../activity/repository';
import { endStreamsOfUser } from '../live-grants';
import * as repo from './repository';
import type { Profile } from './repository';

export type { Profile } from './repository';
export { FIRST_ADMIN_MAX_USERS } from '../../../shared/admin-rules';

export type UsersErrorCode =
  | 'NO_USER_LOGGED_IN'
  | 'NOT_FOUND'
  | 'NOT_ALLOWED'
  | 'NOT_VERIFIED'
  | 'LAST_ADMIN'
  | 'CANNOT_DISABLE_SELF'
  | 'CLAIM_INVALID'
  | 'ADMIN_EXISTS'
  | 'NOT_ADMIN'
  | 'NOT_ADMIN_EMAIL';

const MESSAGES: Record<UsersErrorCode, string> = {
  NO_USER_LOGGED_IN: 'No user logged in',
  NOT_FOUND: 'User not found',
  NOT_ALLOWED: 'Only an admin can change roles',
  NOT_VERIFIED: 'The user must verify their email first',
  LAST_ADMIN: 'The last admin cannot be removed: promote another admin first',
  CANNOT_DISABLE_SELF: 'You cannot disable your own account',
  CLAIM_INVALID: 'This admin link is not valid any more. Restart the server to print a new one, or run npm run create-admin.',
  ADMIN_EXISTS: 'This site already has an admin: ask them to make you an admin.',
  NOT_ADMIN: 'Only an admin can do this.',
  NOT_ADMIN_EMAIL: "This site's admin account is set to another email address (ADMIN_EMAIL): log in with that account to use this link.",
};

export class UsersError extends Error {
  constructor(readonly code: UsersErrorCode) {
    super(MESSAGES[code]);
    this.name = 'UsersError';
  }
}

export const transaction = <T>(work: (tx: repo.Executor) => Promise<T>) =>
  db().transaction(async (tx) => {
    await repo.lockUsers(tx);
    return work(tx);
  });

/** The profile of a signed-in user, or undefined (the seed: "Profile fetch fails → logged; no profile"). */
export async function getProfile(userId: string): Promise<Profile | undefined> {
  try {
    return await repo.findProfile(userId);
  } catch (err) {
    logger.error({ err, userId }, 'profile fetch failed');
    return undefined;
  }
}

/**
 * Runs after a user verifies their email. Returns true when this user became the first admin. A failure
 * is logged, never thrown: verification itself must still succeed (seed section 8).
 */
export async function promoteIfFirstVerifiedUser(userId: string): Promise<boolean> {
  try {
    return await transaction(async (tx) => {
      const user = await repo.findProfile(userId, tx);
      if (!user || !user.emailVerified || user.banned || user.role === 'admin') return false;
      const accounts = await repo.countUsers(tx);
      const enabledAdmins = await repo.countEnabledAdmins(tx);
      if (!becomesFirstAdmin({ email: user.email, adminEmail: config().ADMIN_EMAIL, accounts, enabledAdmins })) return false;
      await repo.updateRole(userId, 'admin', tx);
      await repo.replaceAdminClaims(undefined, tx); // the site has its admin: the start-up claim link dies
      logger.info({ userId }, 'first verified user promoted to admin');
      return true;
    });
  } catch (err) {
    logger.error({ err, userId }, 'first-user admin promotion failed');
    return false;
  }
}

async function loadActor(actorId: string | undefined, tx: repo.Executor) {
  const actor = actorId ? await repo.findProfile(actorId, tx) : undefined;
  if (!actor || actor.banned) throw new UsersError('NO_USER_LOGGED_IN');
  return actor;
}

async function loadTarget(targetId: string, tx: repo.Executor) {
  const target = await repo.findProfile(targetId, tx);
  if (!target) throw new UsersError('NOT_FOUND');
  return target;
}

/** The activity log's entity type for accounts (entries link to /admin/users/{id}). */
export const USER_ENTITY = 'user';

const labelOf = (p: Profile) => (p.name.trim() ? `${p.name.trim()} (${p.email})` : p.email);

/** One activity entry about an account, in the transaction of the change it records. */
export async function recordUserActivity(
  tx: repo.Executor,
  actor: Profile,
  target: Profile,
  entry: { action: string; summary: string; before: unknown; after: unknown },
) {
  await insertActivity(tx, { actorId: actor.id, actorEmail: actor.email, entityType: USER_ENTITY, entityId: target.id, ...entry, summary: `${labelOf(target)}: ${entry.summary}` });
}

const isAdmin = isEnabledAdmin;

/**
 * The acting admin, inside the caller's transaction: every admin write checks it on the server, whatever
 * the route guard already decided (a role taken away a moment ago counts).
 */
export async function requireAdmin(actorId: string | undefined, tx: repo.Executor): Promise<Profile> {
  const actor = await loadActor(actorId, tx);
  if (!isAdmin(actor)) throw new UsersError('NOT_ADMIN');
  return actor;
}

/**
 * The manual "promote to admin": an admin may promote any verified user. Nobody else: the seed's
 * self-promotion "when no admin exists" would hand a new site to whichever stranger signs up first, so
 * the owner claims it with the link only they can read in the server log (admin-claim.ts).
 */
export async function promote(actorId: string | undefined, targetId: string): Promise<Profile> {
  return transaction(async (tx) => {
    const actor = await loadActor(actorId, tx);
    const target = await loadTarget(targetId, tx);
    if (!isAdmin(actor)) throw new UsersError('NOT_ALLOWED');
    if (!target.emailVerified) throw new UsersError('NOT_VERIFIED');
    if (target.role !== 'admin') {
      await repo.updateRole(target.id, 'admin', tx);
      await recordUserActivity(tx, actor, target, { action: 'role', summary: 'member → admin', before: { role: target.role }, after: { role: 'admin' } });
    }
    logger.info({ actorId: actor.id, targetId: target.id }, 'user promoted to admin');
    return { ...target, role: 'admin' };
  });
}

/**
 * Admin-only role change; demoting the last enabled admin is refused (a disabled admin is no admin to fall
 * back on). A demotion ends the account's live streams after it commits.
 */
export async function setRole(actorId: string | undefined, targetId: string, role: UserRole): Promise<Profile> {
  if (role === 'admin') return promote(actorId, targetId);
  const { profile, demoted } = await transaction(async (tx) => {
    const actor = await loadActor(actorId, tx);
    if (!isAdmin(actor)) throw new UsersError('NOT_ALLOWED');
    const target = await loadTarget(targetId, tx);
    if (target.role !== 'admin') return { profile: target, demoted: false };
    if (removesLastEnabledAdmin(target, await repo.countEnabledAdmins(tx, target.id))) throw new UsersError('LAST_ADMIN');
    await repo.updateRole(target.id, 'user', tx);
    await recordUserActivity(tx, actor, target, { action: 'role', summary: 'admin → member', before: { role: 'admin' }, after: { role: 'user' } });
    logger.info({ actorId: actor.id, targetId: target.id }, 'admin demoted to user');
    return { profile: { ...target, role: 'user' as const }, demoted: true };
  });
  // After the commit: the stream's reconnect must read the new role.
  if (demoted) await endStreamsOfUser(targetId);
  return profile;
}

/**
 * Disables an account and ends all its sessions and live streams at once; better-auth's admin plugin
 * refuses new sign-ins. The last enabled admin is kept, as on demotion: today the actor is always another
 * enabled admin, so this keeps the one rule in force should self-service or scripts disable accounts.
 */
export async function disableUser(actorId: string | undefined, targetId: string, reason: string | null = null): Promise<{ sessionsEnded: number }> {
  const result = await transaction(async (tx) => {
    const actor = await loadActor(actorId, tx);
    if (!isAdmin(actor)) throw new UsersError('NOT_ALLOWED');
    if (actor.id === targetId) throw new UsersError('CANNOT_DISABLE_SELF');
    const target = await loadTarget(targetId, tx);
    if (removesLastEnabledAdmin(target, await repo.countEnabledAdmins(tx, target.id))) throw new UsersError('LAST_ADMIN');
    const banReason = reason?.trim().slice(0, DISABLE_REASON_MAX) || null;
    await repo.setBanned(targetId, true, banReason, tx);
    const sessionsEnded = await repo.deleteSessionsOf(targetId, tx);
    await recordUserActivity(tx, actor, target, {
      action: 'disable',
      summary: `account disabled${banReason ? ` (${banReason})` : ''}, ${sessionsEnded} session${sessionsEnded === 1 ? '' : 's'} ended`,
      before: { disabled: target.banned },
      after: { disabled: true, reason: banReason },
    });
    logger.info({ actorId: actor.id, targetId }, 'account disabled');
    return { sessionsEnded };
  });
  // After the commit (the sessions were deleted in SQL, so better-auth's session hook did not see them).
  await endStreamsOfUser(targetId);
  return result;
}

export async function enableUser(actorId: string | undefined, targetId: string): Promise<{ changed: boolean }> {
  return transaction(async (tx) => {
    const actor = await loadActor(actorId, tx);
    if (!isAdmin(actor)) throw new UsersError('NOT_ALLOWED');
    const target = await loadTarget(targetId, tx);
    if (!target.banned) return { changed: false };
    await repo.setBanned(targetId, false, null, tx);
    await recordUserActivity(tx, actor, target, { action: 'enable', summary: 'account enabled', before: { disabled: true }, after: { disabled: false } });
    logger.info({ actorId: actor.id, targetId }, 'account enabled');
    return { changed: true };
  });
}

/** The member's own profile edit: names, phone, website (trimmed; blank clears). */
export async function updateProfile(
  userId: string | undefined,
  input: unknown,
): Promise<{ ok: true; profile: Profile } | { ok: false; fieldErrors: FieldErrors }> {
  if (!userId) throw new UsersError('NO_USER_LOGGED_IN');
  const parsed = profileSchema.safeParse(input);
  if (!parsed.success) return { ok: false, fieldErrors: fieldErrorsOf(parsed.error) };
  const { firstName, lastName, phone, website } = parsed.data;
  await repo.updateProfileFields(userId, { firstName, lastName, phone: phone ?? null, website: website ?? null });
  const profile = await repo.findProfile(userId);
  if (!profile) throw new UsersError('NO_USER_LOGGED_IN');
  return { ok: true, profile };
}

/**
 * `npm run create-admin -- email`: the operator, with server access, vouches for the address, so the
 * account is also marked verified (admin routes require a verified email).
 */
export async function makeAdminByEmail(email: string): Promise<Profile> {
  return transaction(async (tx) => {
    const user = await repo.findProfileByEmail(email, tx);
    if (!user) throw new UsersError('NOT_FOUND');
    await repo.markVerified(user.id, tx);
    await repo.updateRole(user.id, 'admin', tx);
    await repo.setBanned(user.id, false, null, tx);
    await repo.replaceAdminClaims(undefined, tx);
    return { ...user, emailVerified: true, role: 'admin', banned: false };
  });
}
