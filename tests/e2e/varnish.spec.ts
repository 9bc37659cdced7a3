/**
 * Varnish (Debian's package) in front of the built site with docs/deploy/varnish.vcl, started here on free
 * ports (docs/decisions/024): an unchanged public page is a Varnish hit, a change made in the admin
 * purges it (CDN_PURGE=varnish) and the next visitor through Varnish gets the new page within a second,
 * and personal pages (prices, dashboard, admin) are never stored. Skipped with a message where varnishd
 * is not installed; .ci/run installs it.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test } from './support/fixtures';
import { addFaq, findProgram, firstAdminCookie, freePort, msUntilFresh, startSite, startVarnish } from '../support/front-proxy.mjs';
import { createPostgresDatabase, type ThrowawayDatabase } from '../support/postgres-database';

const varnishd = findProgram('varnishd');
test.skip(!varnishd, 'varnishd is not installed here (apt-get install varnish); CI installs it and runs this spec');
test.describe.configure({ mode: 'serial' });

test.describe('one instance behind Varnish', () => {
  let site: Awaited<ReturnType<typeof startSite>>;
  let varnish: Awaited<ReturnType<typeof startVarnish>>;
  let adminCookie: string;

  test.beforeAll(async () => {
    test.setTimeout(180_000);
    const varnishPort = await freePort();
    const front = `http://127.0.0.1:${varnishPort}`;
    site = await startSite({
      env: {
        // Visitors and the admin come through Varnish: that is the site's public origin.
        SITE_URL: front,
        CDN_PURGE: 'varnish',
        CDN_PURGE_URL: `${front}/`,
        TRUSTED_PROXY_IP_HEADER: 'x-real-ip',
      },
    });
    varnish = await startVarnish({
      backendPorts: [site.port],
      port: varnishPort,
    });
    adminCookie = await firstAdminCookie(varnish.base, site.dataDir);
  });

  test.afterAll(async () => {
    await varnish?.stop();
    await site?.stop();
  });

  const get = (path: string, headers: Record<string, string> = {}) => fetch(`${varnish.base}${path}`, { headers, redirect: 'manual' });

  test('an unchanged public page is a Varnish hit, served with the site’s headers but without the purge tags', async () => {
    for (const path of ['/', '/services', '/articles']) {
      const first = await get(path);
      expect(first.status, path).toBe(200);
      const firstBody = await first.text();
      const again = await get(path);
      expect(again.headers.get('x-cache'), path).toBe('HIT');
      expect(Number(again.headers.get('x-cache-hits')), path).toBeGreaterThanOrEqual(1);
      expect(again.headers.get('age'), path).not.toBeNull();
      expect(again.headers.get('cache-control'), path).toMatch(/^public, max-age=0, s-maxage=\d+, stale-while-revalidate=\d+$/);
      expect(again.headers.get('content-security-policy'), path).toContain("frame-ancestors 'none'");
      expect(again.headers.get('surrogate-key'), path).toBeNull();
      expect(await again.text(), path).toBe(firstBody);
    }
    // A visitor's cookie does not keep a public page from the cache: it is the same for everyone.
    expect((await get('/services', { cookie: adminCookie })).headers.get('x-cache')).toBe('HIT');
  });

  test('a change made in the admin is served fresh through Varnish within a second', async () => {
    // The landing page is stored and answered by Varnish before the change.
    await get('/');
    expect((await get('/')).headers.get('x-cache')).toBe('HIT');
    const question = `Is this FAQ fresh through Varnish ${Date.now()}?`;
    await addFaq(varnish.base, adminCookie, question);
    const ms = await msUntilFresh(varnish.base, '/', question);
    console.log(`varnish: the admin's new FAQ was served through Varnish ${ms.toFixed(0)} ms after the write`);
    expect(ms).toBeLessThan(1000);
    // Fresh, and stored again: the next visitor gets it from Varnish.
    const next = await get('/');
    expect(await next.text()).toContain(question);
    expect(next.headers.get('x-cache')).toBe('HIT');
    // Pages without FAQs were not purged by it.
    expect((await get('/services')).headers.get('x-cache')).toBe('HIT');
  });

  test('personal pages are never stored by Varnish', async () => {
    const personal: [string, Record<string, string>][] = [
      ['/api/prices', {}],
      ['/api/prices', { cookie: adminCookie }],
      ['/dashboard', { cookie: adminCookie }],
      ['/admin', { cookie: adminCookie }],
      ['/admin/faqs', { cookie: adminCookie }],
      ['/auth', {}],
    ];
    for (const [path, headers] of personal) {
      for (let i = 0; i < 3; i++) {
        const res = await get(path, headers);
        await res.arrayBuffer();
        expect(res.status, path).toBeLessThan(500);
        expect(res.headers.get('x-cache'), path).toBe('MISS');
        expect(res.headers.get('x-cache-hits'), path).toBe('0');
        expect(res.headers.get('cache-control'), path).toBe('private, no-store');
      }
    }
    // The admin's dashboard never reaches a stranger: asked without the cookie, the site answers (sign in).
    const stranger = await get('/dashboard');
    expect(stranger.status).toBe(302);
    expect(stranger.headers.get('location')).toMatch(/^\/auth/);
  });

  test('a purge without well-formed tags is refused and drops nothing', async () => {
    await get('/services');
    expect((await fetch(`${varnish.base}/`, { method: 'PURGE' })).status).toBe(400);
    // The tags become a ban expression: anything but tag characters would widen it.
    expect(
      (
        await fetch(`${varnish.base}/`, {
          method: 'PURGE',
          headers: { 'Surrogate-Key': 'faqs|.*' },
        })
      ).status,
    ).toBe(400);
    expect((await get('/services')).headers.get('x-cache')).toBe('HIT');
  });

  test('when purging fails the admin overview says since when and why, and the notice goes once a retry gets through', async ({ page }) => {
    test.setTimeout(90_000);
    const overview = async () => (await fetch(`${site.base}/admin`, { headers: { cookie: adminCookie } })).text();
    const port = varnish.port;
    await varnish.stop();
    // Straight to the instance: Varnish is down, the admin still works (its origin is still the public one).
    await addFaq(site.base, adminCookie, `Added while Varnish is down ${Date.now()}`, varnish.base);
    await expect.poll(overview, { timeout: 10_000 }).toContain('data-cdn-purge-problem');
    const html = await overview();
    expect(html).toContain('Changes are not reaching the caching proxy yet');
    expect(html).toMatch(new RegExp(`Last error: varnish could not be reached at http://127\\.0\\.0\\.1:${port}`));
    expect(html).toMatch(/The site keeps retrying by itself: \d+ tr(y|ies) so far/);
    // The notice is part of the page: axe checks it at phone and desktop widths.
    await page.context().addCookies(
      adminCookie.split('; ').map((c) => ({ name: c.slice(0, c.indexOf('=')), value: c.slice(c.indexOf('=') + 1), url: site.base })),
    );
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(`${site.base}/admin`);
      await expect(page.getByRole('alert').filter({ hasText: 'Changes are not reaching the caching proxy yet' })).toBeVisible();
      expect((await new AxeBuilder({ page }).analyze()).violations, `axe at ${width} px`).toEqual([]);
    }

    varnish = await startVarnish({ backendPorts: [site.port], port });
    // Retries wait 1, 2, 4, 8 s …: the purge goes through within the next waits and the notice is gone.
    await expect.poll(overview, { timeout: 40_000, intervals: [500] }).not.toContain('data-cdn-purge-problem');
  });
});

/**
 * Two instances on one PostgreSQL database behind the VCL's round-robin director. Only Varnish's part is
 * asserted: the second instance's own route cache learns of a change through cross-process invalidation
 * (issue 19's LISTEN/NOTIFY part), not through Varnish.
 */
