/**
 * Lead events: data access only (Drizzle). The insert is the audit module's (one definition, taken by the
 * audit service, the chat and this module); the counts are the admin overview's, made in SQL over a time
 * range so they use lead_events_at_idx.
 */
import { and, gte, lt, sql, type SQLWrapper } from 'drizzle-orm';
import { db } from '../../db';
import type { Database } from '../../db/client';
import { leadEvents } from '../../db/schema';
import { bringsALead, notByTeam } from './team';

export { insertLeadEvent, type Executor } from '../audit/repository';

type Reader = Pick<Database, 'select'>;

const n = (v: unknown) => Number(v ?? 0);

/** The calendar day (YYYY-MM-DD) an event happened on in `timeZone`, as SQL (PostgreSQL's AT TIME ZONE knows DST). */
const dayIn = (timeZone: string) => sql<string>`to_char(${leadEvents.at} at time zone ${timeZone}, 'YYYY-MM-DD')`;

/**
 * The overview's counts in one indexed range scan of [previousStart, end): events per kind in [start, end)
 * and in [previousStart, start), and per day of `timeZone` and kind in [start, end) (days without events
 * are not returned: the caller zero-fills). The day is formatted for the current period's events only; the
 * previous period's are grouped under no day. Grouped by position: the zone is a bound parameter, and
 * PostgreSQL does not match two placeholders as the same expression.
 */
export async function countByKindAndDay(range: { previousStart: Date; start: Date; end: Date }, timeZone: string, ex: Reader = db()) {
  const rows = await ex
    .select({ day: sql<string | null>`case when ${leadEvents.at} >= ${range.start} then ${dayIn(timeZone)} end`, kind: leadEvents.kind, n: sql<number>`count(*)` })
    .from(leadEvents)
    .where(and(gte(leadEvents.at, range.previousStart), lt(leadEvents.at, range.end), notByTeam))
    .groupBy(sql`1`, sql`2`);
  const byKind = new Map<string, { kind: string; current: number; previous: number }>();
  const byDay: { day: string; kind: string; n: number }[] = [];
  for (const r of rows) {
    const counts = byKind.get(r.kind) ?? { kind: r.kind, current: 0, previous: 0 };
    byKind.set(r.kind, counts);
    if (r.day === null) counts.previous += n(r.n);
    else {
      counts.current += n(r.n);
      byDay.push({ day: String(r.day), kind: r.kind, n: n(r.n) });
    }
  }
  return { byKind: [...byKind.values()], byDay };
}

/** The host of a stored referrer ("https://www.example.com" → "www.example.com"), '' when none. */
export const referrerHostOf = (referrer: SQLWrapper) => sql<string>`coalesce(lower(substring(${referrer} from '^[A-Za-z][A-Za-z0-9+.-]*://([^/?#:@]+)')), '')`;

/**
 * The sources that brought the most leads in [start, end): the UTM source/medium/campaign when any is set,
 * else the referring host, else direct (all empty). Most leads first, ties by name. The events are counted
 * per stored (source, medium, campaign, referrer) first and the host is taken from each distinct referrer,
 * not from every event's.
 */
export async function topSources(range: { start: Date; end: Date }, limit: number, ex: Reader = db()) {
  const stored = ex
    .select({
      utmSource: leadEvents.utmSource,
      utmMedium: leadEvents.utmMedium,
      utmCampaign: leadEvents.utmCampaign,
      referrer: leadEvents.referrer,
      n: sql<number>`count(*)`.as('n'),
    })
    .from(leadEvents)
    .where(and(gte(leadEvents.at, range.start), lt(leadEvents.at, range.end), notByTeam, bringsALead))
    .groupBy(leadEvents.utmSource, leadEvents.utmMedium, leadEvents.utmCampaign, leadEvents.referrer)
    .as('stored');
  const hasUtm = sql`(${stored.utmSource} <> '' or ${stored.utmMedium} <> '' or ${stored.utmCampaign} <> '')`;
  const utmPart = (column: SQLWrapper) => sql<string>`case when ${hasUtm} then ${column} else '' end`;
  const referrerHost = sql<string>`case when ${hasUtm} then '' else ${referrerHostOf(stored.referrer)} end`;
  const source = utmPart(stored.utmSource);
  const medium = utmPart(stored.utmMedium);
  const campaign = utmPart(stored.utmCampaign);
  const total = sql<number>`sum(${stored.n})`;
  const rows = await ex
    .select({ utmSource: source, utmMedium: medium, utmCampaign: campaign, referrerHost: referrerHost, n: total })
    .from(stored)
    .groupBy(source, medium, campaign, referrerHost)
    .orderBy(sql`${total} desc`, source, medium, campaign, referrerHost)
    .limit(limit);
  return rows.map((r) => ({
    utmSource: String(r.utmSource ?? ''),
    utmMedium: String(r.utmMedium ?? ''),
    utmCampaign: String(r.utmCampaign ?? ''),
    referrerHost: String(r.referrerHost ?? ''),
    n: n(r.n),
  }));
}
