import type { APIRoute } from 'astro';
import { cachePublicPage, CACHE_TAGS } from '../server/cache/tags';
import { config } from '../server/config';
import { logger } from '../server/logger';
import { renderSitemap, sitemapUrls } from '../server/modules/seo/sitemap';

export const GET: APIRoute = async (context) => {
  try {
    const body = renderSitemap(config().SITE_URL, await sitemapUrls());
    cachePublicPage(context, [CACHE_TAGS.services, CACHE_TAGS.packages, CACHE_TAGS.demos, CACHE_TAGS.articles]);
    return new Response(body, { headers: { 'Content-Type': 'application/xml; charset=utf-8' } });
  } catch (err) {
    // Not cached: a crawler retries later and gets the full list instead of a stored partial one.
    logger.error({ err }, 'sitemap failed to load');
    return new Response('Sitemap temporarily unavailable', {
      status: 503,
      headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Retry-After': '60', 'Cache-Control': 'no-store' },
    });
  }
};
