import type { APIContext, MiddlewareNext } from 'astro';
import { defineMiddleware } from 'astro:middleware';
import { config } from './server/config';
import { ready } from './server/db';
import { logger } from './server/logger';
import { applySecurityHeaders, cacheControlFor, isPrivatePath } from './server/security-headers';

// HSTS decision (docs/decisions/002): the public origin in SITE_URL says whether the site is served over
// HTTPS; X-Forwarded-Proto is not trusted. A TLS socket of our own (SERVER_CERT_PATH) counts too.
const siteIsHttps = config().SITE_URL.startsWith('https://');

const PAGE_METHODS = 'GET, HEAD, OPTIONS';

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
  return next();
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
  headers.set('Cache-Control', cacheControlFor(context.url.pathname, headers.get('Cache-Control')));
  if (headers.get('Content-Type') === 'text/html') headers.set('Content-Type', 'text/html; charset=utf-8');
  // server.mjs sends cached pages gzip-encoded to browsers that accept it; shared caches must know.
  if (!isPrivatePath(context.url.pathname) && !headers.get('Vary')?.toLowerCase().includes('accept-encoding')) {
    headers.append('Vary', 'Accept-Encoding');
  }
  return result;
});
