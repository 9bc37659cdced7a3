/**
 * When PostgreSQL is restarting, failing over or out of reach, a request that needs it is answered at once
 * with 503 and Retry-After (docs/decisions/025): the client (a browser, a proxy, a load balancer) knows to
 * come back, and no stack trace or 500 page is shown. The pool reconnects by itself when the server is back.
 */
import { dbHandle } from './index';

/** What a client is told to wait before it tries again. */
export const RETRY_AFTER_SECONDS = 5;

/** How long a failing page waits for the database to answer `select 1` before calling it unavailable. */
const PROBE_TIMEOUT_MS = 1_500;

/**
 * Whether the database answers `select 1` right now. Asked only after something failed (a thrown error, a
 * 500 Astro already rendered, whose cause the middleware cannot see): the answer, not the error's wording,
 * decides between 503 (come back later) and a real error, so a driver's, a proxy's or a failover's
 * message never has to be recognised, and a real bug is never hidden behind "try again".
 */
/**
 * Whether a request that failed is put down to the database being unavailable: a connection was lost or
 * refused moments ago (the failure happened during an outage that may be over by the time it is asked, as
 * when PostgreSQL has just restarted), or the database does not answer now.
 */
export async function failedForTheDatabase(): Promise<boolean> {
  if (dbHandle()?.lostConnectionRecently?.()) return true;
  return !(await databaseAnswers());
}

export async function databaseAnswers(): Promise<boolean> {
  const handle = dbHandle();
  if (!handle) return false;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timeout exceeded when trying to connect')), PROBE_TIMEOUT_MS);
  });
  try {
    await Promise.race([handle.ping(), timeout]);
    return true;
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}

export function databaseUnavailableResponse(): Response {
  return new Response('The site cannot reach its database right now. Please try again in a few seconds.', {
    status: 503,
    headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Retry-After': String(RETRY_AFTER_SECONDS), 'Cache-Control': 'no-store' },
  });
}
