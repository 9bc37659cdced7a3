/**
 * First-party analytics ingestion (decision 014): POST /api/visits → the in-memory buffer → one flush
 * transaction into analytics_days/pages/sources/devices and analytics_visitors. Counts per table after a
 * flush, a visitor counted once a day, a new day's salt counting them again, bots and internal navigation,
 * grouping, the two-day retention of salts and hashes, no address anywhere in the database, refusals that
 * store nothing, a failed flush that keeps its counts, and many beacons at once counted exactly.
 */
import { sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { POST } from '../../src/pages/api/visits';
import { useDatabaseHandle } from '../../src/server/db';
import type { DatabaseHandle } from '../../src/server/db/client';
import { invalidateMemos } from '../../src/server/cache/memo';
import { CACHE_TAGS } from '../../src/server/cache/tags';
import { analyticsDays, analyticsDevices, analyticsPages, analyticsSalts, analyticsSources, analyticsVisitors, articles, demos, services } from '../../src/server/db/schema';
import { handleVisitPost, visitRateLimit } from '../../src/server/modules/analytics/http';
import { flushAnalytics, stopFlushing } from '../../src/server/modules/analytics/ingest';
import { analyticsReport } from '../../src/server/modules/analytics/report';
import { clearSaltCache } from '../../src/server/modules/analytics/salt';
import { forgetPublicDetailIds } from '../../src/server/modules/site-routes/service';
import { MAX_SOURCES_PER_DAY, VISIT_RATE_LIMIT } from '../../src/shared/analytics';
import { dayKeyIn } from '../../src/shared/dates';
import { leadPeriodRange } from '../../src/shared/lead-events';
import { PUBLIC_STATIC_PATHS } from '../../src/shared/site-routes';
import { SITE } from '../support/auth';
import { freshDatabase } from '../support/db';

const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const SAFARI = 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';
const DAY_MS = 86_400_000;
const utcDay = (at: Date) => dayKeyIn(at, 'UTC');
const TODAY = utcDay(new Date());

let handle: DatabaseHandle;
beforeEach(async () => {
  handle = await freshDatabase();
  clearSaltCache();
  forgetPublicDetailIds();
  visitRateLimit.reset();
});
afterEach(async () => {
  stopFlushing();
  await flushAnalytics();
  await handle.close();
});

interface BeaconOptions {
  ip?: string;
  ua?: string | null;
  origin?: string | null;
  headers?: Record<string, string>;
  raw?: BodyInit;
  now?: Date;
}

let nextIp = 1;
const freshIp = () => `10.0.${Math.floor(nextIp / 250)}.${(nextIp++ % 250) + 1}`;

/** The browser's request: a JSON string (text/plain, as navigator.sendBeacon sends one), from this site. */
function send(body: unknown, { ip = freshIp(), ua = CHROME, origin = SITE, headers = {}, raw, now }: BeaconOptions = {}) {
  const h = new Headers({ 'content-type': 'text/plain;charset=UTF-8', ...headers });
  if (origin !== null) h.set('origin', origin);
  if (ua !== null) h.set('user-agent', ua);
  const request = new Request(`${SITE}/api/visits`, { method: 'POST', headers: h, body: raw ?? JSON.stringify(body), duplex: 'half' } as RequestInit);
  return handleVisitPost(request, ip, now);
}

const view = (over: Record<string, unknown> = {}) => ({ p: '/', r: '', w: 1280, ...over });

async function tables() {
  const db = handle.db;
  return {
    days: await db.select().from(analyticsDays).orderBy(analyticsDays.day),
    pages: await db.select().from(analyticsPages).orderBy(analyticsPages.day, analyticsPages.path),
    sources: await db
      .select()
      .from(analyticsSources)
      .orderBy(analyticsSources.day, analyticsSources.referrerHost, analyticsSources.utmSource, analyticsSources.utmMedium, analyticsSources.utmCampaign),
    devices: await db.select().from(analyticsDevices).orderBy(analyticsDevices.day, analyticsDevices.device),
    visitors: await db.select().from(analyticsVisitors).orderBy(analyticsVisitors.day, analyticsVisitors.visitorHash),
    salts: await db.select().from(analyticsSalts).orderBy(analyticsSalts.day),
  };
}

const source = (referrerHost: string, utmSource = '', utmMedium = '', utmCampaign = '') => ({ referrerHost, utmSource, utmMedium, utmCampaign });

describe('POST /api/visits → flush', () => {
  it('counts views, visits, visitors, pages, sources and devices of the day in every table', async () => {
    const ip = freshIp();
    for (const [body, ua] of [
      [view({ p: '/', w: 1440 }), CHROME],
      [view({ p: '/services', r: `${SITE}/`, w: 1440 }), CHROME],
      [view({ p: '/services', r: 'https://www.Google.com/search?q=agency', s: 'Newsletter', m: 'email', c: 'Spring', w: 390 }), SAFARI],
      [view({ p: '/packages', r: 'http://localhost:4321/services', w: 800 }), SAFARI],
    ] as const) {
      const res = await send(body, { ip, ua });
      expect(res.status).toBe(204);
      expect(res.headers.get('cache-control')).toBe('private, no-store');
      expect(res.headers.get('set-cookie')).toBeNull();
    }
    // Nothing is written until the flush.
    expect((await tables()).days).toEqual([]);
    await flushAnalytics();
    const t = await tables();
    // Two browsers on one address are two visitors; two entries (direct, Google), two internal views.
    expect(t.days).toEqual([{ day: TODAY, views: 4, visits: 2, visitors: 2 }]);
    expect(t.pages.map((r) => [r.path, r.views])).toEqual([
      ['/', 1],
      ['/packages', 1],
      ['/services', 2],
    ]);
    expect(t.sources.map(({ day, visits, ...s }) => ({ day, visits, s }))).toEqual([
      { day: TODAY, visits: 1, s: source('') },
      { day: TODAY, visits: 1, s: source('google.com', 'newsletter', 'email', 'spring') },
    ]);
    expect(t.devices.map((r) => [r.device, r.views])).toEqual([
      ['desktop', 2],
      ['mobile', 1],
      ['tablet', 1],
    ]);
    expect(t.visitors).toHaveLength(2);
    expect(t.salts.map((s) => s.day)).toEqual([TODAY]);
  });

  it('the route answers the same (the Astro endpoint calls the handler)', async () => {
    const request = new Request(`${SITE}/api/visits`, { method: 'POST', headers: { origin: SITE, 'user-agent': CHROME }, body: JSON.stringify(view()) });
    const res = await POST({ request, clientAddress: freshIp() } as unknown as Parameters<typeof POST>[0]);
    expect(res.status).toBe(204);
    await flushAnalytics();
    expect((await tables()).days).toEqual([{ day: TODAY, views: 1, visits: 1, visitors: 1 }]);
  });

  it('counts a visitor once a day across many views and several flushes', async () => {
    const ip = freshIp();
    const pages = PUBLIC_STATIC_PATHS.slice(0, 5);
    for (const p of pages) expect((await send(view({ p }), { ip })).status).toBe(204);
    await flushAnalytics();
    for (const p of pages) await send(view({ p, r: `${SITE}/` }), { ip });
    await flushAnalytics();
    const t = await tables();
    expect(t.days).toEqual([{ day: TODAY, views: 10, visits: 5, visitors: 1 }]);
    expect(t.visitors).toHaveLength(1);
    expect(t.pages.map((p) => p.views)).toEqual([2, 2, 2, 2, 2]);
  });

  it('two addresses with the same browser are two visitors', async () => {
    await send(view(), { ip: '192.0.2.1' });
    await send(view(), { ip: '192.0.2.2' });
    await send(view(), { ip: '192.0.2.1' });
    await flushAnalytics();
    expect((await tables()).days).toEqual([{ day: TODAY, views: 3, visits: 3, visitors: 2 }]);
  });

  it('a new UTC day has a new salt: the same visitor is counted again, and cannot be linked to yesterday', async () => {
    const ip = freshIp();
    const tomorrow = new Date(Date.now() + DAY_MS);
    await send(view(), { ip });
    await send(view(), { ip, now: tomorrow });
    await send(view({ p: '/services' }), { ip, now: tomorrow });
    await flushAnalytics();
    const t = await tables();
    expect(t.days).toEqual([
      { day: TODAY, views: 1, visits: 1, visitors: 1 },
      { day: utcDay(tomorrow), views: 2, visits: 2, visitors: 1 },
    ]);
    expect(t.salts).toHaveLength(2);
    expect(t.salts[0]!.salt).not.toBe(t.salts[1]!.salt);
    expect(t.visitors).toHaveLength(2);
    expect(t.visitors[0]!.visitorHash).not.toBe(t.visitors[1]!.visitorHash);
  });

  it('another process keeps using the day’s salt already stored (insert on conflict, then read)', async () => {
    await handle.db.insert(analyticsSalts).values({ day: TODAY, salt: 'salt-of-another-process' });
    const ip = freshIp();
    await send(view(), { ip });
    clearSaltCache(); // a second process: no salt in memory, the same table
    await send(view(), { ip });
    await flushAnalytics();
    const t = await tables();
    expect(t.salts).toEqual([{ day: TODAY, salt: 'salt-of-another-process' }]);
    expect(t.days[0]).toMatchObject({ views: 2, visitors: 1 });
  });

  it('answers bots and requests without a user agent 204, and counts none of them', async () => {
    const bots = [
      'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36',
      'curl/8.5.0',
      'python-requests/2.32.3',
      '   ',
    ];
    for (const ua of bots) expect((await send(view(), { ua })).status, ua).toBe(204);
    expect((await send(view(), { ua: null })).status).toBe(204);
    await flushAnalytics();
    const t = await tables();
    expect([t.days, t.pages, t.sources, t.devices, t.visitors]).toEqual([[], [], [], [], []]);
  });

  it('a view whose referrer is this site (any spelling) is no visit; its page and device still count', async () => {
    const ip = freshIp();
    await send(view({ r: 'http://localhost:4321/' }), { ip });
    await send(view({ r: 'http://127.0.0.1:4321/services' }), { ip });
    await send(view({ r: 'https://www.localhost/' }), { ip });
    await flushAnalytics();
    const t = await tables();
    expect(t.days).toEqual([{ day: TODAY, views: 3, visits: 0, visitors: 1 }]);
    expect(t.sources).toEqual([]);
    expect(t.pages).toEqual([{ day: TODAY, path: '/', views: 3 }]);
  });

  it('groups sources by referring host (www. and case aside) and cleaned UTM values, unsafe ones dropped', async () => {
    await send(view({ r: 'https://www.google.com/a', s: 'Newsletter', m: 'Email' }));
    await send(view({ r: 'https://google.com/b?q=x', s: '  newsletter ', m: 'EMAIL' }));
    await send(view({ r: 'https://GOOGLE.com/', s: 'news\u202eletter\u0007', m: 'email' }));
    await send(view({ r: 'https://news.example/', c: 'x'.repeat(300) }));
    await send(view({ s: 'linkedin' }));
    await flushAnalytics();
    expect((await tables()).sources.map(({ referrerHost, utmSource, utmMedium, utmCampaign, visits }) => [referrerHost, utmSource, utmMedium, utmCampaign, visits])).toEqual([
      ['', 'linkedin', '', '', 1],
      ['google.com', '', 'email', '', 1],
      ['google.com', 'newsletter', 'email', '', 2],
      ['news.example', '', '', '', 1],
    ]);
  });

  it('counts only the site\'s pages by name; any other path (invented, 404, admin, a detail id that does not exist) as "other"', async () => {
    await handle.db.insert(services).values({ id: 'follow-up', name: 'Follow-up' });
    await handle.db.insert(articles).values([
      { id: 'a1', slug: 'no-shows', title: 'No-shows', published: true },
      { id: 'a2', slug: 'draft', title: 'Draft', published: false },
    ]);
    for (const p of ['/', '/service/follow-up', '/article/no-shows', '/buy-cheap-pills-at-example-com', '/admin/users', '/article/draft', '/service/visit-phish-example', '/services/']) {
      expect((await send(view({ p }))).status, p).toBe(204);
    }
    await flushAnalytics();
    expect((await tables()).pages.map((r) => [r.path, r.views])).toEqual([
      ['(other)', 5],
      ['/', 1],
      ['/article/no-shows', 1],
      ['/service/follow-up', 1],
    ]);
    // A detail page added later counts by name once its content type's tag is invalidated (or a minute on).
    await handle.db.insert(demos).values({ id: 'new-demo', name: 'New demo' });
    invalidateMemos([CACHE_TAGS.demos]);
    await send(view({ p: '/demo/new-demo' }));
    await flushAnalytics();
    expect((await tables()).pages.map((r) => r.path)).toContain('/demo/new-demo');
    const report = await analyticsReport(leadPeriodRange(7));
    expect(report.pages[0]).toEqual({ path: '(other)', views: 5 });
  });

  it(`keeps ${MAX_SOURCES_PER_DAY} distinct sources a day; the visits of more go to "other", known sources keep counting`, async () => {
    await handle.db.insert(analyticsSources).values(
      Array.from({ length: MAX_SOURCES_PER_DAY }, (_, i) => ({ day: TODAY, ...source(`site${i}.example`), visits: 1 })),
    );
    await send(view({ r: 'https://site7.example/' }));
    await send(view({ r: 'https://brand-new.example/', s: 'spam', c: 'buy now' }));
    await send(view({ r: 'https://another-new.example/' }));
    await flushAnalytics();
    await send(view({ r: 'https://third-new.example/' })); // a later flush: the day is still full
    await flushAnalytics();
    const rows = (await tables()).sources;
    expect(rows).toHaveLength(MAX_SOURCES_PER_DAY + 2);
    const visitsOf = (s: ReturnType<typeof source>) => rows.find((r) => r.referrerHost === s.referrerHost && r.utmSource === s.utmSource && r.utmCampaign === s.utmCampaign)?.visits;
    expect(visitsOf(source('site7.example'))).toBe(2);
    expect(visitsOf(source('', '(other)', '', '(other)'))).toBe(1);
    expect(visitsOf(source('', '(other)'))).toBe(2);
    const report = await analyticsReport(leadPeriodRange(7));
    expect(report.sources[0]).toEqual({ source: '(other)', visits: 3 });
    expect(report.campaigns).toEqual([{ campaign: '(other)', source: '(other)', medium: '', visits: 1 }]);
  });

  it('deletes salts and visitor hashes older than yesterday at flush time, and keeps the counts', async () => {
    const dayBefore = (n: number) => utcDay(new Date(Date.now() - n * DAY_MS));
    for (const n of [1, 2, 3]) {
      await handle.db.insert(analyticsSalts).values({ day: dayBefore(n), salt: `old-${n}` });
      await handle.db.insert(analyticsVisitors).values({ day: dayBefore(n), visitorHash: `hash-${n}` });
      await handle.db.insert(analyticsDays).values({ day: dayBefore(n), views: 5, visits: 2, visitors: 1 });
    }
    await send(view());
    await flushAnalytics();
    const t = await tables();
    expect(t.salts.map((s) => s.day)).toEqual([dayBefore(1), TODAY]);
    expect(t.visitors.map((v) => v.day)).toEqual([dayBefore(1), TODAY]);
    // The daily totals are anonymous and stay.
    expect(t.days.map((d) => d.day)).toEqual([dayBefore(3), dayBefore(2), dayBefore(1), TODAY]);
  });

  it('stores no address anywhere in the database', async () => {
    const ip = '203.0.113.77';
    await send(view({ p: '/services', r: 'https://news.example/', s: 'mail' }), { ip, headers: { cookie: 'better-auth.session_token=abc' } });
    await send(view({ p: '/packages', r: `${SITE}/` }), { ip });
    await flushAnalytics();
    const { rows } = (await handle.db.execute(
      sql`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`,
    )) as unknown as { rows: { table_name: string }[] };
    expect(rows.length).toBeGreaterThan(10);
    for (const { table_name } of rows) {
      const found = (await handle.db.execute(
        sql`select count(*)::int as n from ${sql.identifier(table_name)} t where t::text like ${'%203.0.113.77%'} or t::text like ${'%203-0-113-77%'}`,
      )) as unknown as { rows: { n: number }[] };
      expect(found.rows[0]!.n, table_name).toBe(0);
    }
    expect((await tables()).days).toEqual([{ day: TODAY, views: 2, visits: 1, visitors: 1 }]);
  });
});

describe('refusals store nothing', () => {
  it.each([
    ['markup in the path', { raw: JSON.stringify(view({ p: '/<img src=x onerror=alert(1)>' })) }],
    ['an unknown field', { raw: JSON.stringify(view({ userId: 'u1' })) }],
    ['a negative width', { raw: JSON.stringify(view({ w: -5 })) }],
    ['a width as text', { raw: JSON.stringify(view({ w: 'wide' })) }],
    ['no path', { raw: JSON.stringify({ w: 100 }) }],
    ['not JSON', { raw: '<html>' }],
    ['an empty body', { raw: '' }],
    ['a list', { raw: '[1,2]' }],
    ['a prototype key', { raw: '{"__proto__":{"x":1},"p":"/","w":1}' }],
    ['a NUL in a value', { raw: JSON.stringify(view({ s: 'a\u0000' })) }],
  ])('400 for %s', async (_name, options) => {
    const res = await send(undefined, options);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: expect.stringMatching(/^(INVALID_INPUT|INVALID_JSON|FORBIDDEN_KEY|UNSTORABLE_TEXT)$/), message: expect.any(String) });
    await flushAnalytics();
    expect((await tables()).days).toEqual([]);
  });

  it('403 from another site, or from a script that sends neither Origin nor Sec-Fetch-Site', async () => {
    expect((await send(view(), { origin: 'https://evil.example' })).status).toBe(403);
    expect((await send(view(), { origin: null })).status).toBe(403);
    expect((await send(view(), { origin: null, headers: { 'sec-fetch-site': 'cross-site' } })).status).toBe(403);
    // A browser that omits Origin still says where the request came from.
    expect((await send(view(), { origin: null, headers: { 'sec-fetch-site': 'same-origin' } })).status).toBe(204);
    await flushAnalytics();
    expect((await tables()).days).toEqual([{ day: TODAY, views: 1, visits: 1, visitors: 1 }]);
  });

  it('413 for a 1 MB body, declared or streamed, without reading it all', async () => {
    const declared = await send(undefined, { raw: 'x'.repeat(1_048_576), headers: { 'content-length': String(1_048_576) } });
    expect(declared.status).toBe(413);
    let pulled = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (pulled >= 1_048_576) return controller.close();
        pulled += 16_384;
        controller.enqueue(new TextEncoder().encode('x'.repeat(16_384)));
      },
    });
    const streamed = await send(undefined, { raw: stream });
    expect(streamed.status).toBe(413);
    expect(pulled).toBeLessThan(100_000);
    await flushAnalytics();
    expect((await tables()).days).toEqual([]);
  });

  it(`429 with Retry-After after ${VISIT_RATE_LIMIT.max} views a minute from one address; other addresses go on`, async () => {
    const ip = '198.51.100.9';
    const now = new Date();
    const answers = await Promise.all(Array.from({ length: VISIT_RATE_LIMIT.max + 5 }, () => send(view(), { ip, now })));
    expect(answers.filter((r) => r.status === 204)).toHaveLength(VISIT_RATE_LIMIT.max);
    const refused = answers.filter((r) => r.status === 429);
    expect(refused).toHaveLength(5);
    const retryAfter = Number(refused[0]!.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(VISIT_RATE_LIMIT.windowSeconds);
    expect((await send(view(), { now })).status).toBe(204);
    // The next window lets the address in again.
    expect((await send(view(), { ip, now: new Date(now.getTime() + VISIT_RATE_LIMIT.windowSeconds * 1000) })).status).toBe(204);
    await flushAnalytics();
    expect((await tables()).days.reduce((n, d) => n + d.views, 0)).toBe(VISIT_RATE_LIMIT.max + 2);
  });
});

