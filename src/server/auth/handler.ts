/**
 * The HTTP edge of /api/auth/*: what better-auth's handler does not do for us.
 * - Origin check for state-changing requests (Astro's checkOrigin covers form posts only).
 * - A body cap, so a 1 MB post is refused before anything parses it.
 * - The client IP for rate limits: from TRUSTED_PROXY_IP_HEADER when configured, else the socket;
 *   whatever the client sent in our internal header is replaced.
 * - JSON answers for every error (429 with when to retry), never a bare 500, never cached.
 */
import { AUTH_MESSAGES, tooManyAttemptsMessage, type AuthMessageCode } from '../../shared/auth-messages';
import { config } from '../config';
import { logger } from '../logger';
import { CLIENT_IP_HEADER, MAX_AUTH_BODY_BYTES } from './constants';
import type { Auth } from './create-auth';

export interface AuthRequestContext {
  /** The socket's address (Astro's clientAddress). */
  clientAddress?: string | undefined;
  /** Defaults: the app's instance and config. Tests pass their own. */
  auth?: Auth;
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

/** Reads at most `limit` bytes; undefined when the body is larger. */
async function readCapped(request: Request, limit: number): Promise<Uint8Array<ArrayBuffer> | undefined> {
  if (!request.body) return new Uint8Array();
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      return undefined;
    }
    chunks.push(value);
  }
  const out = new Uint8Array(size);
  let offset = 0;
  for (const c of chunks) {
    out.set(c, offset);
    offset += c.byteLength;
  }
  return out;
}

function clientIp(request: Request, ctx: AuthRequestContext, trustedHeader: string | undefined): string | undefined {
  if (trustedHeader) {
    // A proxy appends the address it saw: the last entry is the one our own proxy vouches for.
    const value = request.headers.get(trustedHeader)?.split(',').pop()?.trim();
    if (value) return value;
  }
  return ctx.clientAddress;
}

async function normalizeResponse(response: Response): Promise<Response> {
  if (response.status === 429) {
    const retryAfter = Number(response.headers.get('x-retry-after')) || 60;
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

export async function handleAuthRequest(request: Request, ctx: AuthRequestContext = {}): Promise<Response> {
  const cfg = ctx.siteUrl ? undefined : config();
  const siteOrigin = new URL(ctx.siteUrl ?? cfg!.SITE_URL).origin;
  const trustedHeader = ctx.trustedProxyIpHeader ?? cfg?.TRUSTED_PROXY_IP_HEADER;

  let body: Uint8Array<ArrayBuffer> | undefined;
  if (!SAFE_METHODS.has(request.method)) {
    // Browsers send Origin on every POST; a request without one is not a browser and cannot be CSRF.
    const origin = request.headers.get('origin');
    if (origin !== null && origin !== siteOrigin) return fail(403, 'FORBIDDEN_ORIGIN');
    if (Number(request.headers.get('content-length') ?? 0) > MAX_AUTH_BODY_BYTES) return fail(413, 'REQUEST_TOO_LARGE');
    body = await readCapped(request, MAX_AUTH_BODY_BYTES);
    if (!body) return fail(413, 'REQUEST_TOO_LARGE');
  }

  const headers = new Headers(request.headers);
  headers.delete(CLIENT_IP_HEADER);
  const ip = clientIp(request, ctx, trustedHeader);
  if (ip) headers.set(CLIENT_IP_HEADER, ip);
  headers.delete('content-length');

  try {
    const auth = ctx.auth ?? (await import('./index')).getAuth();
    const forwarded = new Request(request.url, { method: request.method, headers, body: body?.byteLength ? body : undefined });
    return await normalizeResponse(await auth.handler(forwarded));
  } catch (err) {
    logger.error({ err, path: new URL(request.url).pathname }, 'auth request failed');
    return fail(500, 'UNKNOWN');
  }
}
