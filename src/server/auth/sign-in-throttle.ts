/**
 * Sign-in guessing, limited per account as well as per client address (better-auth's limiter keys on the
 * address alone, so a few addresses would give unlimited guesses at one account). Failures are counted
 * per email address (known or not, so the limit tells nothing about which accounts exist) in a fixed
 * window; a successful sign-in clears the count.
 */
import { createHash } from 'node:crypto';
import type { BetterAuthPlugin } from 'better-auth';
import { APIError, createAuthMiddleware, isAPIError } from 'better-auth/api';
import { eq, sql } from 'drizzle-orm';
import { tooManyAttemptsMessage } from '../../shared/auth-messages';
import type { Database } from '../db/client';
import { signInFailures } from '../db/schema';

export const SIGN_IN_ACCOUNT_LIMIT = { failures: 10, windowSeconds: 15 * 60 } as const;

const SIGN_IN_PATH = '/sign-in/email';

export function accountKey(email: unknown): string | undefined {
  const normalized = typeof email === 'string' ? email.trim().toLowerCase() : '';
  return normalized ? createHash('sha256').update(normalized).digest('hex') : undefined;
}

/** Seconds until the account may be tried again, or 0 when it may be tried now. */
export function secondsLocked(row: { failures: number; windowStartedAt: Date } | undefined, now: number, limit = SIGN_IN_ACCOUNT_LIMIT): number {
  if (!row || row.failures < limit.failures) return 0;
  const ends = row.windowStartedAt.getTime() + limit.windowSeconds * 1000;
  return ends > now ? Math.ceil((ends - now) / 1000) : 0;
}

export const signInThrottle = (db: Database, limit = SIGN_IN_ACCOUNT_LIMIT) =>
  ({
    id: 'agency-sign-in-throttle',
    hooks: {
      before: [
        {
          matcher: (ctx) => ctx.path === SIGN_IN_PATH,
          handler: createAuthMiddleware(async (ctx) => {
            const key = accountKey((ctx.body as { email?: unknown } | undefined)?.email);
            if (!key) return;
            const [row] = await db.select().from(signInFailures).where(eq(signInFailures.accountKey, key)).limit(1);
            const retryAfter = secondsLocked(row, Date.now(), limit);
            if (retryAfter > 0) {
              throw new APIError(
                'TOO_MANY_REQUESTS',
                { code: 'TOO_MANY_REQUESTS', message: tooManyAttemptsMessage(retryAfter), retryAfter },
                { 'X-Retry-After': String(retryAfter) },
              );
            }
          }),
        },
      ],
      after: [
        {
          matcher: (ctx) => ctx.path === SIGN_IN_PATH,
          handler: createAuthMiddleware(async (ctx) => {
            const key = accountKey((ctx.body as { email?: unknown } | undefined)?.email);
            if (!key) return;
            const returned = ctx.context.returned;
            if (!isAPIError(returned)) {
              await db.delete(signInFailures).where(eq(signInFailures.accountKey, key));
              return;
            }
            // Only a wrong password (or unknown address) counts; bad input and disabled accounts do not.
            if (returned.statusCode !== 401) return;
            const expired = sql`${signInFailures.windowStartedAt} < now() - make_interval(secs => ${limit.windowSeconds})`;
            await db
              .insert(signInFailures)
              .values({ accountKey: key, failures: 1, windowStartedAt: new Date() })
              .onConflictDoUpdate({
                target: signInFailures.accountKey,
                set: {
                  failures: sql`case when ${expired} then 1 else ${signInFailures.failures} + 1 end`,
                  windowStartedAt: sql`case when ${expired} then now() else ${signInFailures.windowStartedAt} end`,
                },
              });
          }),
        },
      ],
    },
  }) satisfies BetterAuthPlugin;
