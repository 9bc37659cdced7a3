/**
 * First-party analytics in Chromium (decision 014): every page a visitor opens sends one beacon to
 * POST /api/visits, answered 204 without a cookie, and the visitor has no cookie at all afterwards. The
 * landing page's HTML is the same for two different visitors and still served from the route cache.
 * A headless browser's user agent is a bot's: answered the same, not counted (seen here through the
 * per-address limit, which only counted views consume). Refusals: another site, markup, unknown fields,
 * a 1 MB body, a flood from one address. What lands in which table is tested in
 * tests/integration/analytics-ingest.test.ts.
 */
import { expect, test, type APIRequestContext, type Response } from './support/fixtures';
import { ADMIN_STATE, freshClientIp } from './support/accounts';

/** A desktop Chrome as people run it (Playwright's headless one says "HeadlessChrome"). */
const CHROME_UA = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const HEADLESS_UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36';
/** VISIT_RATE_LIMIT.max (src/shared/analytics.ts): counted views per address and minute. */
const RATE_MAX = 300;

test.use({ userAgent: CHROME_UA });

const isBeacon = (r: Response) => new URL(r.url()).pathname === '/api/visits' && r.request().method() === 'POST';

test('a visitor’s three pages each send one page view, answered 204, and no cookie is ever set', async ({ page, context, baseURL }) => {
  await context.setExtraHTTPHeaders({ 'x-real-ip': freshClientIp() });
  const beacons: Response[] = [];
  page.on('response', (r) => {
    if (isBeacon(r)) beacons.push(r);
  });
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  const pages = ['/?utm_source=Newsletter&utm_medium=email&utm_campaign=spring', '/services', '/articles'];
  for (const [i, path] of pages.entries()) {
    const answered = page.waitForResponse(isBeacon);
    // As if the visitor followed a link from the previous page (goto alone sends no referrer).
    await page.goto(path, { referer: i > 0 ? `${baseURL}${pages[i - 1]}` : undefined });
    const response = await answered;
    expect(response.status(), path).toBe(204);
    expect(await response.headerValue('set-cookie'), path).toBeNull();
    expect(response.headers()['cache-control']).toBe('private, no-store');
    const body = response.request().postDataJSON() as Record<string, unknown>;
    expect(body).toMatchObject({ p: new URL(path, baseURL).pathname, w: 1280 });
    // The landing page carries the campaign; the next pages are internal navigations (referrer: this site).
    if (i === 0) expect(body).toMatchObject({ s: 'Newsletter', m: 'email', c: 'spring' });
    else expect(body.r).toBe(`${baseURL}${pages[i - 1]}`);
    expect(Object.keys(body).sort()).toEqual(i === 0 ? ['c', 'm', 'p', 'r', 's', 'w'] : ['p', 'r', 'w']);
  }
  // One beacon per page, not more (give a stray second one the time to arrive).
  await page.waitForTimeout(500);
  expect(beacons).toHaveLength(3);
  expect(await context.cookies()).toEqual([]);
  expect(await page.evaluate(() => [localStorage.length, document.cookie])).toEqual([0, '']);
  expect(errors).toEqual([]);
});

test('the admin area sends no page view', async ({ browser }) => {
  const context = await browser.newContext({ storageState: ADMIN_STATE, userAgent: CHROME_UA });
  const page = await context.newPage();
  let sent = 0;
  page.on('request', (r) => {
    if (new URL(r.url()).pathname === '/api/visits') sent += 1;
  });
  for (const path of ['/admin', '/admin/audit']) {
    await page.goto(path, { waitUntil: 'load' });
    expect(new URL(page.url()).pathname).toBe(path);
  }
  await page.waitForTimeout(1000);
  expect(sent).toBe(0);
  // The same browser on a public page does send one (so the count above could have been more than 0).
  await Promise.all([page.waitForRequest((r) => new URL(r.url()).pathname === '/api/visits'), page.goto('/services')]);
  expect(sent).toBe(1);
  await context.close();
});

