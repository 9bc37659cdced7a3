/**
 * /metrics (docs/decisions/025): absent unless METRICS_TOKEN is set (the suite's server has none: 404 like
 * any unknown page); with it, 401 without the right Bearer token, and the Prometheus text with route
 * patterns (never raw paths) whose counts grow with the requests served.
 */
import { expect, test } from './support/fixtures';
import { metricValue, ownPort, startOwnServer, type OwnServer } from './support/own-server';

const TOKEN = 'metrics-token-for-the-e2e-suite-0123456789';
let server: OwnServer;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  server = await startOwnServer(await ownPort(11), { METRICS_TOKEN: TOKEN });
});

test.afterAll(async () => {
  await server?.stop();
});

const scrape = (token = TOKEN) => fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${token}` } });

test('off by default: /metrics is an unknown page', async ({ request }) => {
  const metrics = await request.get('/metrics');
  const unknown = await request.get('/no-such-page-here');
  expect(metrics.status()).toBe(404);
  expect(unknown.status()).toBe(404);
  expect(metrics.headers()['content-type']).toBe(unknown.headers()['content-type']);
  expect(await metrics.text()).not.toContain('agency_');
});

test('with METRICS_TOKEN: 401 without the token or with a wrong one, never cached', async () => {
  const refused: Record<string, string>[] = [{}, { authorization: `Bearer ${TOKEN}x` }, { authorization: `Bearer ${TOKEN.slice(0, -1)}` }, { authorization: TOKEN }];
  for (const headers of refused) {
    const res = await fetch(`${server.url}/metrics`, { headers });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toContain('Bearer');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(await res.text()).not.toContain('agency_');
  }
});

test('with the token: request counts by route pattern and status, latency, cache, queue, streams, database', async () => {
  const before = await (await scrape()).text();
  const served = (route: string, status: string, text = before) => metricValue(text, 'agency_http_requests_total', { route, method: 'GET', status });

  for (let i = 0; i < 3; i++) expect((await fetch(`${server.url}/services`)).status).toBe(200);
  // Three different addresses, one route: one label value, not three.
  for (const slug of ['one-that-is-not-there', 'another', 'a-third']) await fetch(`${server.url}/article/${slug}`);

  const res = await scrape();
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toContain('text/plain');
  expect(res.headers.get('cache-control')).toBe('no-store');
  const after = await res.text();
  for (const name of [
    'agency_http_requests_total',
    'agency_http_request_duration_seconds_bucket',
    'agency_route_cache_requests_total',
    'agency_route_cache_bytes',
    'agency_route_cache_entries',
    'agency_mail_queue_messages',
    'agency_chat_open_streams',
    'agency_database_up',
    'agency_process_resident_memory_bytes',
  ]) {
    expect(after, name).toContain(`${name}`);
  }
  expect(served('/services', '200', after) - served('/services', '200')).toBe(3);
  expect(metricValue(after, 'agency_http_request_duration_seconds_count', { route: '/services', method: 'GET' })).toBeGreaterThanOrEqual(3);
  // The cached page's hits are counted under its route, and as cache hits.
  expect(metricValue(after, 'agency_route_cache_requests_total', { result: 'hit' }) - metricValue(before, 'agency_route_cache_requests_total', { result: 'hit' })).toBeGreaterThanOrEqual(2);
  expect(metricValue(after, 'agency_route_cache_bytes')).toBeGreaterThan(0);
  expect(after).not.toContain('one-that-is-not-there');
  expect(after).not.toContain('route="/article/another"');
  expect(metricValue(after, 'agency_database_up')).toBe(1);
  expect(after).toMatch(/agency_mail_queue_messages\{state="pending"\} \d+/);
  // The scrapes themselves count too.
  expect(metricValue(after, 'agency_http_requests_total', { route: '/metrics', status: '200' })).toBeGreaterThanOrEqual(1);
});
