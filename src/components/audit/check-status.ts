/** How a check's outcome is shown: its words and its badge colours (text and background pass WCAG AA). */
import type { CheckStatus, MeasureRating } from '../../server/modules/site-audit/findings';

export const CHECK_STATUS_LABELS: Record<CheckStatus, string> = { pass: 'Pass', warn: 'Needs attention', fail: 'Fail', skipped: 'Not checked' };

/** A 0–100 score's colour as text (undefined: not scored) and as a bar's SVG fill (ScoreBar.astro): green from 80, amber from 50, else red. */
export const scoreTextClass = (score: number | undefined) => (score === undefined ? 'text-slate-700' : score >= 80 ? 'text-emerald-800' : score >= 50 ? 'text-amber-900' : 'text-red-800');
export const scoreFillClass = (score: number) => (score >= 80 ? 'fill-emerald-600' : score >= 50 ? 'fill-amber-500' : 'fill-red-600');

export const CHECK_STATUS_CLASSES: Record<CheckStatus, string> = {
  pass: 'bg-emerald-50 text-emerald-800 ring-emerald-200',
  warn: 'bg-amber-50 text-amber-900 ring-amber-200',
  fail: 'bg-red-50 text-red-800 ring-red-200',
  skipped: 'bg-slate-100 text-slate-700 ring-slate-200',
};

/** A measured Core Web Vital's rating in words, as PageSpeed Insights says it. */
export const MEASURE_RATING_LABELS: Record<MeasureRating, string> = { good: 'Good', 'needs-improvement': 'Needs improvement', poor: 'Poor' };

/** Its chip: the check outcomes' colours (green, amber, red; text on background passes WCAG AA). */
export const MEASURE_RATING_CLASSES: Record<MeasureRating, string> = {
  good: CHECK_STATUS_CLASSES.pass,
  'needs-improvement': CHECK_STATUS_CLASSES.warn,
  poor: CHECK_STATUS_CLASSES.fail,
};
