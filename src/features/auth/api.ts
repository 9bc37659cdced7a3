/**
 * Calls to our /api/auth/* endpoints. Plain fetch rather than better-auth's client: the edge
 * (src/server/auth/handler.ts) already answers every error as JSON { code, message, fieldErrors?,
 * retryAfter? } with our texts, and this keeps the islands small.
 */
import { trackedFetch, RequestTimeoutError } from '../../stores/connectivity';
import { toFailure, type AuthFailure } from '../../shared/auth-failure';
import { AUTH_MESSAGES } from '../../shared/auth-messages';
import { MOBILE_BREAKPOINT_PX } from '../../shared/constants';

export { firstErrors, toFailure } from '../../shared/auth-failure';

/** Seed section 9: auth requests time out after 30 s on desktop and 60 s on mobile. */
export const AUTH_TIMEOUT_DESKTOP_MS = 30_000;
export const AUTH_TIMEOUT_MOBILE_MS = 60_000;

export function authTimeoutMs(viewportWidth: number | undefined = typeof window === 'undefined' ? undefined : window.innerWidth): number {
  return viewportWidth !== undefined && viewportWidth < MOBILE_BREAKPOINT_PX ? AUTH_TIMEOUT_MOBILE_MS : AUTH_TIMEOUT_DESKTOP_MS;
}

export type AuthResult<T = unknown> = { ok: true; data: T } | AuthFailure;

export const TIMEOUT_MESSAGE = 'The server took too long to answer. Please try again.';

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
