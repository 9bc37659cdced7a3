/**
 * Shared pieces of the admin API routes (/api/admin/…): JSON answers that are never cached, and the
 * admin check repeated in the route (the middleware guard answered first; a route must stay safe on its
 * own if the guard table ever changes, and the service checks a third time in its transaction).
 */
import { GUARD_MESSAGES } from '../guards';
import type { RequestUser } from '../guards/session';
import { UsersError } from '../modules/users/service';

export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json', 'Cache-Control': 'private, no-store', ...headers },
  });
}

/** 401 for a visitor, 403 for an unverified account or a member; undefined for a verified admin. */
export function adminApiRefusal(user: RequestUser | undefined): Response | undefined {
  if (!user) return jsonResponse(401, { code: 'UNAUTHORIZED', message: GUARD_MESSAGES.UNAUTHORIZED });
  if (!user.emailVerified) return jsonResponse(403, { code: 'FORBIDDEN', message: GUARD_MESSAGES.NOT_VERIFIED });
  if (user.role !== 'admin') return jsonResponse(403, { code: 'FORBIDDEN', message: GUARD_MESSAGES.FORBIDDEN });
  return undefined;
}

/** The service's own refusal (the account lost its admin role or was disabled since the request began). */
export function usersErrorResponse(err: unknown): Response | undefined {
  if (!(err instanceof UsersError)) return undefined;
  const status = err.code === 'NO_USER_LOGGED_IN' ? 401 : 403;
  return jsonResponse(status, { code: status === 401 ? 'UNAUTHORIZED' : 'FORBIDDEN', message: err.message });
}
