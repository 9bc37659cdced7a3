/**
 * What an admin chart shows, as plain data: the server renders it into the page (JSON for the canvas and
 * the same numbers as a table, so every chart is also readable without sight or script).
 */
export type ChartKind = 'line' | 'bar' | 'horizontal-bar';

export interface ChartSeries {
  label: string;
  values: number[];
}

export interface ChartSpec {
  kind: ChartKind;
  /** One label per point (days, pages, sources). */
  labels: string[];
  series: ChartSeries[];
  /** How values read: 'count' (1,234) or 'duration' (ms shown as 1m 05s). */
  unit?: 'count' | 'duration';
}

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
