/**
 * HTTP-level behaviour of the built server: security headers on fresh renders and cache hits alike,
 * private areas never cached, crawler files, health probes and the head metadata of a page.
 */
import { expect, test, type APIResponse, type Page } from './support/fixtures';
import { allPublicPaths } from './support/public-pages';

/** Every schema.org node of the page: the page has one JSON-LD graph. */
async function jsonLd(page: Page): Promise<Record<string, unknown>[]> {
  const blocks = await page.locator('script[type="application/ld+json"]').allTextContents();
  return blocks.flatMap((b) => {
    const data = JSON.parse(b) as { '@graph'?: Record<string, unknown>[] } & Record<string, unknown>;
    return data['@graph'] ?? [data];
  });
}

function expectSecurityHeaders(res: APIResponse) {
  const h = res.headers();
  expect(h['x-content-type-options']).toBe('nosniff');
  expect(h['referrer-policy']).toBe('strict-origin-when-cross-origin');
  expect(h['permissions-policy']).toContain('camera=()');
  const csp = h['content-security-policy'] ?? '';
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).toContain("object-src 'none'");
  expect(csp).toContain("base-uri 'self'");
  expect(csp).toContain("form-action 'self'");
  // The server is plain HTTP here: HSTS must not be sent.
  expect(h['strict-transport-security']).toBeUndefined();
}

/** Addresses of one page that the route cache keys apart (`page` is a parameter /articles reads). */
const ARTICLES_FIRST_PAGE = Array.from({ length: 6 }, (_, i) => `/articles?page=${'1'.padStart(i + 1, '0')}`);

test('a public page carries the same security headers on a cache miss and on a cache hit', async ({ request }) => {
  // The first of these nobody has asked for yet is a miss (the suite's server lives for the whole run).
  let url = '';
  let miss: APIResponse | undefined;
  for (const candidate of ARTICLES_FIRST_PAGE) {
    const res = await request.get(candidate);
    if (res.headers()['x-astro-cache'] === 'MISS') [url, miss] = [candidate, res];
    if (miss) break;
  }
  expect(miss, 'an address of /articles not stored yet').toBeDefined();
  expect(miss!.status()).toBe(200);
  // A URL with a query is stored the second time it is asked for (cache admission).
  await request.get(url);
  const hit = await request.get(url);
  expect(hit.headers()['x-astro-cache']).toBe('HIT');
  for (const res of [miss!, hit]) {
    expectSecurityHeaders(res);
    const scriptSrc = /script-src([^;]*)/.exec(res.headers()['content-security-policy']!)?.[1] ?? '';
    expect(scriptSrc).toContain("'sha256-");
    expect(scriptSrc).not.toContain("'unsafe-inline'");
  }
  expect(hit.headers()['content-security-policy']).toBe(miss!.headers()['content-security-policy']);
  expect(await hit.text()).toBe(await miss!.text());
});

test('private areas answer "private, no-store" and are never served from the route cache', async ({ request }) => {
  for (const path of ['/admin', '/admin/seo', '/dashboard', '/auth', '/verify-email', '/api/prices', '/api/no-such-endpoint']) {
    for (let i = 0; i < 2; i++) {
      const res = await request.get(path, { maxRedirects: 0 });
      expect(res.status(), path).toBeLessThan(500);
      expect(res.headers()['cache-control'], path).toBe('private, no-store');
      expect(res.headers()['x-astro-cache'], path).not.toBe('HIT');
      expectSecurityHeaders(res);
    }
  }
});

test('built assets are cached for a year and immutable; static files get a script-free policy', async ({ request }) => {
  const html = await (await request.get('/')).text();
  const asset = /(?:href|src)="(\/_astro\/[^"]+)"/.exec(html)?.[1];
  expect(asset, 'the landing page links at least one built asset').toBeTruthy();
  const res = await request.get(asset!);
  expect(res.status()).toBe(200);
  expect(res.headers()['cache-control']).toBe('public, max-age=31536000, immutable');
  expect(res.headers()['x-content-type-options']).toBe('nosniff');
  const icon = await request.get('/favicon.svg');
  expect(icon.headers()['content-security-policy']).toContain("script-src 'none'");
  expect(icon.headers()['x-content-type-options']).toBe('nosniff');
  // A browser that has the file revalidates it without downloading it again.
  const etag = res.headers()['etag'];
  expect(etag).toBeTruthy();
  const again = await request.get(asset!, { headers: { 'If-None-Match': etag! } });
  expect(again.status()).toBe(304);
});

test('a query string a page does not read is that page from the cache: no render, no entry of its own', async ({ request }) => {
  for (const path of await allPublicPaths(request)) {
    const page = await request.get(path);
    if (page.headers()['x-astro-cache'] !== 'HIT') await request.get(path);
    const invented = await request.get(`${path}?utm_source=mail&e2e-invented=${Date.now()}`);
    expect(invented.headers()['x-astro-cache'], path).toBe('HIT');
    expect(await invented.text(), path).toBe(await page.text());
  }
});

test('the parameters a page reads key its entries, in any order and beside invented ones', async ({ request }) => {
  // Stored the second time it is asked for (cache admission), then a hit however the query is written.
  await request.get('/articles?page=1&e2e-order=1');
  await request.get('/articles?page=1');
  expect((await request.get('/articles?e2e-order=2&page=1&fbclid=x')).headers()['x-astro-cache']).toBe('HIT');
  const second = await request.get('/articles?page=2&e2e-order=3');
  expect(second.headers()['x-astro-cache'], 'another page of the list is not the first one').not.toBe('HIT');
});

