/**
 * Writing to a lead (issue 23): the team's templates and the mail an admin sends from the person's page. A
 * template is plain text with placeholders in double braces, filled when the mail is sent; only the listed
 * placeholders exist, so a typo is caught when the template is saved, not in a customer's inbox. Shared by
 * the template editor, the composer's preview and the server, which fills and sends.
 */
import { z } from 'astro/zod';

export const LEAD_MAIL_PLACEHOLDERS = {
  first_name: 'Their first name (else “there”)',
  name: 'Their full name as they gave it',
  business: 'Their business name from the audit request',
  audit_link: 'A private link to their latest audit report',
  booking_link: 'The book-a-call address of the site',
  site_name: 'The site’s name',
  sender_name: 'Your name',
} as const;
export type LeadMailPlaceholder = keyof typeof LEAD_MAIL_PLACEHOLDERS;
export type LeadMailValues = Record<LeadMailPlaceholder, string>;

/** What a preview shows for {{audit_link}}: the link is made when the mail is sent (the old one cannot be rebuilt). */
export const AUDIT_LINK_PREVIEW = '[a new private link to their latest report, made when sent]';

const PLACEHOLDER = /\{\{\s*([a-z_]+)\s*\}\}/g;

export const isLeadMailPlaceholder = (name: string): name is LeadMailPlaceholder => Object.hasOwn(LEAD_MAIL_PLACEHOLDERS, name);

/** The placeholders a text uses, in order of first use, known or not. */
export function placeholdersIn(text: string): string[] {
  return [...new Set([...text.matchAll(PLACEHOLDER)].map((m) => m[1]!))];
}

/** The text with each known placeholder replaced by its value (values are text: a mail is never markup). */
export function fillPlaceholders(text: string, values: Partial<LeadMailValues>): string {
  return text.replace(PLACEHOLDER, (whole, name: string) => (isLeadMailPlaceholder(name) && values[name] !== undefined ? values[name]! : whole));
}

const knownPlaceholders = (text: string, ctx: z.RefinementCtx) => {
  const unknown = placeholdersIn(text).filter((p) => !isLeadMailPlaceholder(p));
  if (unknown.length > 0) ctx.addIssue({ code: 'custom', message: `Unknown placeholder {{${unknown[0]}}}: use ${Object.keys(LEAD_MAIL_PLACEHOLDERS).map((p) => `{{${p}}}`).join(', ')}` });
};

export const LEAD_MAIL_SUBJECT_MAX = 200;
export const LEAD_MAIL_BODY_MAX = 5000;

const subject = z
  .string()
  .trim()
  .min(1, 'Enter a subject')
  .max(LEAD_MAIL_SUBJECT_MAX, `Subject must be at most ${LEAD_MAIL_SUBJECT_MAX} characters`)
  // A header: one line.
  .refine((v) => !/[\r\n]/.test(v), 'Subject must be one line')
  .superRefine(knownPlaceholders);
const body = z.string().trim().min(1, 'Write the message').max(LEAD_MAIL_BODY_MAX, `Message must be at most ${LEAD_MAIL_BODY_MAX} characters`).superRefine(knownPlaceholders);

export const leadMailTemplateSchema = z.object({
  name: z.string().trim().min(1, 'Name the template').max(80, 'Name must be at most 80 characters'),
  subject,
  body,
});
export type LeadMailTemplateInput = z.output<typeof leadMailTemplateSchema>;

/** What the composer sends: the subject and body as written, placeholders and all. */
export const leadMailSchema = z.object({ subject, body });
export type LeadMailInput = z.output<typeof leadMailSchema>;

/** "Ada Lovelace" → "Ada"; no name → "there" ("Hi there,"). */
export const firstNameOf = (name: string) => name.trim().split(/\s+/)[0] || 'there';
