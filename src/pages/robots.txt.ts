import type { APIRoute } from 'astro';
import { config } from '../server/config';
import { renderRobots } from '../server/modules/seo/sitemap';

export const GET: APIRoute = () =>
  new Response(renderRobots(config().SITE_URL), {
    headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'public, max-age=3600' },
  });
