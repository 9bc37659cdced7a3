import type { APIRoute } from 'astro';
import { startUp } from '../server/startup';
import { logger } from '../server/logger';

/** Readiness: the database is open, migrated and answering. */
export const GET: APIRoute = async () => {
  const headers = { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' };
  try {
    const handle = await startUp();
    await handle.ping();
    return new Response('ready', { headers });
  } catch (err) {
    logger.error({ err }, 'readiness check failed');
    return new Response(`not ready: ${err instanceof Error ? err.message : 'database unavailable'}`, {
      status: 503,
      headers,
    });
  }
};
