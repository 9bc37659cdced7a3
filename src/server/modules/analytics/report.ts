/**
 * The admin overview's site numbers for a period and the one before it (decision 014): views, visits and
 * unique visitors per day (of the site's time zone: the days the views were counted on, decision 032), top
 * pages, sources, campaigns and devices, and the conversion rate visitor → lead (the team's own leads left
 * out). Every number is aggregated in SQL over the per-day tables (their primary keys start
 * with `day`, so each query is one range scan); only the ≤ 90-day series and top-N lists reach JS.
 */
import { and, asc, desc, gte, lt, ne, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { db } from '../../db';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Database } from '../../db/client';
import { analyticsDays, analyticsDevices, analyticsPages, analyticsPageWeeks, analyticsSources, analyticsSourceWeeks, leadEvents } from '../../db/schema';
import type { LeadPeriodRange } from '../../../shared/lead-events';
import { bringsALead, notByTeam } from '../leads/team';
import { flushAnalytics } from './ingest';
import { addDays } from '../../../shared/dates';
import { chronologicalDays, conversionRate, DEVICE_CLASSES, periodDayKeys, type DeviceClass } from '../../../shared/overview';

type Reader = Pick<Database, 'select'>;

/** How many pages, sources and campaigns the overview lists. */
export const TOP_N = 10;

export interface SiteTotals {
  views: number;
  visits: number;
  /** The sum of the days' unique visitors (a visitor on two days counts twice: the salt changes daily). */
  visitors: number;
}

export interface AnalyticsReport {
  range: LeadPeriodRange;
  /** One row per day of the period, oldest first, zeros included. */
  days: ({ day: string } & SiteTotals)[];
  totals: { current: SiteTotals; previous: SiteTotals };
  /** Most viewed paths, ties by path. */
  pages: { path: string; views: number }[];
  /** Visits by UTM source, else referring host; '' = direct. Most visits first, ties by name. */
  sources: { source: string; visits: number }[];
  /** Visits of tagged campaigns (utm_campaign set) with their source and medium. */
  campaigns: { campaign: string; source: string; medium: string; visits: number }[];
  /** Page views per device class, every class present. */
  devices: { device: DeviceClass; current: number; previous: number }[];
  /** People who became leads: distinct emails with any lead event in the period. */
  leads: { current: number; previous: number };
  /** leads ÷ visitors; null when there were no visitors. */
  conversion: { current: number | null; previous: number | null };
}

const n = (v: unknown) => Number(v ?? 0);

export async function analyticsReport(range: LeadPeriodRange, ex: Reader = db()): Promise<AnalyticsReport> {
  await flushAnalytics(); // the last 2 s of buffered counts belong in the numbers the admin reads
  const keys = periodDayKeys(range);
  const [series, totals, pages, sources, campaigns, devices, leads] = await Promise.all([
    daySeries(keys, ex),
    siteTotals(keys, ex),
    topPages(keys, TOP_N, ex),
    topSources(keys, TOP_N, ex),
    topCampaigns(keys, TOP_N, ex),
    deviceViews(keys, ex),
    distinctLeads(range, ex),
  ]);
  const byDay = new Map(series.map((row) => [row.day, row]));
  return {
    range,
    days: chronologicalDays(range).map((day) => byDay.get(day) ?? { day, views: 0, visits: 0, visitors: 0 }),
    totals,
    pages,
    sources,
    campaigns,
    devices,
    leads,
    conversion: {
      current: conversionRate(leads.current, totals.current.visitors),
      previous: conversionRate(leads.previous, totals.previous.visitors),
    },
  };
}

type DayKeys = ReturnType<typeof periodDayKeys>;

async function daySeries(keys: DayKeys, ex: Reader) {
  const rows = await ex
    .select({ day: analyticsDays.day, views: analyticsDays.views, visits: analyticsDays.visits, visitors: analyticsDays.visitors })
    .from(analyticsDays)
    .where(and(gte(analyticsDays.day, keys.start), lt(analyticsDays.day, keys.end)));
  return rows.map((r) => ({ day: String(r.day), views: n(r.views), visits: n(r.visits), visitors: n(r.visitors) }));
}

