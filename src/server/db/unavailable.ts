/**
 * When PostgreSQL is restarting, failing over or out of reach, a request that needs it is answered at once
 * with 503 and Retry-After (docs/decisions/025): the client (a browser, a proxy, a load balancer) knows to
 * come back, and no stack trace or 500 page is shown. The pool reconnects by itself when the server is back.
 */
import { dbHandle } from './index';

/** What a client is told to wait before it tries again. */
export const RETRY_AFTER_SECONDS = 5;

/** SQLSTATE classes and codes that mean "no usable connection", not "this query is wrong". */
const UNAVAILABLE_SQLSTATE = /^(08...|57P0[1-4]|53300)$/; // connection exception, shutdown/cannot connect now, too many connections
const UNAVAILABLE_ERRNO = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'EPIPE']);
/** pg's own messages for a connection that failed or ended (it gives them no code). */
const UNAVAILABLE_MESSAGE = /connection terminated|timeout exceeded when trying to connect|connection error|Connection ended|not queryable/i;

/** Whether an error (or any error it wraps: Drizzle wraps the driver's) says the database cannot be reached. */
export function isDatabaseUnavailable(err: unknown): boolean {
  const seen = new Set<unknown>();
  for (let e = err; e instanceof Error && !seen.has(e); e = e.cause) {
    seen.add(e);
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && (UNAVAILABLE_SQLSTATE.test(code) || UNAVAILABLE_ERRNO.has(code))) return true;
    if (UNAVAILABLE_MESSAGE.test(e.message)) return true;
    if (e instanceof AggregateError && e.errors.some(isDatabaseUnavailable)) return true;
  }
  return false;
}

/** How long a failing page waits for the database to answer `select 1` before calling it unavailable. */
const PROBE_TIMEOUT_MS = 1_500;

/**
 * For a 500 whose cause the middleware cannot see (Astro rendered the error page itself): does the
 * database answer right now? Only asked on errors, so it costs nothing on the way that works.
 */
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
