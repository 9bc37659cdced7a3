/** How varied a day's lead sources are: data access only (Drizzle), through the caller's transaction. */
import { and, gte, lt, ne, or, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { leadEvents } from '../../db/schema';

type Reader = Pick<Database, 'select'>;

export interface UtmTriple {
  utmSource: string;
  utmMedium: string;
  utmCampaign: string;
}

/**
 * In [start, end): how many distinct UTM source/medium/campaign triples lead events carry, and whether
 * `triple` is one of them. A range scan of lead_events_at_idx over one day.
 */
export async function utmTriplesOfDay(ex: Reader, triple: UtmTriple, range: { start: Date; end: Date }) {
  const { utmSource, utmMedium, utmCampaign } = leadEvents;
  const [row] = await ex
    .select({
      distinct: sql<number>`count(distinct (${utmSource}, ${utmMedium}, ${utmCampaign}))`,
      seen: sql<boolean>`coalesce(bool_or(${utmSource} = ${triple.utmSource} and ${utmMedium} = ${triple.utmMedium} and ${utmCampaign} = ${triple.utmCampaign}), false)`,
    })
    .from(leadEvents)
    .where(and(gte(leadEvents.at, range.start), lt(leadEvents.at, range.end), or(ne(utmSource, ''), ne(utmMedium, ''), ne(utmCampaign, ''))));
  return { distinct: Number(row?.distinct ?? 0), seen: Boolean(row?.seen) };
}
