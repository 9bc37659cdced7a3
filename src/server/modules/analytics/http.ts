/**
 * POST /api/visits: the page-view beacon every visitor's browser sends (src/features/analytics/beacon.ts),
 * decision 014. Anonymous by design: nothing is set, and the address and user agent only enter the day's
 * salted visitor hash. The session cookie a signed-in browser sends anyway is read for one thing only: a
 * view by an admin is the team's, not the site's traffic, and is not counted (decision 032). The public
 * page stays the same cached, cookie-free HTML for everyone. Answers: 204 (counted, or a bot's or the
 * team's view ignored),
 * 400 bad input, 403 not from this site, 413 over VISIT_BEACON_MAX_BYTES, 429 with Retry-After, 503 when
 * the database cannot give the day's salt.
 */
import { isbot } from 'isbot';
import { getSession } from '../../auth';
import { readSession } from '../../guards/session';
import { VISIT_BEACON_MAX_BYTES, VISIT_RATE_LIMIT, visitBeaconSchema } from '../../../shared/analytics';
import { config } from '../../config';
import { jsonResponse } from '../../http/admin-api';
import { clientIpOf } from '../../http/client-ip';
import { BodyError, parseJsonBody, readBodyCapped } from '../../http/request-body';
import { logger } from '../../logger';
import { AddressRateLimit } from './rate';
import { recordView } from './ingest';

const NO_STORE = { 'Cache-Control': 'private, no-store' };
const noContent = () => new Response(null, { status: 204, headers: NO_STORE });

export const visitRateLimit = new AddressRateLimit(VISIT_RATE_LIMIT);

/**
 * A browser sends Origin with a beacon; without one, only its own Sec-Fetch-Site can vouch for the
 * request. Anything else (a script, another site) is not a view of this site.
 */
function isFromThisSite(headers: Headers, trustedOrigins: readonly string[]): boolean {
  const origin = headers.get('origin');
  if (origin !== null) return trustedOrigins.includes(origin);
  return headers.get('sec-fetch-site') === 'same-origin';
}

/** A browser signed in as an admin. Visitors send no session cookie and cost no lookup. */
async function isTeamBrowser(headers: Headers, sessionOf: typeof getSession): Promise<boolean> {
  return (await readSession(headers, sessionOf))?.user.role === 'admin';
}

/** `sessionOf` is the app's session lookup; tests pass their own auth instance's. */
export async function handleVisitPost(request: Request, socketAddress: string | undefined, now: Date = new Date(), sessionOf: typeof getSession = getSession): Promise<Response> {
  const cfg = config();
  if (!isFromThisSite(request.headers, cfg.trustedOrigins)) {
    return jsonResponse(403, { code: 'FORBIDDEN_ORIGIN', message: 'Page views are only accepted from this site.' });
  }
  // Who is asking before what was sent: the team's view is answered like any other and not read at all.
  if (await isTeamBrowser(request.headers, sessionOf)) return noContent();
  let value: unknown;
  try {
    value = parseJsonBody(await readBodyCapped(request, VISIT_BEACON_MAX_BYTES));
  } catch (err) {
    if (!(err instanceof BodyError)) throw err;
    return jsonResponse(err.status, { code: err.code, message: err.message });
  }
  const parsed = visitBeaconSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = String(issue?.path[0] ?? '');
    return jsonResponse(400, { code: 'INVALID_INPUT', message: `The page view is not valid${field ? ` (${field}: ${issue?.message})` : ''}.`, field });
  }
  // Crawlers and scripts without a user agent are answered like anyone, and not counted.
  const userAgent = request.headers.get('user-agent')?.trim() ?? '';
  if (!userAgent || isbot(userAgent)) return noContent();

  const address = clientIpOf(request, socketAddress, cfg.TRUSTED_PROXY_IP_HEADER) ?? '';
  const limit = visitRateLimit.consume(address, now.getTime());
  if (!limit.ok) {
    return jsonResponse(
      429,
      { code: 'RATE_LIMITED', message: 'Too many page views from your connection.', retryAfterSeconds: limit.retryAfterSeconds },
      { 'Retry-After': String(limit.retryAfterSeconds) },
    );
  }
  const url = new URL(request.url);
  const siteHosts = [url.hostname, ...cfg.trustedOrigins.map((o) => new URL(o).hostname)];
  try {
    await recordView({ beacon: parsed.data, address, userAgent, host: url.host, siteHosts }, now);
  } catch (err) {
    // The error only: the address stays out of the log.
    logger.error({ err }, 'page view not counted');
    return jsonResponse(503, { code: 'UNAVAILABLE', message: 'The page view could not be counted.' }, { 'Retry-After': '30' });
  }
  return noContent();
}
