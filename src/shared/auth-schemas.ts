/**
 * Account input rules, shared by the future forms (islands) and the server, which enforces them before
 * better-auth stores anything. Pure: no server imports.
 */
import { sanitizeSitePath } from './site-path';
import { isCleanLine } from './text-controls';
import { z } from './zod';

// The site-path rule lives in its own small module (the chat widget uses it without Zod).
export { MAX_PATH_LENGTH, sanitizeSitePath } from './site-path';

/** Seed section 9. */
export const MIN_PASSWORD_LENGTH = 6;
/** better-auth's default ceiling; also bounds the hashing work an attacker can ask for. */
export const MAX_PASSWORD_LENGTH = 128;
/** Names: 1–50 characters (they appear in emails we send, so they stay short and plain). */
export const MAX_NAME_LENGTH = 50;
export const MAX_EMAIL_LENGTH = 254;
export const MAX_PHONE_LENGTH = 40;
export const MAX_WEBSITE_LENGTH = 2048;

export const PASSWORD_MESSAGES = {
  required: 'Please enter a password',
  tooShort: `Password must be at least ${MIN_PASSWORD_LENGTH} characters long`,
  tooLong: `Password must be at most ${MAX_PASSWORD_LENGTH} characters long`,
  mismatch: 'Passwords do not match',
} as const;

/**
 * Letters and combining marks of any script, spaces, apostrophes (' and ’), hyphens and dots, with at
 * least one letter. No digits, slashes, colons or "@": a name is copied into the verification email, so
 * it must not be able to carry a sentence with a link ("Click evil.example/x").
 */
const NAME_PATTERN = /^[\p{L}\p{M} '’.-]+$/u;
const HAS_LETTER = /\p{L}/u;

export const personName = (label: string) =>
  z
    .string({ error: `${label} is required` })
    .trim()
    .min(1, { error: `${label} is required`, abort: true })
    .max(MAX_NAME_LENGTH, { error: `${label} must be at most ${MAX_NAME_LENGTH} characters`, abort: true })
    .refine(
      (v) => NAME_PATTERN.test(v) && HAS_LETTER.test(v),
      `${label} can only contain letters, spaces, apostrophes, hyphens and dots`,
    );

export const emailField = z
  .string({ error: 'Email is required' })
  .trim()
  .min(1, 'Email is required')
  .max(MAX_EMAIL_LENGTH, 'Please enter a valid email address')
  .pipe(z.email('Please enter a valid email address'))
  .transform((e) => e.toLowerCase());

export const passwordField = z
  .string({ error: PASSWORD_MESSAGES.required })
  .min(1, PASSWORD_MESSAGES.required)
  .min(MIN_PASSWORD_LENGTH, PASSWORD_MESSAGES.tooShort)
  .max(MAX_PASSWORD_LENGTH, PASSWORD_MESSAGES.tooLong);

/** Optional text: trimmed; blank becomes undefined so it is not stored (seed section 3). */
const optionalText = (max: number, label: string) =>
  z
    .string()
    .max(max * 2, `${label} must be at most ${max} characters`)
    .optional()
    .nullable()
    .transform((v) => (v == null || v.trim() === '' ? undefined : v.trim()))
    .refine((v) => v === undefined || v.length <= max, `${label} must be at most ${max} characters`)
    // Control characters and bidi controls: invisible on screen, dangerous in mail headers and logs.
    .refine((v) => v === undefined || isCleanLine(v), `${label} contains characters that are not allowed`);

export const phoneField = optionalText(MAX_PHONE_LENGTH, 'Phone').refine(
  (v) => v === undefined || /^\+?[0-9 ()./-]{5,}$/.test(v),
  'Please enter a valid phone number',
);

/** A website: "example.com" is accepted and stored as "https://example.com". */
export const websiteField = optionalText(MAX_WEBSITE_LENGTH, 'Website')
  .transform((v) => (v === undefined || /^https?:\/\//i.test(v) ? v : `https://${v}`))
  .refine((v) => {
    if (v === undefined) return true;
    try {
      const u = new URL(v);
      return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname.includes('.') && !/\s/.test(v);
    } catch {
      return false;
    }
  }, 'Please enter a valid website address');

/** Unknown keys (role, emailVerified, ...) are refused by name, never silently stored or ignored. */
const noExtraFields = { error: (issue: { code?: string }) => (issue.code === 'unrecognized_keys' ? 'This field cannot be set' : undefined) };

export const signUpSchema = z.strictObject(
  {
    firstName: personName('First name'),
    lastName: personName('Last name'),
    email: emailField,
    password: passwordField,
    phone: phoneField,
    website: websiteField,
    signupSource: z.unknown().transform(sanitizeSitePath).optional(),
    // Where the visit came from (the attribution store): cleaned by the sign-up's lead event, never refused.
    attribution: z.unknown().optional(),
    callbackURL: z.unknown().transform(sanitizeSitePath).optional(),
    rememberMe: z.boolean().optional(),
  },
  noExtraFields,
);
export type SignUpInput = z.input<typeof signUpSchema>;

export const signInSchema = z.object({
  email: emailField,
  password: z
    .string({ error: PASSWORD_MESSAGES.required })
    .min(1, PASSWORD_MESSAGES.required)
    .max(MAX_PASSWORD_LENGTH, 'Invalid email or password'),
});

export const emailOnlySchema = z.object({ email: emailField });

/** The seed's change-password form (section 5): both fields required, must match, at least 6. */
export const changePasswordSchema = z
  .object({
    newPassword: passwordField,
    confirmPassword: z.string({ error: PASSWORD_MESSAGES.required }).min(1, PASSWORD_MESSAGES.required),
  })
  .refine((v) => v.newPassword === v.confirmPassword, { path: ['confirmPassword'], error: PASSWORD_MESSAGES.mismatch });

export const resetPasswordSchema = z.object({
  token: z.string().min(1).max(200),
  newPassword: passwordField,
});

/** Profile edits (dashboard): names required, phone/website optional and cleared when blank. */
export const profileSchema = z.strictObject(
  {
    firstName: personName('First name'),
    lastName: personName('Last name'),
    phone: phoneField,
    website: websiteField,
  },
  noExtraFields,
);
export type ProfileInput = z.input<typeof profileSchema>;

export type FieldErrors = Record<string, string[]>;

/** Zod issues → { field: [messages] }, the shape the API returns and the forms display. */
export function fieldErrorsOf(error: z.ZodError): FieldErrors {
  // No prototype: an unknown key named "constructor" or "toString" is just a key here.
  const out: FieldErrors = Object.create(null);
  for (const issue of error.issues) {
    const keys = issue.code === 'unrecognized_keys' ? issue.keys : [issue.path[0] === undefined ? 'form' : String(issue.path[0])];
    for (const key of keys) (out[key] ??= []).push(issue.message);
  }
  return out;
}
