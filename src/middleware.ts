import { defineMiddleware } from 'astro:middleware';
import { config } from './server/config';
import { ready } from './server/db';
import { logger } from './server/logger';
import { applySecurityHeaders, isPrivatePath } from './server/security-headers';

const siteIsHttps = config().SITE_URL.startsWith('https://');

export const onRequest = defineMiddleware(async (context, next) => {
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
  const response = await next();
  // Responses of some endpoints (e.g. redirects) have immutable headers; copy them when needed.
  let result = response;
  try {
    applySecurityHeaders(response.headers, { https: siteIsHttps || context.url.protocol === 'https:' });
  } catch {
    result = new Response(response.body, response);
    applySecurityHeaders(result.headers, { https: siteIsHttps || context.url.protocol === 'https:' });
  }
  if (isPrivatePath(context.url.pathname)) result.headers.set('Cache-Control', 'private, no-store');
  else if (!result.headers.has('Cache-Control')) result.headers.set('Cache-Control', 'public, max-age=0, must-revalidate');
  return result;
});
