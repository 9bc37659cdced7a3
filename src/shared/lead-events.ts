/**
 * Lead events (PRODUCT.md "Leads in one place"): the kinds, what a browser may send to /api/lead-events,
 * and the admin overview's period and source rules. Pure: no server imports.
 */
import { sanitizeSitePath } from './auth-schemas';
import { addDays, dayKeyIn, DEFAULT_TIME_ZONE, formatDay, startOfDayIn } from './dates';
import { cleanAttribution, type AttributionKey, type AuditAttribution } from './schemas/audit';
import { OTHER } from './utm';
import { z } from './zod';

export const LEAD_KINDS = ['audit-request', 'chat-lead', 'sign-up', 'book-call', 'call-booked', 'report-opened'] as const;
export type LeadKind = (typeof LEAD_KINDS)[number];
export const LEAD_KIND_LABELS: Record<LeadKind, string> = {
  'audit-request': 'Audit requests',
  'chat-lead': 'Chat leads',
  'sign-up': 'Sign-ups',
  'book-call': 'Book-a-call clicks',
  'call-booked': 'Calls booked',
  'report-opened': 'Reports opened',
};

/** A call booked on the external scheduler, reported by its webhook (refId: the booking). */
export const CALL_BOOKED_KIND: LeadKind = 'call-booked';

/**
 * Kinds that follow up a lead already made (an audit report opened by its requester): on the timeline and
 * counted in the overview, but never where a lead came from (sources) or a visitor turned lead (conversion).
 */
export const FOLLOW_UP_KINDS: readonly LeadKind[] = ['report-opened'];

/** The largest body /api/lead-events reads: a path and seven attribution values, with room to spare. */
export const LEAD_EVENT_MAX_BYTES = 8 * 1024;

/** The attribution keys a client may send, as cleanAttribution reads them. */
const ATTRIBUTION_KEYS: readonly AttributionKey[] = ['sourcePage', 'referrer', 'utmSource', 'utmMedium', 'utmCampaign', 'utmTerm', 'utmContent'];

/** Anything (an object from a client, or garbage) → the cleaned attribution; never fails. */
export function attributionOf(raw: unknown): AuditAttribution {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return {};
  const source = raw as Record<string, unknown>;
  return cleanAttribution(Object.fromEntries(ATTRIBUTION_KEYS.map((key) => [key, source[key]])));
}

/**
 * What a browser sends: only a book-a-call click (audit requests, chat leads and sign-ups are recorded by
 * the server where they happen). `page` is the path the link was on: location.pathname, so percent-encoded
 * and never markup. The attribution is cleaned, not refused (a visitor cannot fix it).
 */
