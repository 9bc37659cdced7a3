import type { APIRoute } from 'astro';

/** Liveness: the process is up and serving. */
export const GET: APIRoute = () =>
  new Response('ok', { headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' } });
