/**
 * Our additions to better-auth. POST /api/auth/account/change-password is the seed's change-password
 * form: new password + confirmation, no current password, but a recent sign-in (like the seed's
 * provider). It ends every other session of the member and keeps the current one.
 */
import type { BetterAuthPlugin } from 'better-auth';
import { APIError, createAuthEndpoint, sessionMiddleware } from 'better-auth/api';
import { setSessionCookie } from 'better-auth/cookies';
import { AUTH_MESSAGES } from '../../shared/auth-messages';
import { changePasswordSchema } from '../../shared/auth-schemas';
import { logger } from '../logger';
import { RECENT_SIGN_IN_SECONDS } from './constants';

export interface AccountPluginOptions {
  onPasswordChanged(user: { email: string; name: string }): Promise<void>;
}

export const accountPlugin = ({ onPasswordChanged }: AccountPluginOptions) =>
  ({
    id: 'agency-account',
    endpoints: {
      changePasswordRecent: createAuthEndpoint(
        '/account/change-password',
        { method: 'POST', body: changePasswordSchema, use: [sessionMiddleware] },
        async (ctx) => {
          const { session, user } = ctx.context.session;
          if (Date.now() - new Date(session.createdAt).getTime() >= RECENT_SIGN_IN_SECONDS * 1000) {
            throw new APIError('FORBIDDEN', { code: 'SESSION_NOT_FRESH', message: AUTH_MESSAGES.SESSION_NOT_FRESH });
          }
          const internal = ctx.context.internalAdapter;
          const account = await internal.findCredentialAccount(user.id);
          if (!account) {
            throw new APIError('BAD_REQUEST', { code: 'PASSWORD_UPDATE_FAILED', message: AUTH_MESSAGES.PASSWORD_UPDATE_FAILED });
          }
          const hash = await ctx.context.password.hash(ctx.body.newPassword);
          await internal.updateAccount(account.id, { password: hash });
          // Every session ends (a stolen one too); this browser gets a fresh one and stays signed in.
          await internal.deleteUserSessions(user.id);
          const fresh = await internal.createSession(user.id);
          if (!fresh) throw new APIError('INTERNAL_SERVER_ERROR', { code: 'PASSWORD_UPDATE_FAILED', message: AUTH_MESSAGES.PASSWORD_UPDATE_FAILED });
          await setSessionCookie(ctx, { session: fresh, user });
          await onPasswordChanged(user).catch((err) => logger.error({ err, userId: user.id }, 'password-changed email failed'));
          return ctx.json({ status: true, message: AUTH_MESSAGES.PASSWORD_UPDATED });
        },
      ),
    },
  }) satisfies BetterAuthPlugin;
