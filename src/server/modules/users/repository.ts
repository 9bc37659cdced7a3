/** Users data access (Drizzle only). Functions take an executor so the service can run them in one transaction. */
import { and, count, eq, sql } from 'drizzle-orm';
import { db } from '../../db';
import type { Database } from '../../db/client';
import { adminClaims, sessions, users, type User, type UserRole } from '../../db/schema';

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

export async function countAdmins(ex: Executor): Promise<number> {
  const [row] = await ex.select({ n: count() }).from(users).where(eq(users.role, 'admin'));
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

export async function deleteSessionsOf(userId: string, ex: Executor) {
  await ex.delete(sessions).where(eq(sessions.userId, userId));
}

export async function replaceAdminClaims(tokenHash: string | undefined, ex: Executor) {
  await ex.delete(adminClaims);
  if (tokenHash) await ex.insert(adminClaims).values({ tokenHash });
}

export async function hasAdminClaim(tokenHash: string, ex: Executor): Promise<boolean> {
  const [row] = await ex.select({ tokenHash: adminClaims.tokenHash }).from(adminClaims).where(eq(adminClaims.tokenHash, tokenHash)).limit(1);
  return row !== undefined;
}
