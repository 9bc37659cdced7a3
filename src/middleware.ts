import type { APIContext, MiddlewareNext } from 'astro';
import { defineMiddleware } from 'astro:middleware';
import { isDefinedAction } from './actions/lookup';
import { getSession } from './server/auth';
import { VERIFY_EMAIL_PAGE } from './server/auth/constants';
import { config } from './server/config';
import { startUp } from './server/startup';
import { actionRulePath, GUARD_MESSAGES, guardDecision, needsSession, normalizePath, type GuardDecision } from './server/guards';
import { readSession } from './server/guards/session';
import { BODY_ERROR_MESSAGES, bodyLimitFor, checkRequestBody } from './server/http/request-body';
import { PREVIEW_PARAM } from './server/modules/pages/preview';
import { logger } from './server/logger';
import { isRefusedOrigin } from './server/request-origin';
import { AUTH_MESSAGES } from './shared/auth-messages';
import { FORM_POST_PAGES } from './shared/form-pages';
import { isMediaApiPath, storageRefusal } from './shared/media-library';
import { applySecurityHeaders, cacheControlFor, isPrivatePath, PRIVATE_CACHE_CONTROL } from './server/security-headers';

// HSTS decision (docs/decisions/002): the public origin in SITE_URL says whether the site is served over
// HTTPS; X-Forwarded-Proto is not trusted. A TLS socket of our own (SERVER_CERT_PATH) counts too.
const siteIsHttps = config().SITE_URL.startsWith('https://');

const PAGE_METHODS = 'GET, HEAD, OPTIONS';
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

const isEndpointPath = (pathname: string) => /^\/(api|_actions|_server-islands)(\/|$)/.test(pathname);

/**
 * Pages only answer GET and HEAD, except the few whose forms post to themselves (FORM_POST_PAGES). Writes
 * go to API routes, Astro's action and server-island endpoints or a form action (`?_action=` on the page
 * URL); any other write to a page is refused before it renders.
 */
function pageMethodResponse(request: Request, url: URL): Response | undefined {
  const { method } = request;
  if (method === 'GET' || method === 'HEAD') return undefined;
  if (isEndpointPath(url.pathname) || url.searchParams.has('_action')) return undefined;
  if (method === 'POST' && FORM_POST_PAGES.has(normalizePath(url.pathname))) return undefined;
  const allow = FORM_POST_PAGES.has(normalizePath(url.pathname)) ? `${PAGE_METHODS}, POST` : PAGE_METHODS;
  if (method === 'OPTIONS') return new Response(null, { status: 204, headers: { Allow: allow } });
  return new Response('Method not allowed.', {
    status: 405,
    headers: { Allow: allow, 'Content-Type': 'text/plain; charset=utf-8' },
  });
}

/**
 * Every write, whatever its route, passes the same two checks before anything runs: it comes from this
 * site (cross-site request forgery; first, so a forged post learns nothing else), and its body is
 * readable (size, JSON, form). Astro's own checkOrigin is off (astro.config.ts): it only sees form posts and
 * compares with the request's URL, which behind a TLS proxy is not the public origin.
 */
function forgedWriteResponse({ request, url }: APIContext): Response | undefined {
  if (SAFE_METHODS.has(request.method) || !isRefusedOrigin(request)) return undefined;
  return errorResponse(url.pathname, 403, 'FORBIDDEN_ORIGIN', AUTH_MESSAGES.FORBIDDEN_ORIGIN);
}

/**
 * A body declared larger than its route takes is refused before anything else looks at the request (the
 * adapter accepts the largest route limit, so server.mjs only refuses what no route takes).
 */
function declaredOversizeResponse({ request, url }: APIContext): Response | undefined {
  const declared = Number(request.headers.get('content-length') ?? 0);
  if (!(declared > bodyLimitFor(normalizePath(url.pathname)))) return undefined;
  return errorResponse(url.pathname, 413, 'REQUEST_TOO_LARGE', BODY_ERROR_MESSAGES.REQUEST_TOO_LARGE);
}

async function unreadableBodyResponse({ request, url }: APIContext): Promise<Response | undefined> {
  if (SAFE_METHODS.has(request.method)) return undefined;
  const bodyError = await checkRequestBody(request, bodyLimitFor(normalizePath(url.pathname)));
  return bodyError && errorResponse(url.pathname, bodyError.status, bodyError.code, bodyError.message);
}

