/** The overview's "Site and leads" rules (src/shared/overview.ts) and the chart box heights. */
import { describe, expect, it } from 'vitest';
import { chartHeightClass, durationStepMs, formatDuration } from '../../src/components/admin/charts/chart-spec';
import { changeInWords, leadPeriodRange } from '../../src/shared/lead-events';
import { campaignLabel, chronologicalDays, conversionRate, formatRate, pageLabel, periodDayKeys, rateChangeInWords, shortDayLabel, trafficSourceLabel } from '../../src/shared/overview';

const NOW = new Date(Date.UTC(2026, 10, 25, 23, 59, 59));

describe('the period as UTC day keys', () => {
  it('7 days end today (inclusive) and the previous 7 end the day before the first', () => {
    expect(periodDayKeys(leadPeriodRange(7, NOW))).toEqual({ previousStart: '2026-11-12', start: '2026-11-19', end: '2026-11-26' });
  });

  it('a period across a month and a year edge keeps whole days', () => {
    const keys = periodDayKeys(leadPeriodRange(90, new Date(Date.UTC(2027, 0, 5, 0, 0, 0))));
    expect(keys).toEqual({ previousStart: '2026-07-10', start: '2026-10-08', end: '2027-01-06' });
  });

  it('lists the days oldest first, today last, one per day', () => {
    const days = chronologicalDays(leadPeriodRange(30, NOW));
    expect(days).toHaveLength(30);
    expect(days[0]).toBe('2026-10-27');
    expect(days.at(-1)).toBe('2026-11-25');
    expect(new Set(days).size).toBe(30);
  });

  it('labels a day without its weekday for a chart axis', () => {
    expect(shortDayLabel('2026-11-25')).toBe('25 Nov');
  });
});

describe('conversion rate visitor → lead', () => {
  it('is leads ÷ visitors, and no rate without visitors (never a division by zero)', () => {
    expect(conversionRate(3, 200)).toBe(0.015);
    expect(conversionRate(0, 50)).toBe(0);
    expect(conversionRate(4, 0)).toBeNull();
    expect(conversionRate(0, 0)).toBeNull();
  });

  it('reads as a percentage with at most one decimal, "—" without a rate', () => {
    expect(formatRate(0.015)).toBe('1.5%');
    expect(formatRate(0.02)).toBe('2%');
    expect(formatRate(0)).toBe('0%');
    expect(formatRate(0.0004)).toBe('<0.1%');
    expect(formatRate(1.25)).toBe('125%');
    expect(formatRate(null)).toBe('\u2014');
  });

  it('changes in percentage points, "—" when either period has no rate', () => {
    expect(rateChangeInWords(0.025, 0.013)).toBe('+1.2 pts');
    expect(rateChangeInWords(0.01, 0.015)).toBe('\u22120.5 pts');
    expect(rateChangeInWords(0.02, 0.02)).toBe('\u00b10 pts');
    expect(rateChangeInWords(0.05, 0.03)).toBe('+2 pts');
    expect(rateChangeInWords(0.02, null)).toBe('\u2014');
    expect(rateChangeInWords(null, 0.02)).toBe('\u2014');
  });
});

describe('how counts read', () => {
  it('a change from the previous period has a sign and thousands separators', () => {
    expect([changeInWords(2890, 1095), changeInWords(1095, 2890), changeInWords(7, 7)]).toEqual(['+1,795', '\u22121,795', '\u00b10']);
  });

  it('a visit without a referrer or UTM source is direct', () => {
    expect(trafficSourceLabel('')).toBe('Direct');
    expect(trafficSourceLabel('www.google.com')).toBe('www.google.com');
    // The buckets past the caps: every path that is no public page, sources beyond the day's limit.
    expect(trafficSourceLabel('(other)')).toBe('Other sources');
    expect(pageLabel('(other)')).toBe('Other pages');
    expect(pageLabel('/services')).toBe('/services');
    expect(campaignLabel('(other)')).toBe('Other campaigns');
    expect(campaignLabel('spring')).toBe('spring');
  });
});

describe('chart box height', () => {
  it('rounds up to a listed height, the tallest for anything above', () => {
    expect(chartHeightClass(100)).toBe('h-[150px]');
    expect(chartHeightClass(240)).toBe('h-[240px]');
    expect(chartHeightClass(241)).toBe('h-[280px]');
    expect(chartHeightClass(5000)).toBe('h-[420px]');
  });
});

describe('a duration axis', () => {
  it('steps by round durations, so no two ticks read the same', () => {
    expect(durationStepMs(4_000)).toBe(1_000);
    expect(durationStepMs(4_500)).toBe(1_000);
    expect(durationStepMs(7_000)).toBe(2_000);
    expect(durationStepMs(90_000)).toBe(15_000);
    expect(durationStepMs(3 * 3_600_000)).toBe(1_800_000);
    for (const max of [1_500, 4_000, 9_999, 61_000, 250_000, 5_000_000]) {
      const step = durationStepMs(max);
      const labels = Array.from({ length: Math.floor(max / step) + 1 }, (_, i) => formatDuration(i * step));
      expect(new Set(labels).size).toBe(labels.length);
      expect(labels.length).toBeLessThanOrEqual(7);
    }
  });
});