describe('flushing', () => {
  it('a failed flush is logged and its counts are written by the next one', async () => {
    const ip = freshIp();
    await send(view(), { ip });
    await send(view({ p: '/services', r: `${SITE}/` }), { ip });
    const broken = {
      ...handle,
      db: new Proxy(handle.db, {
        get: (target, key) => (key === 'transaction' ? () => Promise.reject(new Error('connection lost')) : Reflect.get(target, key)),
      }),
    } as DatabaseHandle;
    useDatabaseHandle(broken);
    await expect(flushAnalytics()).resolves.toBeUndefined();
    useDatabaseHandle(handle);
    expect((await tables()).days).toEqual([]);
    await send(view(), { ip });
    await flushAnalytics();
    expect((await tables()).days).toEqual([{ day: TODAY, views: 3, visits: 2, visitors: 1 }]);
  });

  it('the server’s shutdown writes the buffered counts before the database closes', async () => {
    await send(view());
    // What closeOnSignals (src/server/db/index.ts) runs on SIGTERM/SIGINT before closing the database.
    const tasks = (globalThis as { __beforeDbClose?: Set<() => Promise<void>> }).__beforeDbClose;
    expect(tasks?.has(flushAnalytics)).toBe(true);
    await Promise.all([...tasks!].map((task) => task()));
    expect((await tables()).days).toEqual([{ day: TODAY, views: 1, visits: 1, visitors: 1 }]);
  });

  it('many beacons at once, flushed while they arrive, are counted exactly', async () => {
    const addresses = Array.from({ length: 40 }, (_, i) => `10.9.${i}.1`);
    const sends = Array.from({ length: 400 }, (_, i) =>
      send(view({ p: `/page-${i % 7}`, r: i % 4 === 0 ? 'https://news.example/' : `${SITE}/`, w: i % 2 ? 390 : 1280 }), { ip: addresses[i % 40] }),
    );
    const flushes = [flushAnalytics(), flushAnalytics()];
    const answers = await Promise.all(sends);
    expect(answers.every((r) => r.status === 204)).toBe(true);
    await Promise.all([...flushes, flushAnalytics(), flushAnalytics()]);
    const t = await tables();
    expect(t.days).toEqual([{ day: TODAY, views: 400, visits: 100, visitors: 40 }]);
    expect(t.pages.reduce((n, p) => n + p.views, 0)).toBe(400);
    expect(t.devices.map((d) => [d.device, d.views])).toEqual([
      ['desktop', 200],
      ['mobile', 200],
    ]);
    expect(t.sources).toEqual([{ day: TODAY, ...source('news.example'), visits: 100 }]);
  });
});
