import type { APIRoute } from 'astro';
import { startUp } from '../server/startup';
import { RETRY_AFTER_SECONDS } from '../server/db/unavailable';
import { logger } from '../server/logger';

/**
 * Readiness: the database is open, migrated and answering. A load balancer takes an instance that says
 * not ready out of rotation; it comes back by itself when the database does (docs/decisions/025).
 */
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
      headers: { ...headers, 'Retry-After': String(RETRY_AFTER_SECONDS) },
    });
  }
};
