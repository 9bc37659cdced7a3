/**
 * Passwords moved in from Firebase (decision 015): sign-in verifies a `$firebase-scrypt$` hash with the
 * project's parameters, and the first successful email sign-in replaces it with our argon2id hash, so the
 * member never notices the move and the Firebase hash is gone after one sign-in. A failed re-hash is
 * logged (never with a hash, a password or the signer key) and does not fail the sign-in: the next one
 * tries again.
 */
import type { BetterAuthPlugin } from 'better-auth';
import { createAuthMiddleware, isAPIError } from 'better-auth/api';
import { and, eq } from 'drizzle-orm';
import type { Database } from '../db/client';
import { accounts } from '../db/schema';
import { logger } from '../logger';
import { firebaseHashConfig } from '../modules/firebase-auth/hash-config';
import { isFirebaseHash, verifyFirebasePassword } from './firebase-password';
import { hashPassword, verifyPassword } from './password-hash';

const log = logger.child({ module: 'auth', feature: 'firebase-passwords' });

/** What may be logged about an error: its class and database code, never its message (SQL parameters). */
function safeError(err: unknown) {
  const name = err instanceof Error ? err.name : typeof err;
  const cause = err instanceof Error ? (err.cause as { code?: unknown } | undefined) : undefined;
  return { error: name, ...(typeof cause?.code === 'string' ? { code: cause.code } : {}) };
}

/** better-auth's `password.verify`: our PHC hashes, or a Firebase hash with the project's config. */
export function verifyStoredPassword(db: Database) {
  return async ({ hash, password }: { hash: string; password: string }): Promise<boolean> => {
    if (!isFirebaseHash(hash)) return verifyPassword({ hash, password });
    let config;
    try {
      config = await firebaseHashConfig(db);
    } catch (err) {
      log.error(safeError(err), 'Firebase hash config unreadable: imported passwords cannot be verified');
      return false;
    }
    if (!config) log.error('no Firebase hash config saved: imported passwords cannot be verified (run the importer with --auth-hash-config)');
    return verifyFirebasePassword(hash, password, config);
  };
}

/**
 * Replaces the member's credential password with an argon2id hash of `password` if it still holds a
 * Firebase hash. Compare-and-set on the old value: a password reset in between wins. True when replaced.
 */
export async function upgradeFirebasePassword(db: Database, userId: string, password: string): Promise<boolean> {
  const credential = and(eq(accounts.userId, userId), eq(accounts.providerId, 'credential'));
  const [account] = await db.select({ id: accounts.id, password: accounts.password }).from(accounts).where(credential);
  if (!account?.password || !isFirebaseHash(account.password)) return false;
  const hash = await hashPassword(password);
  const updated = await db
    .update(accounts)
    .set({ password: hash, updatedAt: new Date() })
    .where(and(eq(accounts.id, account.id), eq(accounts.password, account.password)))
    .returning({ id: accounts.id });
  return updated.length > 0;
}

export const firebasePasswordUpgrade = (db: Database) =>
  ({
    id: 'agency-firebase-password-upgrade',
    hooks: {
      after: [
        {
          matcher: (ctx) => ctx.path === '/sign-in/email',
          handler: createAuthMiddleware(async (ctx) => {
            const returned = ctx.context.returned;
            if (!returned || isAPIError(returned) || returned instanceof Response) return;
            const userId = (returned as { user?: { id?: unknown } }).user?.id;
            const password = (ctx.body as { password?: unknown } | undefined)?.password;
            if (typeof userId !== 'string' || typeof password !== 'string') return;
            try {
              if (await upgradeFirebasePassword(db, userId, password)) log.info({ userId }, 'Firebase password re-hashed with argon2id');
            } catch (err) {
              log.error({ userId, ...safeError(err) }, 'Firebase password re-hash failed; the sign-in stands');
            }
          }),
        },
      ],
    },
  }) satisfies BetterAuthPlugin;
