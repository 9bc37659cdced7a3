/** Users data access (Drizzle only). Functions take an executor so the service can run them in one transaction. */
import { and, asc, count, desc, eq, gt, ilike, ne, or, sql, type SQL } from 'drizzle-orm';
import type { UserListFilter, UserSort } from '../../../shared/admin-users';
import { db } from '../../db';
import type { Database } from '../../db/client';
import { adminClaims, auditRequests, chatConversations, sessions, users, type User, type UserRole } from '../../db/schema';
import { requestReportColumns } from '../audit/repository';

export type Executor = Pick<Database, 'select' | 'update' | 'delete' | 'execute' | 'insert'>;

export const profileColumns = {
  id: users.id,
  email: users.email,
  emailVerified: users.emailVerified,
  firstName: users.firstName,
  lastName: users.lastName,
  name: users.name,
  role: users.role,
  phone: users.phone,
  website: users.website,
  signupSource: users.signupSource,
  banned: users.banned,
  createdAt: users.createdAt,
};

export type Profile = Pick<User, keyof typeof profileColumns>;

export async function findProfile(id: string, ex: Executor = db()): Promise<Profile | undefined> {
  const [row] = await ex.select(profileColumns).from(users).where(eq(users.id, id)).limit(1);
  return row;
}

export async function findProfileByEmail(email: string, ex: Executor = db()): Promise<Profile | undefined> {
  const [row] = await ex.select(profileColumns).from(users).where(eq(users.email, email.trim().toLowerCase())).limit(1);
  return row;
}

/**
 * Serializes role changes and first-user promotion: SHARE ROW EXCLUSIVE conflicts with itself and with
 * the ROW EXCLUSIVE lock an INSERT takes, so no sign-up or other promotion can change the counts we read
 * until the transaction ends. Cheap here: the lock is held for two counts and one update.
 */
export async function lockUsers(ex: Executor) {
  await ex.execute(sql`lock table ${users} in share row exclusive mode`);
}

export async function countUsers(ex: Executor): Promise<number> {
  const [row] = await ex.select({ n: count() }).from(users);
  return row?.n ?? 0;
}

/**
 * Admins who can act as one (isEnabledAdmin in src/shared/admin-rules.ts, in SQL): verified and not
 * disabled. `excluding` leaves one account out ("another enabled admin than the one being removed").
 */
export async function countEnabledAdmins(ex: Executor, excluding?: string): Promise<number> {
  const [row] = await ex
    .select({ n: count() })
    .from(users)
    .where(and(eq(users.role, 'admin'), eq(users.emailVerified, true), eq(users.banned, false), excluding !== undefined ? ne(users.id, excluding) : undefined));
  return row?.n ?? 0;
}

export async function updateRole(id: string, role: UserRole, ex: Executor) {
  await ex.update(users).set({ role, updatedAt: new Date() }).where(eq(users.id, id));
}

export async function markVerified(id: string, ex: Executor) {
  await ex.update(users).set({ emailVerified: true, updatedAt: new Date() }).where(and(eq(users.id, id), eq(users.emailVerified, false)));
}

export async function updateProfileFields(
  id: string,
  fields: { firstName: string; lastName: string; phone: string | null; website: string | null },
  ex: Executor = db(),
) {
  await ex
    .update(users)
    .set({ ...fields, name: `${fields.firstName} ${fields.lastName}`, updatedAt: new Date() })
    .where(eq(users.id, id));
}

export async function setBanned(id: string, banned: boolean, reason: string | null, ex: Executor) {
  await ex
    .update(users)
    .set({ banned, banReason: banned ? reason : null, banExpires: null, updatedAt: new Date() })
    .where(eq(users.id, id));
}

/** Ends every session of the account; returns how many there were. */
export async function deleteSessionsOf(userId: string, ex: Executor): Promise<number> {
  const deleted = await ex.delete(sessions).where(eq(sessions.userId, userId)).returning({ id: sessions.id });
  return deleted.length;
}

export async function replaceAdminClaims(tokenHash: string | undefined, ex: Executor) {
  await ex.delete(adminClaims);
  if (tokenHash) await ex.insert(adminClaims).values({ tokenHash });
}

/** When the open claim was issued (undefined when none is open). */
export async function adminClaimIssuedAt(ex: Executor): Promise<Date | undefined> {
  const [row] = await ex.select({ createdAt: adminClaims.createdAt }).from(adminClaims).limit(1);
  return row?.createdAt;
}

export async function hasAdminClaim(tokenHash: string, ex: Executor): Promise<boolean> {
  const [row] = await ex.select({ tokenHash: adminClaims.tokenHash }).from(adminClaims).where(eq(adminClaims.tokenHash, tokenHash)).limit(1);
  return row !== undefined;
}

