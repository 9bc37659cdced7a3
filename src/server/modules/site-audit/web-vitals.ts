/**
 * How good a measured Core Web Vital is, by the thresholds PageSpeed Insights publishes
 * (https://web.dev/articles/vitals, https://developer.chrome.com/docs/lighthouse/performance/speed-index):
 * at or under the good bound is good, over the poor bound is poor, in between needs improvement. Pure.
 */
import type { Measure, MeasureId, MeasureRating } from './findings';
import { formatMs } from './text';

export interface Thresholds {
  /** Good up to and including this value. */
  good: number;
  /** Poor above this value. */
  poor: number;
  unit: 'ms' | '';
  /** In plain words, for the site's owner. */
  label: string;
}

export const WEB_VITAL_THRESHOLDS: Readonly<Record<MeasureId, Readonly<Thresholds>>> = {
  lcp: { good: 2_500, poor: 4_000, unit: 'ms', label: 'Largest content shown' },
  fcp: { good: 1_800, poor: 3_000, unit: 'ms', label: 'First content shown' },
  cls: { good: 0.1, poor: 0.25, unit: '', label: 'Layout shift (content jumping)' },
  tbt: { good: 200, poor: 600, unit: 'ms', label: 'Time blocked by scripts' },
  inp: { good: 200, poor: 500, unit: 'ms', label: 'Answer to a tap or click' },
  si: { good: 3_400, poor: 5_800, unit: 'ms', label: 'Page filled in (Speed Index)' },
};

/**
 * The measures that make a fast score untrue when they are poor: Google's Core Web Vitals (LCP, CLS, INP) and
 * Total Blocking Time, which stands in for INP in a lab run (there is no tap to answer in Lighthouse's load).
 */
export const CORE_WEB_VITALS: readonly MeasureId[] = ['lcp', 'cls', 'inp', 'tbt'];

export function rateMeasure(id: MeasureId, value: number): MeasureRating {
  const { good, poor } = WEB_VITAL_THRESHOLDS[id];
  if (value <= good) return 'good';
  return value > poor ? 'poor' : 'needs-improvement';
}

/** The value to the precision it is shown with: whole ms under a second, tenths of a second above; CLS to two decimals. */
function asShown(id: MeasureId, value: number): number {
  if (WEB_VITAL_THRESHOLDS[id].unit === '') return Math.round(value * 100) / 100;
  const ms = Math.round(value);
  return ms < 1_000 ? ms : Math.round(ms / 100) * 100;
}

/** A measured value as read: '2.5 s', '420 ms', '0.12' (CLS always with two decimals, as Lighthouse shows it). */
export function formatMeasure(id: MeasureId, value: number): string {
  return WEB_VITAL_THRESHOLDS[id].unit === 'ms' ? formatMs(value) : value.toFixed(2);
}

/**
 * A measured value with its words and rating. The value is first rounded to what is shown, so the number the
 * reader sees and its rating always agree ("2.5 s" is good, never "needs improvement" because it was 2.54 s).
 */
export function measureOf(id: MeasureId, measured: number): Measure {
  const { unit, label } = WEB_VITAL_THRESHOLDS[id];
  const value = asShown(id, Math.max(0, measured));
  return { id, label, value, unit, display: formatMeasure(id, value), rating: rateMeasure(id, value) };
}

/** "good up to 2.5 s, poor over 4 s"; undefined for a measure this code does not know (a later run's). */
export function thresholdsText(id: string): string | undefined {
  if (!Object.hasOwn(WEB_VITAL_THRESHOLDS, id)) return undefined;
  const measure = id as MeasureId;
  const { good, poor } = WEB_VITAL_THRESHOLDS[measure];
  const bound = (value: number) => (WEB_VITAL_THRESHOLDS[measure].unit === 'ms' ? formatMs(value) : String(value));
  return `good up to ${bound(good)}, poor over ${bound(poor)}`;
}

/** The Core Web Vitals among `measures` that are poor. */
export const poorCoreWebVitals = (measures: readonly Measure[]): Measure[] => measures.filter((m) => m.rating === 'poor' && CORE_WEB_VITALS.includes(m.id));
