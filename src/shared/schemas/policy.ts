/** The policy editors' one field (/admin/content/privacy, /admin/content/terms), for the form and the Action. */
import { z } from '../zod';
import { LIMITS } from './fields';

export const POLICY_EMPTY_MESSAGE = 'Write the text of this page, or restore the default text.';

export const policyFieldsSchema = z.strictObject({
  html: z.string().max(LIMITS.policyHtml).refine((html) => html.trim() !== '', POLICY_EMPTY_MESSAGE),
});

export type PolicyFields = z.infer<typeof policyFieldsSchema>;