// ---- The admin's users list and a person's page (reads) ------------------------------------------------

/** What the admin's list, its CSV export and a person's page show of an account. */
export const adminUserColumns = {
  ...profileColumns,
  banReason: users.banReason,
  updatedAt: users.updatedAt,
};

export type AdminUserRow = Pick<User, keyof typeof adminUserColumns>;

const likeContaining = (q: string) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

function userListWhere(f: UserListFilter): SQL | undefined {
  const like = f.q ? likeContaining(f.q) : undefined;
  return and(
    like ? or(ilike(users.name, like), ilike(users.email, like)) : undefined,
    f.role ? eq(users.role, f.role) : undefined,
    f.verified ? eq(users.emailVerified, f.verified === 'verified') : undefined,
    f.status ? eq(users.banned, f.status === 'disabled') : undefined,
  );
}

/** Every order ends with the id, so pages never repeat or skip a row between equal values. */
const USER_ORDER: Record<UserSort, SQL[]> = {
  newest: [desc(users.createdAt), desc(users.id)],
  oldest: [asc(users.createdAt), asc(users.id)],
  name: [asc(sql`lower(${users.name})`), asc(users.email), asc(users.id)],
  email: [asc(users.email), asc(users.id)],
};

/** One page of accounts matching the filter, in the filter's order. */
export async function listUsers(f: UserListFilter, limit: number, offset: number, ex: Pick<Database, 'select'> = db()): Promise<AdminUserRow[]> {
  return ex
    .select(adminUserColumns)
    .from(users)
    .where(userListWhere(f))
    .orderBy(...USER_ORDER[f.sort])
    .limit(limit)
    .offset(offset);
}

export async function countMatchingUsers(f: UserListFilter, ex: Pick<Database, 'select'> = db()): Promise<number> {
  const [row] = await ex.select({ n: count() }).from(users).where(userListWhere(f));
  return row?.n ?? 0;
}

export async function findAdminUser(id: string, ex: Pick<Database, 'select'> = db()): Promise<AdminUserRow | undefined> {
  const [row] = await ex.select(adminUserColumns).from(users).where(eq(users.id, id)).limit(1);
  return row;
}

/** The account's sessions that have not expired, newest first (sessions_user_idx). */
export async function listActiveSessions(userId: string, limit: number, now = new Date(), ex: Pick<Database, 'select'> = db()) {
  const where = and(eq(sessions.userId, userId), gt(sessions.expiresAt, now));
  const [rows, [total]] = await Promise.all([
    ex
      .select({
        id: sessions.id,
        createdAt: sessions.createdAt,
        updatedAt: sessions.updatedAt,
        expiresAt: sessions.expiresAt,
        ipAddress: sessions.ipAddress,
        userAgent: sessions.userAgent,
      })
      .from(sessions)
      .where(where)
      .orderBy(desc(sessions.updatedAt), desc(sessions.id))
      .limit(limit),
    ex.select({ n: count() }).from(sessions).where(where),
  ]);
  return { rows, total: total?.n ?? 0 };
}

/** Their free-audit requests, newest first (audit_requests_user_idx). */
export async function listAuditRequestsOf(userId: string, limit: number, ex: Pick<Database, 'select'> = db()) {
  const where = eq(auditRequests.userId, userId);
  const [rows, [total]] = await Promise.all([
    ex
      .select({ id: auditRequests.id, businessName: auditRequests.businessName, createdAt: auditRequests.createdAt, ...requestReportColumns })
      .from(auditRequests)
      .where(where)
      .orderBy(desc(auditRequests.createdAt), desc(auditRequests.id))
      .limit(limit),
    ex.select({ n: count() }).from(auditRequests).where(where),
  ]);
  return { rows, total: total?.n ?? 0 };
}

/** Their chat conversations, newest first (chat_conversations_user_idx). */
export async function listConversationsOf(userId: string, limit: number, ex: Pick<Database, 'select'> = db()) {
  const where = eq(chatConversations.userId, userId);
  const [rows, [total]] = await Promise.all([
    ex
      .select({
        id: chatConversations.id,
        status: chatConversations.status,
        createdAt: chatConversations.createdAt,
        lastMessageAt: chatConversations.lastMessageAt,
        unreadForAdmin: chatConversations.unreadForAdmin,
      })
      .from(chatConversations)
      .where(where)
      .orderBy(desc(chatConversations.createdAt), desc(chatConversations.id))
      .limit(limit),
    ex.select({ n: count() }).from(chatConversations).where(where),
  ]);
  return { rows, total: total?.n ?? 0 };
}