export const leadEventBodySchema = z.object({
  kind: z.literal('book-call', { error: 'Only book-call events can be sent' }),
  page: z
    .string({ error: 'page must be a path on this site' })
    .max(2048, 'page is too long')
    .refine((v) => sanitizeSitePath(v) === v && !/[\s<>"'`]/.test(v), 'page must be a path on this site'),
  attribution: z.unknown().transform(attributionOf).optional(),
});
export type LeadEventBody = z.output<typeof leadEventBodySchema>;

// ---------------------------------------------------------------------------------------------------------
// The admin overview: a period in whole days of the site's time zone ending today, compared with the one before it.

export const LEAD_PERIODS = [7, 30, 90] as const;
export type LeadPeriod = (typeof LEAD_PERIODS)[number];
export const DEFAULT_LEAD_PERIOD: LeadPeriod = 30;

/** `?days=` → one of the periods (anything else: the default). */
export function leadPeriodOf(params: URLSearchParams): LeadPeriod {
  const days = Number(params.get('days'));
  return (LEAD_PERIODS as readonly number[]).includes(days) ? (days as LeadPeriod) : DEFAULT_LEAD_PERIOD;
}

export interface LeadPeriodRange {
  days: LeadPeriod;
  /** The zone the days are counted in (decision 032). */
  timeZone: string;
  /** Midnight of the first day in `timeZone`; the period runs to `end` (midnight after today there). */
  start: Date;
  end: Date;
  /** The previous period of the same length: [previousStart, start). */
  previousStart: Date;
  /** The same bounds as day keys (YYYY-MM-DD): the first day, the day after today, the previous period's first day. */
  startDay: string;
  endDay: string;
  previousStartDay: string;
}

/**
 * The `days` days up to and including today in `timeZone`, and the same number before them. The bounds are
 * calendar days turned into instants, so a period across a DST change is an hour shorter or longer.
 */
export function leadPeriodRange(days: LeadPeriod, now: Date = new Date(), timeZone: string = DEFAULT_TIME_ZONE): LeadPeriodRange {
  const endDay = addDays(dayKeyIn(now, timeZone), 1);
  const startDay = addDays(endDay, -days);
  const previousStartDay = addDays(startDay, -days);
  return {
    days,
    timeZone,
    start: startOfDayIn(startDay, timeZone),
    end: startOfDayIn(endDay, timeZone),
    previousStart: startOfDayIn(previousStartDay, timeZone),
    startDay,
    endDay,
    previousStartDay,
  };
}

/** The period's days as YYYY-MM-DD (days of its zone), newest first. */
export function periodDays(range: LeadPeriodRange): string[] {
  return Array.from({ length: range.days }, (_, i) => addDays(range.endDay, -(i + 1)));
}

export type KindCounts = Record<LeadKind, number>;
export const zeroCounts = (): KindCounts => Object.fromEntries(LEAD_KINDS.map((k) => [k, 0])) as KindCounts;
export const isLeadKind = (v: unknown): v is LeadKind => typeof v === 'string' && (LEAD_KINDS as readonly string[]).includes(v);

/** Rows of (day, kind, count) → one row per day of the period, newest first, every kind present (zeros included). */
export function dayTable(range: LeadPeriodRange, rows: readonly { day: string; kind: string; n: number }[]): { day: string; counts: KindCounts; total: number }[] {
  const byDay = new Map(periodDays(range).map((day) => [day, zeroCounts()]));
  for (const row of rows) {
    const counts = byDay.get(row.day);
    if (counts && isLeadKind(row.kind)) counts[row.kind] += row.n;
  }
  return [...byDay].map(([day, counts]) => ({ day, counts, total: LEAD_KINDS.reduce((sum, k) => sum + counts[k], 0) }));
}

/** "+3", "−2", "±0", "+1,795": the change from the previous period, for people (with a real minus sign). */
export function changeInWords(current: number, previous: number): string {
  const d = current - previous;
  const size = Math.abs(d).toLocaleString('en-US');
  return d > 0 ? `+${size}` : d < 0 ? `\u2212${size}` : '\u00b10';
}

/** A source as the overview groups it: the UTM triple when any is set, else the referring host, else direct. */
export interface LeadSource {
  utmSource: string;
  utmMedium: string;
  utmCampaign: string;
  referrerHost: string;
}

export function sourceLabel(s: LeadSource): string {
  // Past the day's cap of distinct sources (src/server/modules/leads/attribution.ts).
  if (s.utmSource === OTHER) return 'Other sources';
  const utm = [s.utmSource, s.utmMedium, s.utmCampaign].filter(Boolean);
  if (utm.length > 0) return utm.join(' / ');
  return s.referrerHost || 'Direct';
}

/** A day key (YYYY-MM-DD, a calendar day: no zone to apply) as the overview's charts show it: "Wed 25 Nov". */
export const dayLabel = (day: string): string => formatDay(day, 'weekday-day');

/** Where a lead came from as label/value pairs, in the order the admin pages and the emails list them. */
export function attributionFacts(a: AuditAttribution): [string, string][] {
  return [
    ['Source page', a.sourcePage ?? ''],
    ['Referrer', a.referrer ?? ''],
    ['UTM source', a.utmSource ?? ''],
    ['UTM medium', a.utmMedium ?? ''],
    ['UTM campaign', a.utmCampaign ?? ''],
    ['UTM term', a.utmTerm ?? ''],
    ['UTM content', a.utmContent ?? ''],
  ];
}