test('the landing page is the same HTML for two different visitors, and still served from the cache', async ({ playwright, baseURL }) => {
  const visitor = (ua: string) => playwright.request.newContext({ baseURL, userAgent: ua, extraHTTPHeaders: { 'x-real-ip': freshClientIp() } });
  const [first, second] = [await visitor(CHROME_UA), await visitor('Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) Version/18.1 Mobile Safari/604.1')];
  try {
    await first.get('/'); // fills the route cache if no spec did yet
    const a = await first.get('/');
    const b = await second.get('/');
    for (const res of [a, b]) {
      expect(res.status()).toBe(200);
      expect(res.headers()['x-astro-cache']).toBe('HIT');
      expect(res.headers()['set-cookie']).toBeUndefined();
    }
    expect(b.headers()['cache-control']).toBe(a.headers()['cache-control']);
    expect(await b.text()).toBe(await a.text());
    expect(await a.text()).toContain('<script type="module"');
  } finally {
    await Promise.all([first.dispose(), second.dispose()]);
  }
});

function post(request: APIRequestContext, baseURL: string, data: string, headers: Record<string, string> = {}) {
  return request.post('/api/visits', { headers: { origin: baseURL, 'content-type': 'text/plain;charset=UTF-8', 'user-agent': CHROME_UA, ...headers }, data });
}

const view = (over: Record<string, unknown> = {}) => JSON.stringify({ p: '/', r: '', w: 1280, ...over });

test('a headless browser’s views are answered 204 but not counted; a person’s flood is refused with 429', async ({ request, baseURL }) => {
  // The limit's windows are whole minutes of the server's clock (this machine's): stay inside one.
  const toNextMinute = 60_000 - (Date.now() % 60_000);
  if (toNextMinute < 10_000) await new Promise((r) => setTimeout(r, toNextMinute + 250));
  const ip = freshClientIp();
  // Bots do not consume the per-address limit: only counted views do.
  const headless = await Promise.all(Array.from({ length: RATE_MAX + 5 }, () => post(request, baseURL!, view(), { 'x-real-ip': ip, 'user-agent': HEADLESS_UA })));
  expect(headless.map((r) => r.status())).toEqual(headless.map(() => 204));
  const answers = await Promise.all(Array.from({ length: RATE_MAX + 3 }, () => post(request, baseURL!, view(), { 'x-real-ip': ip })));
  expect(answers.filter((r) => r.status() === 204)).toHaveLength(RATE_MAX);
  const refused = answers.filter((r) => r.status() === 429);
  expect(refused).toHaveLength(3);
  expect(Number(refused[0]!.headers()['retry-after'])).toBeGreaterThanOrEqual(1);
  expect(await refused[0]!.json()).toMatchObject({ code: 'RATE_LIMITED' });
});

test('bad beacons are refused with a 4xx and a reason, never a 500, and never set a cookie', async ({ request, baseURL }) => {
  const ip = { 'x-real-ip': freshClientIp() };
  const cases: [string, Promise<Awaited<ReturnType<typeof post>>>, number][] = [
    ['another site', post(request, baseURL!, view(), { ...ip, origin: 'https://evil.example' }), 403],
    ['markup in the path', post(request, baseURL!, view({ p: '/<script>alert(1)</script>' }), ip), 400],
    ['an unknown field', post(request, baseURL!, view({ userId: 'someone' }), ip), 400],
    ['a negative width', post(request, baseURL!, view({ w: -1 }), ip), 400],
    ['not JSON', post(request, baseURL!, 'p=/&w=1', ip), 400],
    ['a 1 MB body', post(request, baseURL!, view({ r: 'x'.repeat(1_048_576) }), ip), 413],
  ];
  for (const [name, pending, status] of cases) {
    const res = await pending;
    expect(res.status(), name).toBe(status);
    expect(res.headers()['set-cookie'], name).toBeUndefined();
    expect((await res.json()) as { message?: string }, name).toMatchObject({ message: expect.any(String) });
  }
});
