/**
 * Members' page-time in a real browser (decision 014): a signed-in member's tab sends one beacon per page
 * they leave, answered 204, with the page's path and their own id; a visitor never downloads the tracker
 * nor sends a record; a record forged for someone else is refused from the member's own browser; bad input
 * over HTTP is refused with a 4xx and a message, never a 500.
 */
import { expect, test, type APIRequestContext, type Page, type Request } from './support/fixtures';
import { PAGE_TIME_RATE_LIMIT } from '../../src/shared/page-time';
import { createVerifiedAccount, freshClientIp, MEMBER_STATE, sessionUser } from './support/accounts';

const ENDPOINT = '/api/page-views';
/** The tracker's chunk, as the build names it (src/features/page-time/tracker.ts). */
const TRACKER_CHUNK = /\/_astro\/tracker\.[\w-]+\.js$/;
const isBeacon = (r: Request) => new URL(r.url()).pathname === ENDPOINT;

interface SentRecord {
  userId: string;
  pagePath: string;
  duration: number;
  timestamp: number;
  sessionId: string;
}

/** Opens `path` and waits until the tracker's chunk has loaded (after the session said "signed in"). */
async function openTracked(page: Page, path: string) {
  await page.goto(path);
  // Resource timing lists the chunk whether it came from the network or the browser's cache.
  const loaded = () => page.evaluate((source) => performance.getEntriesByType('resource').some((e) => new RegExp(source).test(new URL(e.name).pathname)), TRACKER_CHUNK.source);
  await expect.poll(loaded).toBe(true);
}

/**
 * Records every beacon body the page sends, in sessionStorage (which survives the tab's navigations), so a
 * spec can read what was sent while the page was being left.
 */
function spyOnBeacons() {
  const NativeBlob = Blob;
  const texts = new WeakMap<Blob, string>();
  window.Blob = class extends NativeBlob {
    constructor(parts?: BlobPart[], options?: BlobPropertyBag) {
      super(parts, options);
      if (typeof parts?.[0] === 'string') texts.set(this, parts[0]);
    }
  };
  const send = navigator.sendBeacon.bind(navigator);
  navigator.sendBeacon = (url, data) => {
    const accepted = send(url, data);
    // Only the page-time records: the page's visit beacon (/api/visits) goes through here too.
    if (new URL(url, location.href).pathname !== '/api/page-views') return accepted;
    const log = JSON.parse(sessionStorage.getItem('test.beacons') ?? '[]') as string[];
    sessionStorage.setItem('test.beacons', JSON.stringify([...log, texts.get(data as Blob) ?? '']));
    if (!accepted) sessionStorage.setItem('test.beacons.refused', 'yes');
    return accepted;
  };
}

const sentBodies = (page: Page) => page.evaluate(() => JSON.parse(sessionStorage.getItem('test.beacons') ?? '[]') as string[]);

test.describe('a signed-in member', () => {
  test.use({ storageState: MEMBER_STATE });
  test.beforeEach(({ page }) => page.addInitScript(spyOnBeacons));

  test('browsing three pages sends each page’s time to /api/page-views, answered 204', async ({ page }) => {
    const me = await sessionUser(page);
    expect(me?.id).toEqual(expect.any(String));
    const warnings: string[] = [];
    page.on('console', (m) => m.type() === 'warning' && warnings.push(m.text()));
    const paths = ['/', '/services', '/articles'];
    const records: SentRecord[] = [];
    for (const path of paths) {
      await openTracked(page, path);
      await page.waitForTimeout(1300); // more than the 1000 ms a stretch must last
      const answered = page.waitForResponse((r) => isBeacon(r.request()));
      // What the browser fires when the page is left. Playwright cannot see a beacon sent by a document
      // already gone, so the event is fired here first; the next test covers real navigations.
      await page.evaluate(() => dispatchEvent(new PageTransitionEvent('pagehide', { persisted: false })));
      const response = await answered;
      expect(response.status()).toBe(204);
      records.push(JSON.parse(response.request().postData() ?? (await sentBodies(page)).at(-1)!) as SentRecord);
    }
    expect(records.map((r) => r.pagePath)).toEqual(paths);
    for (const r of records) {
      expect(r.userId).toBe(me!.id);
      expect(r.duration).toBeGreaterThan(1000);
      expect(r.duration).toBeLessThan(60_000);
      expect(r.timestamp).toBeLessThanOrEqual(Date.now());
    }
    // One tab, one session id across its pages.
    expect(new Set(records.map((r) => r.sessionId)).size).toBe(1);
    expect(warnings.filter((w) => w.includes('Page time'))).toEqual([]);
  });

  test('leaving a page by a real navigation sends its beacon (the browser accepts it)', async ({ page }) => {
    const paths = ['/services', '/packages', '/articles'];
    for (const path of paths) {
      await openTracked(page, path);
      await page.waitForTimeout(1300);
    }
    await page.goto('/privacy');
    const sent = await sentBodies(page);
    expect(sent.map((body) => (JSON.parse(body) as SentRecord).pagePath)).toEqual(paths);
    expect(await page.evaluate(() => sessionStorage.getItem('test.beacons.refused'))).toBeNull();
  });

  test('a tab that becomes hidden sends its time then, and nothing for the time it stays hidden', async ({ page }) => {
    await openTracked(page, '/packages');
    await page.waitForTimeout(1300);
    const sent = page.waitForRequest(isBeacon);
    await page.evaluate(() => {
      Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
      document.dispatchEvent(new Event('visibilitychange'));
    });
    expect((await sent).method()).toBe('POST');
    expect((await sentBodies(page)).map((b) => (JSON.parse(b) as SentRecord).pagePath)).toEqual(['/packages']);
    // While hidden, leaving the page sends nothing more.
    let more = 0;
    page.on('request', (r) => isBeacon(r) && (more += 1));
    await page.waitForTimeout(1200);
    await page.goto('/terms');
    await page.waitForTimeout(300);
    expect(more).toBe(0);
  });

  test('a beacon forged for another member is refused (403) from the member’s own browser', async ({ page }) => {
    await openTracked(page, '/');
    const me = await sessionUser(page);
    const status = await page.evaluate(async (userId) => {
      const record = { userId: `${userId}x`, pagePath: '/services', duration: 5000, timestamp: Date.now() - 5000, sessionId: 'forged-tab-1' };
      const res = await fetch('/api/page-views', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(record) });
      return { status: res.status, body: (await res.json()) as { message: string } };
    }, me!.id as string);
    expect(status.status).toBe(403);
    expect(status.body.message).toMatch(/signed-in member/);
    // The member's own record from the same page is accepted.
    const own = await page.evaluate(async (userId) => {
      const record = { userId, pagePath: '/services', duration: 2000, timestamp: Date.now() - 2000, sessionId: 'own-tab-12' };
      return (await fetch('/api/page-views', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(record) })).status;
    }, me!.id as string);
    expect(own).toBe(204);
  });
});