test.describe('two instances on PostgreSQL behind Varnish', () => {
  test.skip(!process.env.TEST_DATABASE_URL, 'needs TEST_DATABASE_URL (a PostgreSQL server); CI sets it');
  const sites: Awaited<ReturnType<typeof startSite>>[] = [];
  let front: Awaited<ReturnType<typeof startVarnish>>;
  let database: ThrowawayDatabase;
  let cookie: string;

  test.beforeAll(async () => {
    test.setTimeout(240_000);
    database = await createPostgresDatabase(process.env.TEST_DATABASE_URL!, 'cdn');
    const port = await freePort();
    const origin = `http://127.0.0.1:${port}`;
    const env = {
      DATABASE_URL: database.url,
      AUTH_SECRET: 'varnish-spec-secret-that-is-long-enough-0123456789',
      SITE_URL: origin,
      CDN_PURGE: 'varnish',
      CDN_PURGE_URL: `${origin}/`,
      TRUSTED_PROXY_IP_HEADER: 'x-real-ip',
    };
    // One after the other: concurrent start-up migrations are another part of issue 19.
    for (let i = 0; i < 2; i++) sites.push(await startSite({ env }));
    front = await startVarnish({
      backendPorts: sites.map((s) => s.port),
      port,
    });
    // Signed up on the first instance (its outbox holds the mail); the session works on both.
    cookie = await firstAdminCookie(sites[0]!.base, sites[0]!.dataDir, origin);
  });

  test.afterAll(async () => {
    await front?.stop();
    for (const site of sites) await site.stop();
    await database?.drop();
  });

  const get = async (path: string, headers: Record<string, string> = {}) => {
    const res = await fetch(`${front.base}${path}`, {
      headers,
      redirect: 'manual',
    });
    await res.arrayBuffer();
    return res;
  };

  test('an unchanged page is a hit, and an admin change through either instance purges it within a second', async () => {
    await get('/');
    expect((await get('/')).headers.get('x-cache')).toBe('HIT');
    expect((await get('/services')).headers.get('x-cache')).toBe('MISS');
    expect((await get('/services')).headers.get('x-cache')).toBe('HIT');
    for (let i = 0; i < 2; i++) {
      const started = performance.now();
      // Through Varnish: the director hands the two writes to the two instances in turn.
      await addFaq(front.base, cookie, `Two instances ${i} ${Date.now()}?`);
      await expect
        .poll(async () => (await get('/')).headers.get('x-cache'), {
          timeout: 1_000,
          intervals: [10],
        })
        .toBe('MISS');
      console.log(`varnish, two instances: / purged ${(performance.now() - started).toFixed(0)} ms after write ${i + 1}`);
      expect((await get('/')).headers.get('x-cache')).toBe('HIT');
      expect((await get('/services')).headers.get('x-cache'), 'a page without FAQs stays stored').toBe('HIT');
    }
  });

  test('personal pages are never stored, and with one instance killed every request is still answered', async () => {
    for (let i = 0; i < 4; i++) {
      const res = await get('/dashboard', { cookie });
      expect(res.status).toBe(200);
      expect(res.headers.get('x-cache')).toBe('MISS');
    }
    await sites[1]!.kill();
    for (let i = 0; i < 10; i++) {
      const res = await get(i % 2 ? '/api/prices' : '/dashboard', { cookie });
      expect(res.status, `request ${i}`).toBe(200);
    }
  });
});
