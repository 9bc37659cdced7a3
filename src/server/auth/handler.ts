/**
 * The HTTP edge of /api/auth/*: what better-auth's handler does not do for us.
 * - Only the endpoints the site uses answer (USED_AUTH_ENDPOINTS); every other path is a 404.
 * - Origin check for state-changing requests (the same rule as every other route: request-origin.ts).
 * - A body cap, so a 1 MB post is refused before anything parses it; JSON that must parse and may not
 *   carry keys named after Object.prototype members (src/server/http/request-body.ts).
 * - The client IP for rate limits: from TRUSTED_PROXY_IP_HEADER when configured, else the socket;
 *   whatever the client sent in our internal header is replaced.
 * - A password-reset request takes the same time whether or not the account exists.
 * - better-auth's own error page (it repeats its query string) is replaced by ours.
 * - JSON answers for every error (429 with when to retry), never a bare 500, never cached.
 */
import { clientAddressOf } from '../http/client-ip';
import { AUTH_MESSAGES, tooManyAttemptsMessage, type AuthMessageCode } from '../../shared/auth-messages';
import { config } from '../config';
import { BodyError, isJsonContentType, parseJsonBody, readBodyCapped } from '../http/request-body';
import { logger } from '../logger';
import { isRefusedOrigin, type OriginPolicy } from '../request-origin';
import {
  AUTH_BASE_PATH,
  AUTH_ERROR_PAGE,
  CLIENT_IP_HEADER,
  isUsedAuthEndpoint,
  MAX_AUTH_BODY_BYTES,
  RESET_REQUEST_MIN_MS,
} from './constants';
import type { Auth } from './create-auth';

export interface AuthRequestContext {
  /** The socket's address (Astro's clientAddress). */
  clientAddress?: string | undefined;
  /** Defaults: the app's instance and config. Tests pass their own. */
  auth?: Auth;
  /** Tests: the one trusted origin (the app's config otherwise). */
  siteUrl?: string;
  trustedProxyIpHeader?: string | undefined;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

function json(status: number, code: string, message: string, extra: Record<string, unknown> = {}, headers?: HeadersInit) {
  return new Response(JSON.stringify({ code, message, ...extra }), {
    status,
    headers: { 'content-type': 'application/json', 'cache-control': 'private, no-store', ...headers },
  });
}

const fail = (status: number, code: AuthMessageCode) => json(status, code, AUTH_MESSAGES[code]);

async function normalizeResponse(response: Response): Promise<Response> {
  if (response.status === 429) {
    const body = (await response.clone().json().catch(() => null)) as { retryAfter?: unknown } | null;
    const fromBody = typeof body?.retryAfter === 'number' ? body.retryAfter : 0;
    const retryAfter = Number(response.headers.get('x-retry-after')) || fromBody || 60;
    return json(429, 'TOO_MANY_REQUESTS', tooManyAttemptsMessage(retryAfter), { retryAfter }, { 'retry-after': String(retryAfter) });
  }
  const isJson = response.headers.get('content-type')?.includes('application/json');
  if (response.status >= 400 && !isJson) {
    return response.status === 404 ? json(404, 'NOT_FOUND', 'Not found') : fail(response.status >= 500 ? 500 : response.status, 'UNKNOWN');
  }
  const headers = new Headers(response.headers);
  headers.set('cache-control', 'private, no-store');
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

/** better-auth's error page shows whatever its query string says; ours shows our texts only. */
function toOurErrorPage(): Response {
  return new Response(null, { status: 302, headers: { location: AUTH_ERROR_PAGE, 'cache-control': 'private, no-store' } });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function handleAuthRequest(request: Request, ctx: AuthRequestContext = {}): Promise<Response> {
  const cfg = ctx.siteUrl ? undefined : config();
  const policy: OriginPolicy = ctx.siteUrl
    ? { trustedOrigins: [new URL(ctx.siteUrl).origin], siteUrlIsExplicit: true }
    : { trustedOrigins: cfg!.trustedOrigins, siteUrlIsExplicit: cfg!.siteUrlIsExplicit };
  const trustedHeader = ctx.trustedProxyIpHeader ?? cfg?.TRUSTED_PROXY_IP_HEADER;
  const path = new URL(request.url).pathname.slice(AUTH_BASE_PATH.length) || '/';

  if (path === '/error' && request.method === 'GET') return toOurErrorPage();
  if (!isUsedAuthEndpoint(request.method, path)) return json(404, 'NOT_FOUND', 'Not found');

  let body: Uint8Array<ArrayBuffer> | undefined;
  if (!SAFE_METHODS.has(request.method)) {
    if (isRefusedOrigin(request, policy)) return fail(403, 'FORBIDDEN_ORIGIN');
    // Our forms and islands send JSON; better-auth would also parse other encodings we never check.
    if (request.body && !isJsonContentType(request.headers.get('content-type'))) {
      return json(415, 'UNSUPPORTED_MEDIA_TYPE', 'Send the request as JSON.');
    }
    try {
      body = await readBodyCapped(request, MAX_AUTH_BODY_BYTES);
      // better-auth parses JSON itself; refuse what it would choke on before it sees it.
      if (isJsonContentType(request.headers.get('content-type'))) parseJsonBody(body);
    } catch (err) {
      if (!(err instanceof BodyError)) throw err;
      return json(err.status, err.code, err.message);
    }
  }

  const headers = new Headers(request.headers);
  headers.delete(CLIENT_IP_HEADER);
  // The address itself: better-auth validates it and counts IPv6 per /64 on its own.
  const ip = clientAddressOf(request, ctx.clientAddress, trustedHeader);
  if (ip) headers.set(CLIENT_IP_HEADER, ip);
  headers.delete('content-length');

  const started = Date.now();
  try {
    const auth = ctx.auth ?? (await import('./index')).getAuth();
    const forwarded = new Request(request.url, { method: request.method, headers, body: body?.byteLength ? body : undefined });
    const response = await normalizeResponse(await auth.handler(forwarded));
    const left = RESET_REQUEST_MIN_MS - (Date.now() - started);
    if (path === '/request-password-reset' && left > 0) await sleep(left);
    return response;
  } catch (err) {
    logger.error({ err, path }, 'auth request failed');
    return fail(500, 'UNKNOWN');
  }
}