async function siteTotals(keys: DayKeys, ex: Reader): Promise<AnalyticsReport['totals']> {
  const current = sql`${analyticsDays.day} >= ${keys.start}`;
  const previous = sql`${analyticsDays.day} < ${keys.start}`;
  const sum = (column: SQLWrapper, when: SQL) => sql<number>`coalesce(sum(${column}) filter (where ${when}), 0)`;
  const [row] = await ex
    .select({
      views: sum(analyticsDays.views, current),
      visits: sum(analyticsDays.visits, current),
      visitors: sum(analyticsDays.visitors, current),
      previousViews: sum(analyticsDays.views, previous),
      previousVisits: sum(analyticsDays.visits, previous),
      previousVisitors: sum(analyticsDays.visitors, previous),
    })
    .from(analyticsDays)
    .where(and(gte(analyticsDays.day, keys.previousStart), lt(analyticsDays.day, keys.end)));
  return {
    current: { views: n(row?.views), visits: n(row?.visits), visitors: n(row?.visitors) },
    previous: { views: n(row?.previousViews), visits: n(row?.previousVisits), visitors: n(row?.previousVisitors) },
  };
}

/**
 * The period's whole weeks (Monday to Sunday, `week` keys of the weekly tables) and the days at its ends
 * outside them, which the per-day tables answer. No whole week: every day comes from the per-day tables.
 */
export function weeksOf(keys: Pick<DayKeys, 'start' | 'end'>): { firstWeek: string; endWeek: string } {
  const weekday = (day: string) => (new Date(`${day}T00:00:00Z`).getUTCDay() + 6) % 7; // Monday 0 … Sunday 6
  const firstWeek = addDays(keys.start, (7 - weekday(keys.start)) % 7);
  const endWeek = addDays(keys.end, -weekday(keys.end));
  return firstWeek < endWeek ? { firstWeek, endWeek } : { firstWeek: keys.end, endWeek: keys.end };
}

/** The days of [start, end) that are not in a whole week of the period, for `day`. */
function outsideWholeWeeks(day: AnyPgColumn, keys: DayKeys): SQL {
  const { firstWeek, endWeek } = weeksOf(keys);
  return sql`((${day} >= ${keys.start} and ${day} < ${firstWeek}) or (${day} >= ${endWeek} and ${day} < ${keys.end}))`;
}

function wholeWeeks(week: AnyPgColumn, keys: DayKeys): SQL {
  const { firstWeek, endWeek } = weeksOf(keys);
  return sql`(${week} >= ${firstWeek} and ${week} < ${endWeek})`;
}

async function topPages(keys: DayKeys, limit: number, ex: Reader) {
  const rows = ex
    .select({ path: analyticsPageWeeks.path, views: analyticsPageWeeks.views })
    .from(analyticsPageWeeks)
    .where(wholeWeeks(analyticsPageWeeks.week, keys))
    .unionAll(ex.select({ path: analyticsPages.path, views: sql<number>`${analyticsPages.views}::bigint` }).from(analyticsPages).where(outsideWholeWeeks(analyticsPages.day, keys)))
    .as('page_views');
  const views = sql<number>`sum(${rows.views})`;
  const top = await ex.select({ path: rows.path, views }).from(rows).groupBy(rows.path).orderBy(desc(views), asc(rows.path)).limit(limit);
  return top.map((r) => ({ path: r.path, views: n(r.views) }));
}

