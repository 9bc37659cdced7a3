/** The signed-in member's own account. Thin: parse (Zod) → authorize → users service → map the result. */
import { ActionError, defineAction } from 'astro:actions';
import { profileSchema } from '../shared/auth-schemas';
import { updateProfile } from '../server/modules/users/service';
import { toActionError } from './errors';

export const account = {
  /** Dashboard profile card: first and last name required; phone and website trimmed, blank removes them. */
  updateProfile: defineAction({
    input: profileSchema,
    handler: async (input, { locals }) => {
      try {
        const result = await updateProfile(locals.user?.id, input);
        if (!result.ok) {
          // The schema already ran above, so this only happens if the two ever disagree.
          const [field, messages] = Object.entries(result.fieldErrors)[0] ?? ['form', ['Please check the form.']];
          throw new ActionError({ code: 'BAD_REQUEST', message: `${field}: ${messages[0]}` });
        }
        const { firstName, lastName, name, phone, website } = result.profile;
        return { firstName, lastName, name, phone, website };
      } catch (err) {
        return toActionError(err);
      }
    },
  }),
};
