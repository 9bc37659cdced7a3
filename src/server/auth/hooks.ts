/**
 * better-auth request hooks. Before: our Zod rules run first, so bad input answers field errors and
 * nothing is stored; a verification link that was already used is refused like an expired one. After:
 * every error leaves with a stable `code` and our own message (src/shared/auth-messages.ts).
 */
import { APIError, createAuthMiddleware, isAPIError } from 'better-auth/api';
import { AUTH_MESSAGES, authMessage } from '../../shared/auth-messages';
import {
  changePasswordSchema,
  emailOnlySchema,
  fieldErrorsOf,
  resetPasswordSchema,
  sanitizeSitePath,
  signInSchema,
  signUpSchema,
  type FieldErrors,
} from '../../shared/auth-schemas';
import { findProfileByEmail } from '../modules/users/repository';

export function invalidInput(fieldErrors: FieldErrors) {
  return new APIError('BAD_REQUEST', { code: 'INVALID_INPUT', message: AUTH_MESSAGES.INVALID_INPUT, fieldErrors });
}

const BODY_SCHEMAS = {
  '/sign-in/email': signInSchema,
  '/send-verification-email': emailOnlySchema,
  '/request-password-reset': emailOnlySchema,
  '/reset-password': resetPasswordSchema,
  '/account/change-password': changePasswordSchema,
} as const;

/** Claims of the emailed verification JWT, read without verifying: better-auth verifies it right after. */
function verificationClaims(token: unknown): { email?: string; updateTo?: string } | undefined {
  if (typeof token !== 'string') return undefined;
  try {
    return JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
}

export const beforeHook = createAuthMiddleware(async (ctx) => {
  if (ctx.path === '/sign-up/email') {
    const parsed = signUpSchema.safeParse(ctx.body ?? {});
    if (!parsed.success) throw invalidInput(fieldErrorsOf(parsed.error));
    const { firstName, lastName, email } = parsed.data;
    // Only values that override; blank optional fields are cleared in the user-create database hook.
    return { context: { body: { firstName, lastName, email, name: `${firstName} ${lastName}` } } };
  }

  if (ctx.path === '/verify-email') {
    // The link is a stateless JWT: better-auth would answer a second click with success (and no session).
    // The brief asks for "expired or invalid" on a used link, so a link for a verified address is refused.
    const claims = verificationClaims(ctx.query?.token);
    if (!claims?.email || claims.updateTo) return;
    const user = await findProfileByEmail(claims.email);
    if (!user?.emailVerified) return;
    const callbackURL = sanitizeSitePath(ctx.query?.callbackURL);
    if (callbackURL) throw ctx.redirect(`${callbackURL}${callbackURL.includes('?') ? '&' : '?'}error=INVALID_TOKEN`);
    throw new APIError('UNAUTHORIZED', { code: 'INVALID_TOKEN', message: AUTH_MESSAGES.INVALID_LINK });
  }

  const schema = BODY_SCHEMAS[ctx.path as keyof typeof BODY_SCHEMAS];
  if (!schema) return;
  const parsed = schema.safeParse(ctx.body ?? {});
  if (!parsed.success) throw invalidInput(fieldErrorsOf(parsed.error));
  if ('email' in parsed.data) return { context: { body: { email: parsed.data.email } } };
});

/**
 * Two sign-ups for one address at the same moment (a double-click): both pass better-auth's "exists?"
 * read, the second insert hits the unique index and better-auth calls it FAILED_TO_CREATE_USER. If the
 * address has an account now, that is what happened: say so.
 */
async function isLostSignUpRace(path: string | undefined, code: string, body: unknown): Promise<boolean> {
  if (path !== '/sign-up/email' || code !== 'FAILED_TO_CREATE_USER') return false;
  const parsed = emailOnlySchema.safeParse({ email: (body as { email?: unknown } | undefined)?.email });
  return parsed.success && (await findProfileByEmail(parsed.data.email)) !== undefined;
}

export const afterHook = createAuthMiddleware(async (ctx) => {
  const returned = ctx.context.returned;
  if (!isAPIError(returned) || returned.statusCode < 400) return;
  const body = (returned.body ?? {}) as Record<string, unknown> & { code?: string };
  const code = body.code ?? String(returned.status);
  if (await isLostSignUpRace(ctx.path, code, ctx.body)) {
    throw new APIError('UNPROCESSABLE_ENTITY', { code: 'USER_ALREADY_EXISTS', message: authMessage('USER_ALREADY_EXISTS') });
  }
  if (code === 'INVALID_INPUT') return;
  throw new APIError(returned.status, {
    ...body,
    code,
    message: authMessage(code),
    // The seed's sign-in result for an unverified account: the form sends the user to /verify-email.
    ...(code === 'EMAIL_NOT_VERIFIED' ? { needsVerification: true } : {}),
  });
});
