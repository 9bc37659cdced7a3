/**
 * A disabled (banned) account is refused on every request, not only at sign-in: its sessions read as
 * signed out everywhere (the middleware's readSession, get-session) and are deleted the first time one
 * is seen, and endpoints that act for the session refuse it. Disabling already deletes the sessions; this
 * closes the gaps (a sign-in racing the disable, a ban set outside the admin screen).
 */
import type { BetterAuthPlugin } from 'better-auth';
import { APIError, createAuthMiddleware, getSessionFromCtx, isAPIError } from 'better-auth/api';
import { deleteSessionCookie } from 'better-auth/cookies';
import { AUTH_MESSAGES } from '../../shared/auth-messages';
import { isDisabledAccount } from '../guards/session';

/** Endpoints that act for the signed-in member. */
const SESSION_ENDPOINTS = new Set(['/send-verification-email', '/account/change-password']);

type SessionLike = { user?: Record<string, unknown> & { id?: unknown } } | null | undefined;

const disabledUserOf = (found: SessionLike) =>
  found?.user && isDisabledAccount(found.user) && typeof found.user.id === 'string' ? found.user.id : undefined;

export const disabledAccounts = () =>
  ({
    id: 'agency-disabled-accounts',
    hooks: {
      before: [
        {
          matcher: (ctx) => SESSION_ENDPOINTS.has(ctx.path ?? ''),
          handler: createAuthMiddleware(async (ctx) => {
            const userId = disabledUserOf((await getSessionFromCtx(ctx)) as SessionLike);
            if (!userId) return;
            await ctx.context.internalAdapter.deleteUserSessions(userId);
            deleteSessionCookie(ctx);
            throw new APIError('FORBIDDEN', { code: 'BANNED_USER', message: AUTH_MESSAGES.ACCOUNT_DISABLED });
          }),
        },
      ],
      after: [
        {
          matcher: (ctx) => ctx.path === '/get-session',
          handler: createAuthMiddleware(async (ctx) => {
            const returned = ctx.context.returned;
            if (!returned || isAPIError(returned) || returned instanceof Response) return;
            const userId = disabledUserOf(returned as SessionLike);
            if (!userId) return;
            await ctx.context.internalAdapter.deleteUserSessions(userId);
            deleteSessionCookie(ctx);
            return ctx.json(null);
          }),
        },
      ],
    },
  }) satisfies BetterAuthPlugin;
