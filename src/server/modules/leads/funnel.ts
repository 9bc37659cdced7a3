/**
 * The lead funnel for the overview's period (src/shared/lead-funnel.ts for what it counts; decision 048).
 * One query: the people whose first lead-bringing event falls in the period (a range scan of lead_events_at_idx
 * for the period's events, then one probe of lead_events_person_at_idx per person for an earlier one), each
 * with their first touch (that event's UTM source, else the referring host; its UTM campaign) and the furthest
 * step they reached by now, counted per (source, campaign). The team is left out (decision 032).
 */
import { sql } from 'drizzle-orm';
import { db } from '../../db';
import type { Database } from '../../db/client';
import { leadEvents, leadPeople } from '../../db/schema';
import { CALL_BOOKED_KIND, FOLLOW_UP_KINDS, type LeadPeriodRange } from '../../../shared/lead-events';
import { funnelGroups, funnelTotal, type FunnelCounts } from '../../../shared/lead-funnel';
import { referrerHostOf } from './repository';
import { bringsALead, notByTeam } from './team';

type Executor = Pick<Database, 'execute'>;

export interface FunnelRow extends FunnelCounts {
  /** UTM source, else the referring host; '' = direct. */
  source: string;
  /** UTM campaign; '' = none. */
  campaign: string;
}

const n = (v: unknown) => Number(v ?? 0);
const followUps = sql.join(
  FOLLOW_UP_KINDS.map((k) => sql`${k}`),
  sql`, `,
);

/** Counts per first-touch (source, campaign) of the people who became leads in [start, end). */
export async function funnelRows(range: Pick<LeadPeriodRange, 'start' | 'end'>, ex: Executor = db()): Promise<FunnelRow[]> {
  const reached = (kind: string) => sql`exists (select 1 from ${leadEvents} e where lower(e.email) = c.email and e.kind = ${kind})`;
  const result = (await ex.execute(sql`
    with period as (
      select distinct on (lower(${leadEvents.email}))
        lower(${leadEvents.email}) as email, ${leadEvents.utmSource} as utm_source, ${leadEvents.utmCampaign} as utm_campaign, ${leadEvents.referrer} as referrer
      from ${leadEvents}
      where ${leadEvents.at} >= ${range.start} and ${leadEvents.at} < ${range.end} and ${leadEvents.email} <> '' and ${notByTeam} and ${bringsALead}
      order by lower(${leadEvents.email}), ${leadEvents.at}, ${leadEvents.id}
    ),
    cohort as (
      select p.* from period p
      where not exists (
        select 1 from ${leadEvents} earlier
        where lower(earlier.email) = p.email and earlier.at < ${range.start} and earlier.kind not in (${followUps})
      )
    ),
    furthest as (
      select
        case when c.utm_source <> '' then c.utm_source
             else ${referrerHostOf(sql`c.referrer`)} end as source,
        c.utm_campaign as campaign,
        case
          when ${leadPeople.stage} = 'client' then 4
          when ${leadPeople.stage} = 'call-booked' or ${reached(CALL_BOOKED_KIND)} then 3
          when ${reached('report-opened')} then 2
          when ${reached('audit-request')} then 1
          else 0
        end as step
      from cohort c left join ${leadPeople} on ${leadPeople.email} = c.email
    )
    select source, campaign, count(*) as leads,
      count(*) filter (where step >= 1) as audit,
      count(*) filter (where step >= 2) as report,
      count(*) filter (where step >= 3) as call,
      count(*) filter (where step >= 4) as client
    from furthest
    group by source, campaign
  `)) as unknown as { rows: Record<string, unknown>[] };
  return result.rows.map((r) => ({
    source: String(r.source ?? ''),
    campaign: String(r.campaign ?? ''),
    leads: n(r.leads),
    audit: n(r.audit),
    report: n(r.report),
    call: n(r.call),
    client: n(r.client),
  }));
}

export interface LeadFunnel {
  total: FunnelCounts;
  bySource: { key: string; counts: FunnelCounts }[];
  byCampaign: { key: string; counts: FunnelCounts }[];
}

/** The period's funnel, whole and by first-touch source and campaign. */
export async function leadFunnel(range: Pick<LeadPeriodRange, 'start' | 'end'>): Promise<LeadFunnel> {
  const rows = await funnelRows(range);
  return {
    total: funnelTotal(rows),
    bySource: funnelGroups(rows, (r) => r.source),
    byCampaign: funnelGroups(rows, (r) => r.campaign),
  };
}
