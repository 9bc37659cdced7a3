/** Role changes (PRODUCT.md "Deliberate differences" 2): authorized by the users service, on the server. */
import { defineAction } from 'astro:actions';
import { z } from 'astro/zod';
import { promote } from '../server/modules/users/service';
import { toActionError } from './errors';

export const users = {
  /**
   * Promote a user to admin. Allowed to an admin (for anyone verified), or — only while no admin exists —
   * to a verified user for themselves. Never otherwise, whatever the browser sends.
   */
  promote: defineAction({
    input: z.object({ userId: z.string().trim().min(1, 'Choose a user').max(200) }),
    handler: async ({ userId }, { locals }) => {
      try {
        const profile = await promote(locals.user?.id, userId);
        return { id: profile.id, role: profile.role };
      } catch (err) {
        return toActionError(err);
      }
    },
  }),
};