test('a cached page goes out gzip-encoded to a browser that accepts it, with the same content', async ({ request, page }) => {
  const url = `/?e2e-gzip=${Date.now()}`;
  await request.get(url);
  const plain = await request.get(url, { headers: { 'Accept-Encoding': 'identity' } });
  expect(plain.headers()['content-encoding']).toBeUndefined();
  expect(plain.headers()['vary']).toContain('Accept-Encoding');
  const response = await page.goto(url);
  expect(response?.headers()['x-astro-cache']).toBe('HIT');
  expect(response?.headers()['content-encoding']).toBe('gzip');
  expect(await response?.text()).toBe(await plain.text());
});

test('a cached page answers HEAD from the cache with the same headers and no body', async ({ request }) => {
  const url = `/?e2e-head=${Date.now()}`;
  await request.get(url);
  const get = await request.get(url);
  const head = await request.head(url);
  expect(head.status()).toBe(200);
  expect(head.headers()['x-astro-cache']).toBe('HIT');
  expect(head.headers()['content-security-policy']).toBe(get.headers()['content-security-policy']);
  expect((await head.body()).length).toBe(0);
});

test('robots.txt keeps crawlers out of the private areas and points at the sitemap', async ({ request, baseURL }) => {
  const res = await request.get('/robots.txt');
  expect(res.status()).toBe(200);
  expect(res.headers()['content-type']).toContain('text/plain');
  const body = await res.text();
  expect(body).toMatch(/^User-agent: \*$/m);
  for (const path of ['/admin', '/dashboard', '/auth', '/verify-email', '/api']) expect(body).toMatch(new RegExp(`^Disallow: ${path}$`, 'm'));
  expect(body).toContain(`Sitemap: ${baseURL}/sitemap.xml`);
});

test('sitemap.xml is well-formed and every page it lists exists', async ({ request, page, baseURL }) => {
  const res = await request.get('/sitemap.xml');
  expect(res.status()).toBe(200);
  expect(res.headers()['content-type']).toContain('application/xml');
  expectSecurityHeaders(res);
  const xml = await res.text();
  const parsed = await page.evaluate((source) => {
    const doc = new DOMParser().parseFromString(source, 'application/xml');
    return {
      error: doc.getElementsByTagName('parsererror').length > 0,
      root: doc.documentElement.namespaceURI,
      locs: [...doc.getElementsByTagName('loc')].map((l) => l.textContent ?? ''),
      lastmods: [...doc.getElementsByTagName('lastmod')].map((l) => l.textContent ?? ''),
    };
  }, xml);
  expect(parsed.error).toBe(false);
  expect(parsed.root).toBe('http://www.sitemaps.org/schemas/sitemap/0.9');
  for (const path of ['/', '/services', '/packages', '/demos', '/articles', '/privacy', '/terms']) {
    expect(parsed.locs).toContain(`${baseURL}${path}`);
  }
  for (const lastmod of parsed.lastmods) expect(Number.isNaN(Date.parse(lastmod))).toBe(false);
  for (const loc of parsed.locs) {
    expect(loc.startsWith(`${baseURL}/`), loc).toBe(true);
    const status = (await request.get(loc, { maxRedirects: 0 })).status();
    expect(status, loc).toBe(200);
  }
});

test('health probes answer and are never cached', async ({ request }) => {
  const live = await request.get('/healthz');
  expect(live.status()).toBe(200);
  expect(await live.text()).toBe('ok');
  const ready = await request.get('/readyz');
  expect(ready.status()).toBe(200);
  expect(await ready.text()).toBe('ready');
  for (const res of [live, ready]) expect(res.headers()['cache-control']).toBe('no-store');
});

test('the landing page has canonical, Open Graph, Twitter and JSON-LD metadata, and no CSP violations', async ({
  page,
  baseURL,
}) => {
  const violations: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') violations.push(msg.text());
  });
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => console.error(`CSP violation: ${e.violatedDirective} ${e.blockedURI}`));
  });
  await page.goto('/');
  await page.waitForLoadState('networkidle');
  const title = await page.title();
  expect(title.length).toBeGreaterThan(0);
  expect(title.length).toBeLessThanOrEqual(60);
  await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', `${baseURL}/`);
  await expect(page.locator('meta[property="og:url"]')).toHaveAttribute('content', `${baseURL}/`);
  await expect(page.locator('meta[property="og:title"]')).toHaveAttribute('content', title);
  await expect(page.locator('meta[property="og:image"]')).toHaveAttribute('content', /^https?:\/\//);
  await expect(page.locator('meta[name="twitter:card"]')).toHaveAttribute('content', /summary/);
  const description = await page.locator('meta[name="description"]').getAttribute('content');
  expect(description?.length ?? 0).toBeGreaterThan(0);
  expect(description!.length).toBeLessThanOrEqual(160);
  const types = (await jsonLd(page)).map((n) => n['@type']);
  expect(types).toEqual(expect.arrayContaining(['Organization', 'WebSite']));
  expect(violations).toEqual([]);
});

test('an article page describes itself as an article to search engines and link previews', async ({ page, request }) => {
  const xml = await (await request.get('/sitemap.xml')).text();
  const article = /<loc>([^<]+\/article\/[^<]+)<\/loc>/.exec(xml)?.[1];
  expect(article, 'the sitemap lists a published demo article').toBeTruthy();
  await page.goto(article!);
  await expect(page.locator('meta[property="og:type"]')).toHaveAttribute('content', 'article');
  await expect(page.locator('meta[property="article:published_time"]')).toHaveAttribute('content', /^\d{4}-\d{2}-\d{2}T/);
  const ld = (await jsonLd(page)).find((n) => n['@type'] === 'Article');
  expect(ld?.headline).toBeTruthy();
  expect(ld?.datePublished).toBeTruthy();
});
