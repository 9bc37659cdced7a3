/**
 * The admin overview's "Site and leads" rules (decisions 014, 032): the period's day keys (days of the
 * site's time zone), the conversion rate visitor → lead and how numbers read on the page. Pure.
 */
import { formatDay } from './dates';
import { periodDays, type LeadPeriodRange } from './lead-events';
import { OTHER } from './utm';

/**
 * The period as day keys for SQL on the analytics tables' `day` column: the current period is
 * [start, end), the previous one [previousStart, start).
 */
export function periodDayKeys(range: LeadPeriodRange): { previousStart: string; start: string; end: string } {
  return { previousStart: range.previousStartDay, start: range.startDay, end: range.endDay };
}

/** The period's days oldest first (the order a chart reads left to right). */
export const chronologicalDays = (range: LeadPeriodRange): string[] => periodDays(range).reverse();

/** "25 Nov": a chart's axis label. */
export const shortDayLabel = (day: string) => formatDay(day, 'day-month');

/**
 * Conversion rate visitor → lead: people who became leads ÷ unique visitors (the sum of the days'
 * visitors). No visitors: no rate (null), never a division by zero.
 */
export function conversionRate(leads: number, visitors: number): number | null {
  return visitors > 0 ? leads / visitors : null;
}

/** 0.0234 → "2.3%"; below 0.1% but above zero → "<0.1%"; no rate → "—". */
export function formatRate(rate: number | null): string {
  if (rate === null) return '\u2014';
  if (rate > 0 && rate < 0.001) return '<0.1%';
  return `${(rate * 100).toFixed(1).replace(/\.0$/, '')}%`;
}

/**
 * The change of a rate from the previous period in percentage points: "+1.2 pts", "−0.5 pts", "±0 pts";
 * "—" when either period has no rate (nothing to compare with).
 */
export function rateChangeInWords(current: number | null, previous: number | null): string {
  if (current === null || previous === null) return '\u2014';
  const points = Math.round((current - previous) * 1000) / 10;
  if (points === 0) return '\u00b10 pts';
  const size = Math.abs(points).toFixed(1).replace(/\.0$/, '');
  return points > 0 ? `+${size} pts` : `\u2212${size} pts`;
}

/** A traffic source as the overview names it: the UTM source or referring host; '' is a direct visit. */
export const trafficSourceLabel = (source: string) => (source === OTHER ? 'Other sources' : source || 'Direct');

/** A counted page as the overview names it: its path, or "Other pages" for every path that is no public page. */
export const pageLabel = (path: string) => (path === OTHER ? 'Other pages' : path);

/** A campaign as the overview names it ("Other campaigns" past the day's cap of sources). */
export const campaignLabel = (campaign: string) => (campaign === OTHER ? 'Other campaigns' : campaign);

export const DEVICE_CLASSES = ['desktop', 'mobile', 'tablet'] as const;
export type DeviceClass = (typeof DEVICE_CLASSES)[number];
export const DEVICE_LABELS: Record<DeviceClass, string> = { desktop: 'Desktop', mobile: 'Mobile', tablet: 'Tablet' };
