import type { APIContext, MiddlewareNext } from 'astro';
import { defineMiddleware } from 'astro:middleware';
import { getSession } from './server/auth';
import { VERIFY_EMAIL_PAGE } from './server/auth/constants';
import { config } from './server/config';
import { ready } from './server/db';
import { guardDecision, isForeignOrigin, needsSession, normalizePath, type GuardDecision } from './server/guards';
import { readSession } from './server/guards/session';
import { logger } from './server/logger';
import { applySecurityHeaders, cacheControlFor, isPrivatePath, PRIVATE_CACHE_CONTROL } from './server/security-headers';

// HSTS decision (docs/decisions/002): the public origin in SITE_URL says whether the site is served over
// HTTPS; X-Forwarded-Proto is not trusted. A TLS socket of our own (SERVER_CERT_PATH) counts too.
const siteIsHttps = config().SITE_URL.startsWith('https://');

const PAGE_METHODS = 'GET, HEAD, OPTIONS';
const siteOrigin = new URL(config().SITE_URL).origin;

/**
 * Pages only answer GET and HEAD. Writes go to API routes, Astro's action and server-island endpoints or a
 * form action (`?_action=` on the page URL); any other write to a page is refused before it renders.
 */
function pageMethodResponse(request: Request, url: URL): Response | undefined {
  const { method } = request;
  if (method === 'GET' || method === 'HEAD') return undefined;
  if (/^\/(api|_actions|_server-islands)(\/|$)/.test(url.pathname) || url.searchParams.has('_action')) return undefined;
  if (method === 'OPTIONS') return new Response(null, { status: 204, headers: { Allow: PAGE_METHODS } });
  return new Response('Method not allowed.', {
    status: 405,
    headers: { Allow: PAGE_METHODS, 'Content-Type': 'text/plain; charset=utf-8' },
  });
}

async function respond(context: APIContext, next: MiddlewareNext): Promise<Response> {
  const refused = pageMethodResponse(context.request, context.url);
  if (refused) return refused;
  if (context.url.pathname !== '/healthz' && context.url.pathname !== '/readyz') {
    try {
      await ready();
    } catch (err) {
      logger.error({ err }, 'database not ready');
      return new Response('The site is starting up or its database is unavailable. Please try again shortly.', {
        status: 503,
        headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Retry-After': '5', 'Cache-Control': 'no-store' },
      });
    }
  }
  const guarded = await guard(context);
  if (guarded) return guarded;
  return next();
}

const isActionPath = (path: string) => /^\/_actions(\/|$)/.test(path);

function denyResponse(path: string, decision: Extract<GuardDecision, { kind: 'deny' }>): Response {
  // Actions answer in Astro's own error shape, so `actions.x()` on the client gets a proper ActionError.
  const body = isActionPath(path)
    ? { type: 'AstroActionError', code: decision.code, message: decision.message, status: decision.status }
    : { code: decision.code, message: decision.message };
  return new Response(JSON.stringify(body), {
    status: decision.status,
    headers: { 'Content-Type': 'application/json', 'Cache-Control': 'private, no-store' },
  });
}

/**
 * Seed section 2's route guard, on the server. The session is read only for guarded paths (and form
 * Actions posted to a page), only when its cookie is present: public pages stay identical for everyone
 * and cacheable, and never pay for a lookup.
 */
async function guard(context: APIContext): Promise<Response | undefined> {
  const { request, url } = context;
  const path = normalizePath(url.pathname);
  const formAction = request.method === 'POST' && url.searchParams.has('_action');
  if (!needsSession(path) && !formAction) return undefined;

  if ((isActionPath(path) || formAction) && isForeignOrigin(request.method, request.headers.get('origin'), siteOrigin)) {
    return denyResponse('/_actions', { kind: 'deny', status: 403, code: 'FORBIDDEN', message: 'This request did not come from this site.' });
  }

  const found = await readSession(request.headers, getSession);
  if (found) {
    context.locals.user = found.user;
    context.locals.session = found.session;
  }
  // A form Action posted to a page authorizes itself; the page's own rule applies to the page.
  const decision = guardDecision(path, found?.user ?? null);
  if (decision.kind === 'allow') return undefined;
  if (decision.kind === 'deny') return denyResponse(path, decision);
  // An emailed link that failed lands on /verify-email?error=…; keep the reason for the sign-in page.
  const error = path === VERIFY_EMAIL_PAGE ? url.searchParams.get('error') : null;
  return context.redirect(error ? `${decision.to}?error=${encodeURIComponent(error)}` : decision.to, 302);
}

export const onRequest = defineMiddleware(async (context, next) => {
  const response = await respond(context, next);
  // Some responses (redirects, fetched error pages) have immutable headers: copy them when needed.
  let result = response;
  try {
    result.headers.set('X-Content-Type-Options', 'nosniff');
  } catch {
    result = new Response(response.body, response);
  }
  const headers = result.headers;
  applySecurityHeaders(headers, { https: siteIsHttps || context.url.protocol === 'https:' });
  // Whatever is set here is also what the route cache stores and replays on a hit.
  // Action answers depend on the caller too; isPrivatePath predates them.
  const actionCall = isActionPath(normalizePath(context.url.pathname)) || context.url.searchParams.has('_action');
  headers.set('Cache-Control', actionCall ? PRIVATE_CACHE_CONTROL : cacheControlFor(context.url.pathname, headers.get('Cache-Control')));
  if (headers.get('Content-Type') === 'text/html') headers.set('Content-Type', 'text/html; charset=utf-8');
  // server.mjs sends cached pages gzip-encoded to browsers that accept it; shared caches must know.
  if (!isPrivatePath(context.url.pathname) && !headers.get('Vary')?.toLowerCase().includes('accept-encoding')) {
    headers.append('Vary', 'Accept-Encoding');
  }
  return result;
});
