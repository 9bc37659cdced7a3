/**
 * An error answer of /api/auth → what a form shows. Shared by the islands (fetch) and the server's form
 * posts (src/server/auth/form-posts.ts), so both read an answer the same way: our own text for the
 * code, never a dependency's wording.
 */
import { authMessage, tooManyAttemptsMessage } from './auth-messages';
import type { FieldErrors } from './auth-schemas';

export interface AuthFailure {
  ok: false;
  status: number;
  code: string;
  message: string;
  fieldErrors?: FieldErrors;
  retryAfter?: number;
  needsVerification?: boolean;
}

export function toFailure(status: number, body: unknown): AuthFailure {
  const b = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
  const code = typeof b.code === 'string' ? b.code : String(status);
  if (status === 429) {
    const retryAfter = typeof b.retryAfter === 'number' && b.retryAfter > 0 ? b.retryAfter : 60;
    return { ok: false, status, code: 'TOO_MANY_REQUESTS', message: tooManyAttemptsMessage(retryAfter), retryAfter };
  }
  const fieldErrors = b.fieldErrors && typeof b.fieldErrors === 'object' ? (b.fieldErrors as FieldErrors) : undefined;
  return {
    ok: false,
    status,
    code,
    message: authMessage(code),
    ...(fieldErrors ? { fieldErrors } : {}),
    ...(b.needsVerification === true || code === 'EMAIL_NOT_VERIFIED' ? { needsVerification: true } : {}),
  };
}

/** First message per field, for the inputs' error lines. */
export function firstErrors(fieldErrors: FieldErrors | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(fieldErrors ?? {})) if (v[0]) out[k] = v[0];
  return out;
}
