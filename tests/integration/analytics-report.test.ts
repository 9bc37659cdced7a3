/**
 * The overview's site numbers (src/server/modules/analytics/report.ts) equal counts made directly in the
 * database for the same period, for 7, 30 and 90 days and the period before each: views, visits and
 * visitors per UTC day (zero-filled), top pages, sources and campaigns (most first, ties by name),
 * devices, and the conversion rate visitor → lead (distinct lead emails ÷ the days' visitors; no visitors,
 * no rate). Runs on PGlite, and on PostgreSQL with TEST_DATABASE_URL.
 */
import { sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../src/server/db/client';
import { analyticsDays, analyticsDevices, analyticsPages, analyticsSources, leadEvents } from '../../src/server/db/schema';
import { analyticsReport, TOP_N, weeksOf } from '../../src/server/modules/analytics/report';
import { leadPeriodRange, type LeadPeriod } from '../../src/shared/lead-events';
import { periodDayKeys } from '../../src/shared/overview';
import { freshDatabase } from '../support/db';

const DAY = 86_400_000;
/** Wednesday 25 November 2026, mid-afternoon UTC: "today" of every period below. */
const NOW = new Date(Date.UTC(2026, 10, 25, 15, 30));
const dayAgo = (i: number) => new Date(Date.UTC(2026, 10, 25) - i * DAY).toISOString().slice(0, 10);

let h: DatabaseHandle;
beforeEach(async () => {
  h = await freshDatabase();
});
afterEach(() => h.close());

const direct = async (query: ReturnType<typeof sql>) => ((await h.db.execute(query)) as unknown as { rows: Record<string, unknown>[] }).rows;
const one = async (query: ReturnType<typeof sql>) => Number((await direct(query))[0]?.n ?? 0);

/**
 * 200 days of traffic, uneven on purpose: every 4th day has none (zero-filled days), a page and a
 * source whose counts vary by day, UTM campaigns every 3rd day, leads with repeated and mixed-case emails
 * and anonymous book-a-call clicks, and a day in the future outside every period.
 */
async function seed() {
  const days: (typeof analyticsDays.$inferInsert)[] = [];
  const pages: (typeof analyticsPages.$inferInsert)[] = [];
  const sources: (typeof analyticsSources.$inferInsert)[] = [];
  const devices: (typeof analyticsDevices.$inferInsert)[] = [];
  const leads: (typeof leadEvents.$inferInsert)[] = [];
  for (let i = -1; i < 200; i++) {
    if (i % 4 === 3) continue;
    const day = dayAgo(i);
    const views = 10 + (i % 11) * 3;
    days.push({ day, views, visits: 4 + (i % 5), visitors: 3 + (i % 7) });
    pages.push({ day, path: '/', views: 5 + (i % 3) }, { day, path: '/services', views: 2 + (i % 9) }, { day, path: `/articles/a-${i % 13}`, views: 1 });
    sources.push(
      { day, referrerHost: '', visits: 2 },
      { day, referrerHost: 'www.search.example', visits: 1 + (i % 4) },
      { day, referrerHost: 'news.example', utmSource: 'newsletter', utmMedium: 'email', utmCampaign: i % 3 === 0 ? 'spring' : '', visits: 1 + (i % 2) },
    );
    devices.push({ day, device: 'desktop', views: views - 3 }, { day, device: 'mobile', views: 2 }, { day, device: 'tablet', views: 1 });
    const at = new Date(`${day}T12:00:00Z`);
    leads.push(
      { id: crypto.randomUUID(), kind: 'audit-request', at, email: `person-${i % 6}@example.com` },
      // The same person again with another case, the same day: one person.
      { id: crypto.randomUUID(), kind: 'chat-lead', at: new Date(at.getTime() + 3600_000), email: `Person-${i % 6}@Example.com` },
      // A visitor's book-a-call click: no email, not a person we can count.
      { id: crypto.randomUUID(), kind: 'book-call', at, email: '' },
    );
  }
  await h.db.insert(analyticsDays).values(days);
  await h.db.insert(analyticsPages).values(pages);
  await h.db.insert(analyticsSources).values(sources);
  await h.db.insert(analyticsDevices).values(devices);
  await h.db.insert(leadEvents).values(leads);
}

describe('analyticsReport', () => {
  for (const period of [7, 30, 90] as LeadPeriod[]) {
    it(`last ${period} days and the ${period} before: every number equals a count made in the database`, async () => {
      await seed();
      const range = leadPeriodRange(period, NOW);
      const r = await analyticsReport(range);
      const { start, end, previousStart } = periodDayKeys(range);

      // The series: one row per day, oldest first, today last, days without traffic as zeros.
      expect(r.days).toHaveLength(period);
      expect(r.days.at(-1)!.day).toBe('2026-11-25');
      expect(r.days[0]!.day).toBe(dayAgo(period - 1));
      const stored = await direct(sql`select day::text as day, views, visits, visitors from analytics_days where day >= ${start} and day < ${end}`);
      for (const row of r.days) {
        const s = stored.find((d) => d.day === row.day);
        expect(row, row.day).toEqual({ day: row.day, views: Number(s?.views ?? 0), visits: Number(s?.visits ?? 0), visitors: Number(s?.visitors ?? 0) });
      }
      expect(r.days.filter((d) => d.views === 0).length).toBe(period - stored.length);

      for (const [key, from, to] of [
        ['current', start, end],
        ['previous', previousStart, start],
      ] as const) {
        expect(r.totals[key], key).toEqual({
          views: await one(sql`select coalesce(sum(views), 0)::int as n from analytics_days where day >= ${from} and day < ${to}`),
          visits: await one(sql`select coalesce(sum(visits), 0)::int as n from analytics_days where day >= ${from} and day < ${to}`),
          visitors: await one(sql`select coalesce(sum(visitors), 0)::int as n from analytics_days where day >= ${from} and day < ${to}`),
        });
        const leads = await one(sql`select count(distinct lower(email))::int as n from lead_events where email <> '' and at >= ${from}::date and at < ${to}::date`);
        expect(r.leads[key], `${key} leads`).toBe(leads);
        expect(r.conversion[key], `${key} rate`).toBeCloseTo(leads / r.totals[key].visitors, 10);
        for (const device of r.devices) {
          expect(device[key], `${key} ${device.device}`).toBe(await one(sql`select coalesce(sum(views), 0)::int as n from analytics_devices where device = ${device.device} and day >= ${from} and day < ${to}`));
        }
      }
      expect(r.totals.current.views).toBe(r.days.reduce((s, d) => s + d.views, 0));
      expect(r.devices.map((d) => d.device)).toEqual(['desktop', 'mobile', 'tablet']);

      const pages = await direct(sql`select path, sum(views)::int as n from analytics_pages where day >= ${start} and day < ${end} group by path order by n desc, path limit ${TOP_N}`);
      expect(r.pages).toEqual(pages.map((p) => ({ path: p.path, views: Number(p.n) })));
      expect(r.pages[0]!.path).toBe('/');

      const sources = await direct(
        sql`select case when utm_source <> '' then utm_source else referrer_host end as source, sum(visits)::int as n from analytics_sources where day >= ${start} and day < ${end} group by 1 order by n desc, source limit ${TOP_N}`,
      );
      expect(r.sources).toEqual(sources.map((s) => ({ source: s.source, visits: Number(s.n) })));
      expect(r.sources.map((s) => s.source).sort()).toEqual(['', 'newsletter', 'www.search.example']);

      const spring = await one(sql`select coalesce(sum(visits), 0)::int as n from analytics_sources where utm_campaign = 'spring' and day >= ${start} and day < ${end}`);
      expect(r.campaigns).toEqual(spring > 0 ? [{ campaign: 'spring', source: 'newsletter', medium: 'email', visits: spring }] : []);
    });
  }

  it('lists the top pages most viewed first, ties by path, at most TOP_N', async () => {
    const day = dayAgo(0);
    const paths = Array.from({ length: TOP_N + 3 }, (_, i) => `/p/${String.fromCharCode(109 - i)}`); // "/p/m" … "/p/a"
    await h.db.insert(analyticsPages).values([
      ...paths.map((path) => ({ day, path, views: 2 })),
      { day, path: '/top', views: 5 },
      { day: dayAgo(1), path: '/p/z', views: 2 },
      { day, path: '/p/z', views: 1 }, // 3 over two days: second
    ]);
    const r = await analyticsReport(leadPeriodRange(7, NOW));
    expect(r.pages).toHaveLength(TOP_N);
    expect(r.pages.slice(0, 2)).toEqual([
      { path: '/top', views: 5 },
      { path: '/p/z', views: 3 },
    ]);
    // The ties in path order.
    expect(r.pages.slice(2).map((p) => p.path)).toEqual([...paths].sort().slice(0, TOP_N - 2));
  });

  it('a UTM source wins over the referring host; campaigns keep their source and medium apart', async () => {
    const day = dayAgo(2);
    await h.db.insert(analyticsSources).values([
      { day, referrerHost: 'l.facebook.com', utmSource: 'facebook', utmMedium: 'paid', utmCampaign: 'winter', visits: 3 },
      { day, referrerHost: '', utmSource: 'facebook', utmMedium: 'social', utmCampaign: 'winter', visits: 2 },
      { day, referrerHost: 'l.facebook.com', visits: 1 },
      { day, referrerHost: '', visits: 1 },
    ]);
    const r = await analyticsReport(leadPeriodRange(7, NOW));
    expect(r.sources).toEqual([
      { source: 'facebook', visits: 5 },
      { source: '', visits: 1 },
      { source: 'l.facebook.com', visits: 1 },
    ]);
    expect(r.campaigns).toEqual([
      { campaign: 'winter', source: 'facebook', medium: 'paid', visits: 3 },
      { campaign: 'winter', source: 'facebook', medium: 'social', visits: 2 },
    ]);
  });

  it('an empty database: zero-filled days, empty lists, every device at zero, no conversion rate', async () => {
    const r = await analyticsReport(leadPeriodRange(7, NOW));
    expect(r.days.map((d) => d.views + d.visits + d.visitors)).toEqual([0, 0, 0, 0, 0, 0, 0]);
    expect(r.totals).toEqual({ current: { views: 0, visits: 0, visitors: 0 }, previous: { views: 0, visits: 0, visitors: 0 } });
    expect([r.pages, r.sources, r.campaigns]).toEqual([[], [], []]);
    expect(r.devices).toEqual([
      { device: 'desktop', current: 0, previous: 0 },
      { device: 'mobile', current: 0, previous: 0 },
      { device: 'tablet', current: 0, previous: 0 },
    ]);
    expect(r.conversion).toEqual({ current: null, previous: null });
  });

  it('leads without visitors have no rate; a period edge belongs to the period it starts', async () => {
    const range = leadPeriodRange(7, NOW);
    await h.db.insert(leadEvents).values([
      { id: crypto.randomUUID(), kind: 'sign-up', at: range.start, email: 'first-second@example.com' }, // 00:00:00 of the first day
      { id: crypto.randomUUID(), kind: 'sign-up', at: new Date(range.start.getTime() - 1), email: 'last-ms-before@example.com' },
      { id: crypto.randomUUID(), kind: 'sign-up', at: range.end, email: 'tomorrow@example.com' },
    ]);
    await h.db.insert(analyticsDays).values({ day: dayAgo(8), views: 9, visits: 5, visitors: 4 });
    const r = await analyticsReport(range);
    expect(r.leads).toEqual({ current: 1, previous: 1 });
    expect(r.conversion).toEqual({ current: null, previous: 0.25 });
  });

  it('an audit report opened is not a visitor turned lead: its reader became one when they asked for it', async () => {
    const range = leadPeriodRange(7, NOW);
    await h.db.insert(leadEvents).values([
      { id: crypto.randomUUID(), kind: 'report-opened', at: new Date(range.start.getTime() + 3600_000), email: 'asked-last-month@example.com' },
      { id: crypto.randomUUID(), kind: 'audit-request', at: new Date(range.start.getTime() + 7200_000), email: 'new@example.com' },
    ]);
    const r = await analyticsReport(range);
    expect(r.leads.current).toBe(1);
  });
});

describe('the weekly tables the top lists read', () => {
  const weekly = () =>
    direct(sql`select week::text, path, views::float8 as views, day_rows from analytics_page_weeks order by 1, 2`).then(async (pages) => ({
      pages,
      sources: await direct(
        sql`select week::text, referrer_host, utm_source, utm_medium, utm_campaign, visits::float8 as visits, day_rows from analytics_source_weeks order by 1, 2, 3, 4, 5`,
      ),
    }));
  // The same sums made from the per-day tables (a week starts on Monday).
  const fromDays = () =>
    direct(
      sql`select (day - (extract(isodow from day)::int - 1))::text as week, path, sum(views)::float8 as views, count(*)::int as day_rows from analytics_pages group by 1, 2 order by 1, 2`,
    ).then(async (pages) => ({
      pages,
      sources: await direct(
        sql`select (day - (extract(isodow from day)::int - 1))::text as week, referrer_host, utm_source, utm_medium, utm_campaign, sum(visits)::float8 as visits, count(*)::int as day_rows
            from analytics_sources group by 1, 2, 3, 4, 5 order by 1, 2, 3, 4, 5`,
      ),
    }));
  const same = async () => expect(await weekly()).toEqual(await fromDays());

  it('stay the per-day sums through every write: insert, the ingest’s increments, update, delete, truncate', async () => {
    await seed();
    await same();
    expect((await weekly()).pages.length).toBeGreaterThan(0);
    // The ingest's flush: insert … on conflict do update, new and existing rows in one statement.
    await h.db.execute(
      sql`insert into analytics_pages (day, path, views) values (${dayAgo(0)}, '/', 4), (${dayAgo(0)}, '/new', 1), (${dayAgo(40)}, '/services', 2)
          on conflict (day, path) do update set views = analytics_pages.views + excluded.views`,
    );
    await h.db.execute(
      sql`insert into analytics_sources (day, referrer_host, utm_source, utm_medium, utm_campaign, visits) values (${dayAgo(0)}, '', '', '', '', 3), (${dayAgo(1)}, 'new.example', '', '', '', 1)
          on conflict (day, referrer_host, utm_source, utm_medium, utm_campaign) do update set visits = analytics_sources.visits + excluded.visits`,
    );
    await same();
    await h.db.execute(sql`update analytics_pages set day = ${dayAgo(100)} where path = '/new'`);
    await same();
    await h.db.execute(sql`delete from analytics_pages where path = '/new'`);
    await h.db.execute(sql`delete from analytics_sources where referrer_host = 'news.example'`);
    await same();
    expect((await weekly()).pages.some((r) => r.path === '/new')).toBe(false);
    await h.db.execute(sql`truncate analytics_pages, analytics_sources`);
    expect(await weekly()).toEqual({ pages: [], sources: [] });
  });

  it('a period is its whole weeks (Monday to Sunday) and the days at its ends', () => {
    // Thursday 27 August to Thursday 26 November 2026 (end exclusive): whole weeks from Monday 31 August to Monday 23 November.
    expect(weeksOf({ start: '2026-08-27', end: '2026-11-26' })).toEqual({ firstWeek: '2026-08-31', endWeek: '2026-11-23' });
    expect(weeksOf({ start: '2026-11-16', end: '2026-11-23' })).toEqual({ firstWeek: '2026-11-16', endWeek: '2026-11-23' });
    // No whole week inside: every day from the per-day tables.
    expect(weeksOf({ start: '2026-11-18', end: '2026-11-25' })).toEqual({ firstWeek: '2026-11-25', endWeek: '2026-11-25' });
  });
});
