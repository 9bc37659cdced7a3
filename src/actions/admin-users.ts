/**
 * admin.users.* — an account's admin writes (role, disable, enable, verification email again). Admin-only
 * in the route guard (every `admin.` Action) and again in the service's transaction. Thin: parse →
 * service → result.
 */
import { ActionError, defineAction } from 'astro:actions';
import { z } from 'astro/zod';
import { ResendRefusedError, resendVerificationEmail } from '../server/modules/users/admin';
import { disableUser, enableUser, setRole } from '../server/modules/users/service';
import { DISABLE_REASON_MAX } from '../shared/admin-users';
import { toActionError } from './errors';

const userId = z.string().trim().min(1).max(200);

const RESEND_CODES = { ALREADY_VERIFIED: 'CONFLICT', DISABLED: 'CONFLICT', RATE_LIMITED: 'TOO_MANY_REQUESTS' } as const;

export const usersActions = {
  setRole: defineAction({
    input: z.object({ userId, role: z.enum(['user', 'admin']) }),
    handler: async ({ userId: id, role }, ctx) => {
      try {
        const profile = await setRole(ctx.locals.user?.id, id, role);
        return { id: profile.id, role: profile.role };
      } catch (err) {
        return toActionError(err);
      }
    },
  }),
  disable: defineAction({
    // Longer reasons are cut to DISABLE_REASON_MAX by the service; this only bounds what is read.
    input: z.object({ userId, reason: z.string().max(DISABLE_REASON_MAX * 2).optional() }),
    handler: async ({ userId: id, reason }, ctx) => {
      try {
        return await disableUser(ctx.locals.user?.id, id, reason ?? null);
      } catch (err) {
        return toActionError(err);
      }
    },
  }),
  enable: defineAction({
    input: z.object({ userId }),
    handler: async ({ userId: id }, ctx) => {
      try {
        return await enableUser(ctx.locals.user?.id, id);
      } catch (err) {
        return toActionError(err);
      }
    },
  }),
  resendVerification: defineAction({
    input: z.object({ userId }),
    handler: async ({ userId: id }, ctx) => {
      try {
        return await resendVerificationEmail(ctx.locals.user?.id, id);
      } catch (err) {
        if (err instanceof ResendRefusedError) throw new ActionError({ code: RESEND_CODES[err.code], message: err.message });
        return toActionError(err);
      }
    },
  }),
};
