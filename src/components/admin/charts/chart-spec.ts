/**
 * What an admin chart shows, as plain data: the server renders it into the page (JSON for the canvas and
 * the same numbers as a table, so every chart is also readable without sight or script).
 */
export type ChartKind = 'line' | 'bar' | 'horizontal-bar';

export interface ChartSeries {
  label: string;
  values: number[];
  /** A stable name for the series' table cells (`data-series`), e.g. a lead kind; the label when absent. */
  key?: string;
}

export interface ChartSpec {
  kind: ChartKind;
  /** One label per point (days, pages, sources). */
  labels: string[];
  series: ChartSeries[];
  /** How values read: 'count' (1,234) or 'duration' (ms shown as 1m 05s). */
  unit?: 'count' | 'duration';
  /** One stable key per label for the table rows (`data-row`), e.g. a YYYY-MM-DD day; the label when absent. */
  keys?: string[];
  /** Bars of several series on top of each other (parts of one total, e.g. leads by kind). */
  stacked?: boolean;
}

/**
 * Series colours: brand blue first, then hues that stay apart for common colour-vision differences, each
 * at least 3:1 against white (WCAG 1.4.11, graphical objects).
 */
export const CHART_COLOURS = ['#2553e0', '#b45309', '#047857', '#be185d', '#6d28d9', '#475569'] as const;

/** 65 000 ms → "1m 05s"; under a minute → "42s"; an hour or more → "1h 02m". */
export function formatDuration(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m ${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(m / 60)}h ${String(m % 60).padStart(2, '0')}m`;
}

export const formatValue = (value: number, unit: ChartSpec['unit'] = 'count') =>
  unit === 'duration' ? formatDuration(value) : value.toLocaleString('en-US');

/**
 * The canvas box's height as a class: the site's Content-Security-Policy blocks inline `style`
 * attributes, and the height must be set before the chart draws (so the page does not shift). Written out
 * in full so Tailwind generates each class.
 */
const HEIGHT_CLASSES: readonly [number, string][] = [
  [150, 'h-[150px]'],
  [200, 'h-[200px]'],
  [240, 'h-[240px]'],
  [280, 'h-[280px]'],
  [320, 'h-[320px]'],
  [360, 'h-[360px]'],
  [420, 'h-[420px]'],
];

/** The smallest listed height of at least `px` (the tallest for anything above it). */
export function chartHeightClass(px: number): string {
  return (HEIGHT_CLASSES.find(([h]) => h >= px) ?? HEIGHT_CLASSES.at(-1)!)[1];
}

/** Steps a duration axis may take: whole seconds, minutes and hours people read at a glance. */
const DURATION_STEPS_MS = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 14_400, 43_200, 86_400].map((s) => s * 1000);

/**
 * The tick step of a duration axis reaching `maxMs`: the smallest round duration giving at most `ticks`
 * steps, so labels never repeat ("1s 1s 2s" when Chart.js picks half seconds).
 */
export function durationStepMs(maxMs: number, ticks = 6): number {
  return DURATION_STEPS_MS.find((step) => maxMs / step <= ticks) ?? DURATION_STEPS_MS[DURATION_STEPS_MS.length - 1]!;
}
