/**
 * better-auth's side of "a grant ends everywhere" (docs/decisions/017). Every session better-auth deletes
 * — sign-out, a revoked session, an expired one found on a read, a password reset or change (which end the
 * account's sessions), a disabled account found signed in — passes its delete hook, so the live streams
 * opened with it end there, after the delete has committed. An account better-auth itself changes so that
 * it is no enabled admin (the admin plugin's set-role and ban, today switched off at our edge) ends all its
 * streams the same way; a member's streams then simply reconnect. Changes made in modules/users end the
 * streams themselves.
 */
import type { BetterAuthOptions } from 'better-auth';
import { isEnabledAdmin } from '../../shared/admin-rules';
import { isDisabledAccount } from '../guards/session';
import { endStreamsOfSession, endStreamsOfUser } from '../modules/live-grants';

type DatabaseHooks = NonNullable<BetterAuthOptions['databaseHooks']>;

export const sessionEndHooks = {
  delete: {
    after: async (session) => {
      await endStreamsOfSession(session.id);
    },
  },
} satisfies NonNullable<DatabaseHooks['session']>;

export const accountChangeHooks = {
  after: async (user) => {
    const fields = { role: String(user.role ?? ''), emailVerified: user.emailVerified, banned: isDisabledAccount(user) };
    if (!isEnabledAdmin(fields)) await endStreamsOfUser(user.id);
  },
} satisfies NonNullable<NonNullable<DatabaseHooks['user']>['update']>;
