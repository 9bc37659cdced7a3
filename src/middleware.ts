import type { APIContext, MiddlewareNext } from 'astro';
import { defineMiddleware } from 'astro:middleware';
import { isDefinedAction } from './actions/lookup';
import { getSession } from './server/auth';
import { VERIFY_EMAIL_PAGE } from './server/auth/constants';
import { config } from './server/config';
import { startUp } from './server/startup';
import { actionRulePath, GUARD_MESSAGES, guardDecision, needsSession, normalizePath, type GuardDecision } from './server/guards';
import { readSession } from './server/guards/session';
import { failedForTheDatabase, databaseUnavailableResponse } from './server/db/unavailable';
import { noteRoutePattern } from './server/metrics/route-label';
import { bodyPolicyFor, type BodyPolicy } from './server/http/body-policy';
import { BODY_ERROR_MESSAGES, checkRequestBody, isUnstorableText, limitForType } from './server/http/request-body';
import { PREVIEW_PARAM } from './server/modules/pages/preview';
import { logger } from './server/logger';
import { isRefusedOrigin } from './server/request-origin';
import { AUTH_MESSAGES } from './shared/auth-messages';
import { isFormPostPage } from './shared/form-pages';
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
  if (method === 'POST' && isFormPostPage(normalizePath(url.pathname))) return undefined;
  const allow = isFormPostPage(normalizePath(url.pathname)) ? `${PAGE_METHODS}, POST` : PAGE_METHODS;
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

/** An address whose path or query holds text no column can store (a NUL): refused before any route runs. */
function unstorableAddressResponse({ url }: APIContext): Response | undefined {
  let path = url.pathname;
  try {
    path = decodeURIComponent(path);
  } catch {
    // Malformed escapes never get here (server.mjs answers 400); judge the raw text.
  }
  const unstorable = isUnstorableText(path) || [...url.searchParams].some(([key, value]) => isUnstorableText(key) || isUnstorableText(value));
  return unstorable ? errorResponse(url.pathname, 400, 'UNSTORABLE_TEXT', ADDRESS_MESSAGE) : undefined;
}

const ADDRESS_MESSAGE = 'The address contains characters that are not text (a NUL).';

/** A body declared larger than its route takes: refused before a byte of it is read. */
function declaredOversizeResponse({ request, url }: APIContext, policy: BodyPolicy): Response | undefined {
  const declared = Number(request.headers.get('content-length') ?? 0);
  if (!(declared > limitForType(policy.limit, request.headers.get('content-type')))) return undefined;
  return errorResponse(url.pathname, 413, 'REQUEST_TOO_LARGE', BODY_ERROR_MESSAGES.REQUEST_TOO_LARGE);
}

/** For bodies Astro or a library reads next: checked within the route's limit (the route reads its own). */
async function unreadableBodyResponse({ request, url }: APIContext, policy: BodyPolicy): Promise<Response | undefined> {
  if (policy.reader !== 'middleware') return undefined;
  const bodyError = await checkRequestBody(request, policy.limit);
  return bodyError && errorResponse(url.pathname, bodyError.status, bodyError.code, bodyError.message);
}

/**
 * The order is the point (docs/decisions/020): cheap refusals that read nothing (origin, address, method),
 * then who is asking (session and role), and only then the body: its declared size, then the body itself
 * within the limit of the route or Action that will run. A stranger's 60 MB upload to an admin route is
 * refused (401) before a byte of it is read, and every admin route answers strangers alike whatever they send.
 */
