/**
 * POST /api/lead-events: the book-a-call clicks browsers report with navigator.sendBeacon. The body is JSON
 * whatever its declared type (a beacon of a string says text/plain), at most LEAD_EVENT_MAX_BYTES. The
 * member, if any, is read from the session on the server; the client address from one place. Answers:
 * 204 recorded, 400 bad input, 413 too large, 429 with Retry-After, 503 when the database fails.
 */
import { getSession } from '../../auth';
import { config } from '../../config';
import { db } from '../../db';
import { readSession } from '../../guards/session';
import { jsonResponse } from '../../http/admin-api';
import { BodyError, parseJsonBody, readBodyCapped } from '../../http/request-body';
import { clientIpOf } from '../../http/client-ip';
import { logger } from '../../logger';
import { LEAD_EVENT_MAX_BYTES, leadEventBodySchema } from '../../../shared/lead-events';
import { recordBookCall } from './service';

const HEADERS = { 'Cache-Control': 'private, no-store' };

/** `sessionOf` is the app's session lookup; tests pass their own auth instance's. */
export async function handleLeadEventPost(request: Request, socketAddress: string | undefined, sessionOf: typeof getSession = getSession): Promise<Response> {
  let value: unknown;
  try {
    value = parseJsonBody(await readBodyCapped(request, LEAD_EVENT_MAX_BYTES));
  } catch (err) {
    if (!(err instanceof BodyError)) throw err;
    return jsonResponse(err.status, { code: err.code, message: err.message });
  }
  const parsed = leadEventBodySchema.safeParse(value ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return jsonResponse(400, { code: 'INVALID_INPUT', message: issue?.message ?? 'The event is not valid.', field: String(issue?.path[0] ?? '') });
  }
  try {
    const session = await readSession(request.headers, sessionOf);
    const member = session ? { id: session.user.id, email: session.user.email, name: session.user.name } : undefined;
    const clientIp = clientIpOf(request, socketAddress, config().TRUSTED_PROXY_IP_HEADER);
    const result = await recordBookCall(parsed.data, { clientIp, member }, db());
    if (result.kind === 'rate-limited') {
      return jsonResponse(429, { code: 'RATE_LIMITED', message: 'Too many events from your connection.', retryAfterSeconds: result.retryAfterSeconds }, { 'Retry-After': String(result.retryAfterSeconds) });
    }
    return new Response(null, { status: 204, headers: HEADERS });
  } catch (err) {
    logger.error({ err }, 'lead event not recorded');
    return jsonResponse(503, { code: 'UNAVAILABLE', message: 'The event could not be recorded. Please try again later.' }, { 'Retry-After': '30' });
  }
}