test('a visitor never downloads the tracker nor sends a page-time record', async ({ page }) => {
  const seen: string[] = [];
  page.on('request', (r) => seen.push(new URL(r.url()).pathname));
  // The member's specs (openTracked) show this pattern matches the chunk when it loads.
  for (const path of ['/', '/services', '/articles']) {
    await page.goto(path);
    await page.waitForLoadState('networkidle');
    await page.waitForTimeout(1200);
  }
  await page.goto('/privacy');
  await page.waitForLoadState('networkidle');
  // The session was asked (so the store did decide), and it said "nobody".
  expect(seen).toContain('/api/auth/get-session');
  expect(seen.filter((p) => TRACKER_CHUNK.test(p))).toEqual([]);
  expect(await page.evaluate((source) => performance.getEntriesByType('resource').filter((e) => new RegExp(source).test(new URL(e.name).pathname)).length, TRACKER_CHUNK.source)).toBe(0);
  expect(seen.filter((p) => p === ENDPOINT)).toEqual([]);
});

test.describe('POST /api/page-views over HTTP', () => {
  let member: APIRequestContext;
  let userId: string;
  const good = () => ({ userId, pagePath: '/services', duration: 3000, timestamp: Date.now() - 3000, sessionId: 'http-spec-tab' });

  test.beforeAll(async ({ playwright, baseURL }) => {
    const setup = await playwright.request.newContext({ baseURL });
    const account = await createVerifiedAccount(setup, baseURL!, 'pagetime');
    await setup.dispose();
    member = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { origin: baseURL!, 'x-real-ip': freshClientIp() } });
    const signIn = await member.post('/api/auth/sign-in/email', { data: { email: account.email, password: account.password } });
    expect(signIn.status()).toBe(200);
    userId = ((await (await member.get('/api/auth/get-session')).json()) as { user: { id: string } }).user.id;
  });
  test.afterAll(() => member.dispose());

  const post = (data: unknown, headers: Record<string, string> = {}) =>
    member.post(ENDPOINT, { headers: { 'content-type': 'application/json', ...headers }, data: Buffer.isBuffer(data) ? data : JSON.stringify(data) });

  test('refuses bad records with 400 and a message, a stranger with 401, another site with 403, 1 MB with 413', async ({ request, baseURL }) => {
    expect((await post(good())).status()).toBe(204);
    const bad: [string, unknown, RegExp][] = [
      ['negative duration', { ...good(), duration: -5000 }, /duration/],
      ['huge duration', { ...good(), duration: 1e15 }, /duration/],
      ['non-numeric duration', { ...good(), duration: 'a while' }, /duration/],
      ['markup in the path', { ...good(), pagePath: '/<script>alert(1)</script>' }, /pagePath/],
      ['not a site path', { ...good(), pagePath: 'https://evil.example/' }, /pagePath/],
      ['unknown field', { ...good(), role: 'admin' }, /Unknown field: role/],
      ['future timestamp', { ...good(), timestamp: Date.now() + 3_600_000 }, /future/],
      ['not JSON', Buffer.from('{"userId":'), /JSON/],
    ['not a record', [good()], /object/],
    ];
    for (const [name, body, message] of bad) {
      const res = await post(body);
      expect(res.status(), name).toBe(400);
      expect(((await res.json()) as { message: string }).message, name).toMatch(message);
    }
    const huge = await post({ ...good(), pagePath: `/${'a'.repeat(1_048_576)}` });
    expect(huge.status()).toBe(413);
    // Signed out (no cookie): 401; from another site: refused before anything else.
    const stranger = await request.post(ENDPOINT, { headers: { origin: baseURL!, 'content-type': 'application/json' }, data: JSON.stringify(good()) });
    expect(stranger.status()).toBe(401);
    expect((await post(good(), { origin: 'https://evil.example' })).status()).toBe(403);
    // Only POST.
    expect((await member.get(ENDPOINT)).status()).toBe(405);
  });

  test('a flood of records from one member is answered 429 with Retry-After', async () => {
    let refused: Awaited<ReturnType<typeof post>> | undefined;
    for (let i = 0; i <= PAGE_TIME_RATE_LIMIT.max && !refused; i += 1) {
      const res = await post({ ...good(), pagePath: `/flood-${i}` });
      expect([204, 429]).toContain(res.status());
      if (res.status() === 429) refused = res;
    }
    expect(refused?.status()).toBe(429);
    expect(Number(refused!.headers()['retry-after'])).toBeGreaterThanOrEqual(1);
  });
});