async function respond(context: APIContext, next: MiddlewareNext): Promise<Response> {
  const early = forgedWriteResponse(context) ?? unstorableAddressResponse(context) ?? pageMethodResponse(context.request, context.url);
  if (early) return early;
  const calls = actionCallsOf(context.request, context.url);
  const write = !SAFE_METHODS.has(context.request.method);
  const policy = write ? bodyPolicyFor(normalizePath(context.url.pathname), calls[0]?.name) : undefined;
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
  const guarded = await guard(context, calls);
  if (guarded) return guarded;
  const refusedBody = policy && (declaredOversizeResponse(context, policy) ?? (await unreadableBodyResponse(context, policy)));
  if (refusedBody) return refusedBody;
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

interface ActionCall {
  name: string;
  transport: 'rpc' | 'form';
}

/**
 * Every Action this request names: the one in a `/_actions/…` path (the one Astro runs there) and the one
 * in a POST's `?_action=` (the one Astro runs on any other route). Both are judged when both are present,
 * so no spelling of the path can make the guard judge one Action while Astro runs another.
 */
function actionCallsOf(request: Request, url: URL): ActionCall[] {
  const calls: ActionCall[] = [];
  const rpc = actionNameOf(url.pathname);
  if (rpc !== undefined) calls.push({ name: rpc, transport: 'rpc' });
  const form = request.method === 'POST' ? url.searchParams.get('_action') : null;
  if (form !== null) calls.push({ name: form, transport: 'form' });
  return calls;
}

/**
 * Seed section 2's route guard, on the server. The session is read only for guarded paths (and Actions),
 * only when its cookie is present: public pages stay identical for everyone and cacheable, and never pay
 * for a lookup. The path's own rule and the rule of every Action the request names must all allow it.
 */
async function guard(context: APIContext, calls: readonly ActionCall[]): Promise<Response | undefined> {
  const { request, url } = context;
  const path = normalizePath(url.pathname);
  if (calls.some((call) => !isDefinedAction(call.name))) return errorResponse(path, 404, 'NOT_FOUND', 'There is no such action.');
  const rulePaths = [path, ...calls.map((call) => actionRulePath(call.name))];
  // An admin's `?preview` of a page visitors cannot see yet needs to know who asks (pages/preview.ts).
  const preview = request.method === 'GET' && url.searchParams.has(PREVIEW_PARAM);
  if (!rulePaths.some(needsSession) && !preview) return undefined;

  const found = await readSession(request.headers, getSession);
  if (found) {
    context.locals.user = found.user;
    context.locals.session = found.session;
  }
  // A browser's form post is answered like a page (redirects); the RPC transport like an API (JSON).
  const formPost = calls.length > 0 && calls.every((call) => call.transport === 'form');
  for (const rulePath of rulePaths) {
    const decision = guardDecision(rulePath, found?.user ?? null, formPost ? 'page' : undefined);
    if (decision.kind === 'allow') continue;
    if (decision.kind === 'deny') return denyResponse(path, decision);
    // An emailed link that failed lands on /verify-email?error=…; keep the reason for the sign-in page.
    const error = path === VERIFY_EMAIL_PAGE ? url.searchParams.get('error') : null;
    return context.redirect(error ? `${decision.to}?error=${encodeURIComponent(error)}` : decision.to, formPost ? 303 : 302);
  }
  return undefined;
}

/**
 * PostgreSQL down or unreachable (docs/decisions/025): whatever needed it answers 503 with Retry-After, never
 * a 500 page. After a failure (thrown, or a 500 Astro already rendered) the database is asked whether it
 * answers; only then, so the way that works pays nothing.
 */
async function respondUnlessDatabaseDown(context: APIContext, next: MiddlewareNext): Promise<Response> {
  try {
    const response = await respond(context, next);
    if (response.status < 500 || response.status === 503 || !(await failedForTheDatabase())) return response;
    logger.warn({ path: context.url.pathname }, 'database unavailable: answered 503');
    return databaseUnavailableResponse();
  } catch (err) {
    if (!(await failedForTheDatabase())) throw err;
    logger.warn({ err, path: context.url.pathname }, 'database unavailable: answered 503');
    return databaseUnavailableResponse();
  }
}

export const onRequest = defineMiddleware(async (context, next) => {
  noteRoutePattern(context);
  const response = await respondUnlessDatabaseDown(context, next);
  // Some responses (redirects, fetched error pages) have immutable headers: copy them when needed.
  let result = response;
  try {
    result.headers.set('X-Content-Type-Options', 'nosniff');
  } catch {
    result = new Response(response.body, response);
  }
  const headers = result.headers;
  applySecurityHeaders(headers, { https: siteIsHttps || context.url.protocol === 'https:', pathname: context.url.pathname });
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
