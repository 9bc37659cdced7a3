/**
 * Calls to our /api/auth/* endpoints. Plain fetch rather than better-auth's client: the edge
 * (src/server/auth/handler.ts) already answers every error as JSON { code, message, fieldErrors?,
 * retryAfter? } with our texts, and this keeps the islands small.
 */
import { trackedFetch, RequestTimeoutError } from '../../stores/connectivity';
import { AUTH_MESSAGES, authMessage, tooManyAttemptsMessage } from '../../shared/auth-messages';
import type { FieldErrors } from '../../shared/auth-schemas';
import { MOBILE_BREAKPOINT_PX } from '../../shared/constants';

/** Seed section 9: auth requests time out after 30 s on desktop and 60 s on mobile. */
export const AUTH_TIMEOUT_DESKTOP_MS = 30_000;
export const AUTH_TIMEOUT_MOBILE_MS = 60_000;

export function authTimeoutMs(viewportWidth: number | undefined = typeof window === 'undefined' ? undefined : window.innerWidth): number {
  return viewportWidth !== undefined && viewportWidth < MOBILE_BREAKPOINT_PX ? AUTH_TIMEOUT_MOBILE_MS : AUTH_TIMEOUT_DESKTOP_MS;
}

export type AuthResult<T = unknown> =
  | { ok: true; data: T }
  | { ok: false; status: number; code: string; message: string; fieldErrors?: FieldErrors; retryAfter?: number; needsVerification?: boolean };

export const TIMEOUT_MESSAGE = 'The server took too long to answer. Please try again.';

/** An error answer → what the form shows. Exported for unit tests. */
export function toFailure(status: number, body: unknown): Extract<AuthResult, { ok: false }> {
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
    // Our own mapping first: a dependency's wording never reaches the user.
    message: authMessage(code),
    ...(fieldErrors ? { fieldErrors } : {}),
    ...(b.needsVerification === true || code === 'EMAIL_NOT_VERIFIED' ? { needsVerification: true } : {}),
  };
}

export async function authRequest<T = unknown>(path: string, body?: Record<string, unknown>, method: 'GET' | 'POST' = 'POST'): Promise<AuthResult<T>> {
  let res: Response;
  try {
    res = await trackedFetch(
      `/api/auth${path}`,
      {
        method,
        credentials: 'same-origin',
        headers: { accept: 'application/json', ...(method === 'POST' ? { 'content-type': 'application/json' } : {}) },
        ...(method === 'POST' ? { body: JSON.stringify(body ?? {}) } : {}),
      },
      authTimeoutMs(),
    );
  } catch (err) {
    const timedOut = err instanceof RequestTimeoutError;
    return { ok: false, status: 0, code: timedOut ? 'TIMEOUT' : 'NETWORK', message: timedOut ? TIMEOUT_MESSAGE : AUTH_MESSAGES.NETWORK };
  }
  const data: unknown = await res.json().catch(() => null);
  return res.ok ? { ok: true, data: data as T } : toFailure(res.status, data);
}

/** First message per field, for the inputs' error lines. */
export function firstErrors(fieldErrors: FieldErrors | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(fieldErrors ?? {})) if (v[0]) out[k] = v[0];
  return out;
}