/** The period's source rows: its whole weeks from analytics_source_weeks, the days at its ends from analytics_sources. */
function sourceRows(keys: DayKeys, ex: Reader) {
  const w = analyticsSourceWeeks;
  const d = analyticsSources;
  return ex
    .select({ referrerHost: w.referrerHost, utmSource: w.utmSource, utmMedium: w.utmMedium, utmCampaign: w.utmCampaign, visits: w.visits })
    .from(w)
    .where(wholeWeeks(w.week, keys))
    .unionAll(
      ex
        .select({ referrerHost: d.referrerHost, utmSource: d.utmSource, utmMedium: d.utmMedium, utmCampaign: d.utmCampaign, visits: sql<number>`${d.visits}::bigint` })
        .from(d)
        .where(outsideWholeWeeks(d.day, keys)),
    )
    .as('source_visits');
}

async function topSources(keys: DayKeys, limit: number, ex: Reader) {
  const rows = sourceRows(keys, ex);
  const source = sql<string>`case when ${rows.utmSource} <> '' then ${rows.utmSource} else ${rows.referrerHost} end`;
  const visits = sql<number>`sum(${rows.visits})`;
  const top = await ex.select({ source, visits }).from(rows).groupBy(source).orderBy(desc(visits), asc(source)).limit(limit);
  return top.map((r) => ({ source: String(r.source ?? ''), visits: n(r.visits) }));
}

async function topCampaigns(keys: DayKeys, limit: number, ex: Reader) {
  const rows = sourceRows(keys, ex);
  const visits = sql<number>`sum(${rows.visits})`;
  const { utmCampaign: campaign, utmSource: source, utmMedium: medium } = rows;
  const top = await ex
    .select({ campaign, source, medium, visits })
    .from(rows)
    .where(ne(campaign, ''))
    .groupBy(campaign, source, medium)
    .orderBy(desc(visits), asc(campaign), asc(source), asc(medium))
    .limit(limit);
  return top.map((r) => ({ campaign: r.campaign, source: r.source, medium: r.medium, visits: n(r.visits) }));
}

async function deviceViews(keys: DayKeys, ex: Reader): Promise<AnalyticsReport['devices']> {
  const rows = await ex
    .select({
      device: analyticsDevices.device,
      current: sql<number>`coalesce(sum(${analyticsDevices.views}) filter (where ${analyticsDevices.day} >= ${keys.start}), 0)`,
      previous: sql<number>`coalesce(sum(${analyticsDevices.views}) filter (where ${analyticsDevices.day} < ${keys.start}), 0)`,
    })
    .from(analyticsDevices)
    .where(and(gte(analyticsDevices.day, keys.previousStart), lt(analyticsDevices.day, keys.end)))
    .groupBy(analyticsDevices.device);
  const byDevice = new Map(rows.map((r) => [r.device, r]));
  return DEVICE_CLASSES.map((device) => ({ device, current: n(byDevice.get(device)?.current), previous: n(byDevice.get(device)?.previous) }));
}

/**
 * People who became leads in each period: distinct emails (case-insensitive) with any lead event, admins
 * left out (leads/team.ts).
 * Book-a-call clicks by visitors carry no email and are not people we can count, so they are left out.
 * One group per email with a flag per period: one aggregation instead of two distinct counts.
 */
async function distinctLeads(range: LeadPeriodRange, ex: Reader): Promise<AnalyticsReport['leads']> {
  const email = sql<string>`lower(${leadEvents.email})`;
  const people = ex
    .select({
      email: email.as('email'),
      inCurrent: sql<boolean>`bool_or(${leadEvents.at} >= ${range.start})`.as('in_current'),
      inPrevious: sql<boolean>`bool_or(${leadEvents.at} < ${range.start})`.as('in_previous'),
    })
    .from(leadEvents)
    .where(and(gte(leadEvents.at, range.previousStart), lt(leadEvents.at, range.end), ne(leadEvents.email, ''), notByTeam, bringsALead))
    .groupBy(email)
    .as('people');
  const [row] = await ex
    .select({ current: sql<number>`count(*) filter (where ${people.inCurrent})`, previous: sql<number>`count(*) filter (where ${people.inPrevious})` })
    .from(people);
  return { current: n(row?.current), previous: n(row?.previous) };
}
