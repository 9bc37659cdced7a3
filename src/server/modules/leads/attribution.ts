/**
 * The rules every lead event's attribution meets before it is stored, whichever module records the event
 * (audit requests, chat leads, sign-ups, book-a-call clicks all pass through insertLeadEvent): the
 * cleaning of src/shared/schemas/audit.ts again (safe UTM values, the referrer's origin, a public route as
 * landing page), the landing page's detail id must exist, and a day holds at most MAX_LEAD_SOURCES_PER_DAY
 * distinct UTM source/medium/campaign triples, more being stored as "other". So the overview's "where
 * leads came from" shows no made-up sources beyond a bounded few, and no invented pages at all.
 */
import type { Database } from '../../db/client';
import type { Attribution } from '../../db/schema';
import { cleanAttribution } from '../../../shared/schemas/audit';
import { OTHER } from '../../../shared/utm';
import { publicPageOrUndefined } from '../site-routes/service';
import { utmTriplesOfDay } from './sources-repository';

type Reader = Pick<Database, 'select'>;

export const MAX_LEAD_SOURCES_PER_DAY = 200;
const DAY_MS = 86_400_000;

/** The attribution cleaned, its landing page kept only when it exists (for rows beside the lead event). */
export async function withPublicLandingPage(ex: Reader, raw: Attribution): Promise<Attribution> {
  const a: Attribution = cleanAttribution(raw);
  const page = await publicPageOrUndefined(a.sourcePage, ex);
  if (page) a.sourcePage = page;
  else delete a.sourcePage;
  return a;
}

export async function boundLeadAttribution(ex: Reader, raw: Attribution, now: Date = new Date()): Promise<Attribution> {
  const a = await withPublicLandingPage(ex, raw);
  const triple = { utmSource: a.utmSource ?? '', utmMedium: a.utmMedium ?? '', utmCampaign: a.utmCampaign ?? '' };
  if (triple.utmSource || triple.utmMedium || triple.utmCampaign) {
    const start = new Date(Math.floor(now.getTime() / DAY_MS) * DAY_MS);
    // Two processes may both take the last place of a day at once: the cap can be passed by a few, not grown.
    const day = await utmTriplesOfDay(ex, triple, { start, end: new Date(start.getTime() + DAY_MS) });
    if (!day.seen && day.distinct >= MAX_LEAD_SOURCES_PER_DAY) {
      const hadCampaign = Boolean(a.utmCampaign);
      for (const key of ['utmSource', 'utmMedium', 'utmCampaign', 'utmTerm', 'utmContent'] as const) delete a[key];
      a.utmSource = OTHER;
      if (hadCampaign) a.utmCampaign = OTHER;
    }
  }
  return a;
}