async function respond(context: APIContext, next: MiddlewareNext): Promise<Response> {
  const refused =
    forgedWriteResponse(context) ??
    declaredOversizeResponse(context) ??
    pageMethodResponse(context.request, context.url) ??
    (await unreadableBodyResponse(context));
  if (refused) return refused;
  if (context.url.pathname !== '/healthz' && context.url.pathname !== '/readyz') {
    try {
      await startUp();
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

/** The Action a `/_actions/…` path names, as Astro reads it (case kept). */
function actionNameOf(pathname: string): string | undefined {
  const raw = /^\/_actions\/(.*)$/.exec(pathname)?.[1];
  if (raw === undefined) return undefined;
  try {
    return decodeURIComponent(raw).replace(/\/+$/, '');
  } catch {
    return raw;
  }
}

const ACTION_ERROR_CODES: Record<number, string> = { 400: 'BAD_REQUEST', 401: 'UNAUTHORIZED', 403: 'FORBIDDEN', 413: 'CONTENT_TOO_LARGE' };

/**
 * A refusal in the shape the caller reads: Actions get Astro's own error shape (so `actions.x()` on the
 * client gets a proper ActionError), API routes JSON, a browser's form post to a page plain text.
 */
function errorResponse(pathname: string, status: number, code: string, message: string): Response {
  const path = normalizePath(pathname);
  const headers = { 'Cache-Control': 'private, no-store' };
  if (isActionPath(path)) {
    const body = { type: 'AstroActionError', code: ACTION_ERROR_CODES[status] ?? code, message, status };
    return new Response(JSON.stringify(body), { status, headers: { ...headers, 'Content-Type': 'application/json' } });
  }
  if (isEndpointPath(path)) {
    // The media API answers in the seed's storage error catalogue, refusals made here included.
    // The guard's generic "no access" becomes the catalogue's own words ("Only an admin can manage images.").
    const body = isMediaApiPath(path) ? storageRefusal(status, message === GUARD_MESSAGES.FORBIDDEN ? '' : message) : { code, message };
    return new Response(JSON.stringify(body), { status, headers: { ...headers, 'Content-Type': 'application/json' } });
  }
  return new Response(message, { status, headers: { ...headers, 'Content-Type': 'text/plain; charset=utf-8' } });
}

const denyResponse = (path: string, decision: Extract<GuardDecision, { kind: 'deny' }>) =>
  errorResponse(path, decision.status, decision.code, decision.message);

/**
 * Seed section 2's route guard, on the server. The session is read only for guarded paths (and Actions),
 * only when its cookie is present: public pages stay identical for everyone and cacheable, and never pay
 * for a lookup. An Action meets the same rule however it arrives: `/_actions/name` or a form post to any
 * page with `?_action=name`.
 */
async function guard(context: APIContext): Promise<Response | undefined> {
  const { request, url } = context;
  const path = normalizePath(url.pathname);
  const formAction = request.method === 'POST' ? url.searchParams.get('_action') : null;
  const actionName = formAction ?? actionNameOf(url.pathname);
  if (actionName !== undefined && !isDefinedAction(actionName)) return errorResponse(path, 404, 'NOT_FOUND', 'There is no such action.');
  const rulePath = formAction !== null ? actionRulePath(formAction) : path;
  // An admin's `?preview` of a page visitors cannot see yet needs to know who asks (pages/preview.ts).
  const preview = request.method === 'GET' && url.searchParams.has(PREVIEW_PARAM);
  if (!needsSession(rulePath) && !preview) return undefined;

  const found = await readSession(request.headers, getSession);
  if (found) {
    context.locals.user = found.user;
    context.locals.session = found.session;
  }
  // A browser's form post is answered like a page (redirects); the RPC transport like an API (JSON).
  const decision = guardDecision(rulePath, found?.user ?? null, formAction !== null ? 'page' : undefined);
  if (decision.kind === 'allow') return undefined;
  if (decision.kind === 'deny') return denyResponse(path, decision);
  // An emailed link that failed lands on /verify-email?error=…; keep the reason for the sign-in page.
  const error = path === VERIFY_EMAIL_PAGE ? url.searchParams.get('error') : null;
  return context.redirect(error ? `${decision.to}?error=${encodeURIComponent(error)}` : decision.to, formAction !== null ? 303 : 302);
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
  // Private pages (admin, dashboard, account) are never indexed, whatever a crawler was told by robots.txt.
  if (isPrivatePath(context.url.pathname)) headers.set('X-Robots-Tag', 'noindex, nofollow');
  if (headers.get('Content-Type') === 'text/html') headers.set('Content-Type', 'text/html; charset=utf-8');
  // server.mjs sends cached pages gzip-encoded to browsers that accept it; shared caches must know.
  if (!isPrivatePath(context.url.pathname) && !headers.get('Vary')?.toLowerCase().includes('accept-encoding')) {
    headers.append('Vary', 'Accept-Encoding');
  }
  return result;
});
