/**
 * POST /api/page-views: the page-time records a signed-in member's tab sends with navigator.sendBeacon
 * (src/features/page-time/tracker.ts). Same-origin and the site-wide body checks run in the middleware
 * (src/middleware.ts); here: the body is read up to PAGE_TIME_MAX_BYTES and no further, the member comes
 * from the session. Answers: 204 stored (or too short to store, or an admin's: the team's browsing is not
 * stored), 400 bad input, 401 signed out (a disabled account included), 403 a record for someone else, 413
 * too large, 429 with Retry-After, 503 when the database fails. Never cached, never a cookie.
 */
import { getSession } from '../../auth';
import { readSession } from '../../guards/session';
import { jsonResponse } from '../../http/admin-api';
import { BodyError, parseJsonBody, readBodyCapped } from '../../http/request-body';
import { logger } from '../../logger';
import { PAGE_TIME_MAX_BYTES } from '../../../shared/page-time';
import { recordPageTime } from './service';

const HEADERS = { 'Cache-Control': 'private, no-store' };

/** `sessionOf` is the app's session lookup; tests pass their own auth instance's. */
export async function handlePageViewPost(request: Request, sessionOf: typeof getSession = getSession, now = Date.now): Promise<Response> {
  let value: unknown;
  try {
    value = parseJsonBody(await readBodyCapped(request, PAGE_TIME_MAX_BYTES));
  } catch (err) {
    if (!(err instanceof BodyError)) throw err;
    return jsonResponse(err.status, { code: err.code, message: err.message });
  }
  try {
    const session = await readSession(request.headers, sessionOf);
    if (!session) return jsonResponse(401, { code: 'UNAUTHORIZED', message: 'Sign in to record time on pages.' });
    // The team's browsing is not a member's (decision 032): answered like a stored record, not stored.
    if (session.user.role === 'admin') return new Response(null, { status: 204, headers: HEADERS });
    const result = await recordPageTime(value, session.user, now());
    switch (result.kind) {
      case 'invalid':
        return jsonResponse(400, { code: 'INVALID_INPUT', message: result.message, field: result.field });
      case 'forbidden':
        return jsonResponse(403, { code: 'FORBIDDEN', message: 'A record can only be for the signed-in member.' });
      case 'rate-limited':
        return jsonResponse(
          429,
          { code: 'RATE_LIMITED', message: 'Too many records. Please try again later.', retryAfterSeconds: result.retryAfterSeconds },
          { 'Retry-After': String(result.retryAfterSeconds) },
        );
      default:
        return new Response(null, { status: 204, headers: HEADERS });
    }
  } catch (err) {
    logger.error({ err }, 'page-time record not stored');
    return jsonResponse(503, { code: 'UNAVAILABLE', message: 'The record could not be stored. Please try again later.' }, { 'Retry-After': '30' });
  }
}
