/**
 * PostgreSQL stopped while the site runs, then started again (docs/decisions/025), on a PostgreSQL server
 * this spec starts itself: while it is down, what needs the database answers 503 with Retry-After at once
 * (no hang, no 500 page, no stack), /readyz says not ready, cached pages still serve; when it is back the
 * same process serves again by itself — no restart, no crash, no unhandled rejection.
 */
import { expect, test } from './support/fixtures';
import { canRunThrowawayPostgres, createThrowawayPostgres, type ThrowawayPostgres } from '../support/throwaway-postgres';
import { metricValue, ownPort, startOwnServer, type OwnServer } from './support/own-server';

const TOKEN = 'metrics-token-for-the-outage-spec-0123456789';
let postgres: ThrowawayPostgres;
let server: OwnServer;

test.skip(!canRunThrowawayPostgres(), 'needs the PostgreSQL server binaries (Debian: postgresql-15)');

test.beforeAll(async () => {
  test.setTimeout(180_000);
  postgres = createThrowawayPostgres(await ownPort(13));
  server = await startOwnServer(await ownPort(14), {
    DATABASE_URL: postgres.url,
    AUTH_SECRET: 'an-auth-secret-for-the-outage-spec-0123456789',
    METRICS_TOKEN: TOKEN,
  });
});

test.afterAll(async () => {
  await server?.stop();
  postgres?.remove();
});

interface Answer {
  status: number;
  retryAfter: string | null;
  body: string;
  ms: number;
}

async function ask(path: string, init: RequestInit = {}): Promise<Answer> {
  const started = Date.now();
  const res = await fetch(`${server.url}${path}`, { redirect: 'manual', ...init, signal: AbortSignal.timeout(20_000) });
  return { status: res.status, retryAfter: res.headers.get('retry-after'), body: await res.text(), ms: Date.now() - started };
}

const signIn = () =>
  ask('/api/auth/sign-in/email', {
    method: 'POST',
    headers: { origin: server.url, 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'nobody@example.com', password: 'not-the-password-1' }),
  });

/** A page that reads the database on every request: a new query string is never a route-cache hit. */
let article: string;
let asked = 0;
/** A page that reads the database on every request: an article nobody wrote is looked up, then the 404 page. */
const unknownArticle = () => ask(`/article/outage-check-${++asked}`);

const scrape = async () => (await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).text();

test('PostgreSQL down: 503 with Retry-After at once, not ready; back: the same process serves again', async () => {
  test.setTimeout(120_000);
  const listing = await ask('/articles');
  article = /href="(\/article\/[^"?#]+)"/.exec(listing.body)?.[1] ?? '';
  expect(article).not.toBe('');
  expect((await ask(article)).status).toBe(200); // now in the route cache
  expect((await unknownArticle()).status).toBe(404);
  expect((await signIn()).status).toBe(401);
  expect((await ask('/services')).status).toBe(200); // now in the route cache
  const pid = server.child.pid;

  postgres.stop();

  for (const answer of [await unknownArticle(), await signIn()]) {
    expect(answer.status, answer.body).toBe(503);
    expect(answer.retryAfter).toBe('5');
    expect(answer.body).not.toMatch(/at .*\.(js|mjs|ts):\d+|Error:/); // no stack, no driver's words
    expect(answer.ms).toBeLessThan(6_000);
  }
  const notReady = await ask('/readyz');
  expect(notReady.status).toBe(503);
  expect(notReady.retryAfter).toBe('5');
  expect((await ask('/healthz')).status).toBe(200);
  expect((await ask('/services')).status).toBe(200); // a cached page needs no database
  expect((await ask(`${article}?utm_source=outage`)).status).toBe(200); // nor does one asked with an invented query
  expect(metricValue(await scrape(), 'agency_database_up')).toBe(0);

  postgres.start();

  await expect.poll(async () => (await ask('/readyz')).status, { timeout: 30_000 }).toBe(200);
  expect((await unknownArticle()).status).toBe(404);
  expect((await signIn()).status).toBe(401);
  expect(metricValue(await scrape(), 'agency_database_up')).toBe(1);
  expect(metricValue(await scrape(), 'agency_db_pool_connections', { state: 'total' })).toBeGreaterThan(0);

  // The same process throughout: nothing crashed and nothing restarted it.
  expect(server.child.pid).toBe(pid);
  expect(server.child.exitCode).toBeNull();
  expect(server.output()).not.toMatch(/unhandled|uncaught/i);
});
