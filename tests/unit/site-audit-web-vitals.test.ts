import { describe, expect, it } from 'vitest';
import type { MeasureId, MeasureRating } from '../../src/server/modules/site-audit/findings';
import { CORE_WEB_VITALS, measureOf, poorCoreWebVitals, rateMeasure, thresholdsText, WEB_VITAL_THRESHOLDS } from '../../src/server/modules/site-audit/web-vitals';

describe('Core Web Vitals thresholds (PageSpeed Insights)', () => {
  // The published bounds, written out here so a changed number in the module fails.
  const published: [MeasureId, number, number][] = [
    ['lcp', 2_500, 4_000],
    ['fcp', 1_800, 3_000],
    ['cls', 0.1, 0.25],
    ['tbt', 200, 600],
    ['inp', 200, 500],
    ['si', 3_400, 5_800],
  ];

  it('has the published bounds for every measure', () => {
    expect(Object.keys(WEB_VITAL_THRESHOLDS).sort()).toEqual(published.map(([id]) => id).sort());
    for (const [id, good, poor] of published) expect(WEB_VITAL_THRESHOLDS[id]).toMatchObject({ good, poor });
  });

  it.each(published)('%s: good up to and at %s, needs improvement up to and at %s, poor above', (id, good, poor) => {
    const step = WEB_VITAL_THRESHOLDS[id].unit === 'ms' ? 1 : 0.001;
    const cases: [number, MeasureRating][] = [
      [0, 'good'],
      [good - step, 'good'],
      [good, 'good'],
      [good + step, 'needs-improvement'],
      [(good + poor) / 2, 'needs-improvement'],
      [poor - step, 'needs-improvement'],
      [poor, 'needs-improvement'],
      [poor + step, 'poor'],
      [poor * 10, 'poor'],
    ];
    for (const [value, rating] of cases) expect([value, rateMeasure(id, value)]).toEqual([value, rating]);
  });

  it('rates the value as it is shown, so the number and its rating agree', () => {
    expect(measureOf('lcp', 26_912)).toEqual({ id: 'lcp', label: 'Largest content shown', value: 26_900, unit: 'ms', display: '26.9 s', rating: 'poor' });
    // 2.54 s reads "2.5 s": good, as the reader would judge it; 2.56 s reads "2.6 s".
    expect(measureOf('lcp', 2_540)).toMatchObject({ value: 2_500, display: '2.5 s', rating: 'good' });
    expect(measureOf('lcp', 2_560)).toMatchObject({ value: 2_600, display: '2.6 s', rating: 'needs-improvement' });
    expect(measureOf('lcp', 4_000)).toMatchObject({ display: '4 s', rating: 'needs-improvement' });
    expect(measureOf('lcp', 4_100)).toMatchObject({ display: '4.1 s', rating: 'poor' });
    expect(measureOf('tbt', 200.4)).toMatchObject({ value: 200, display: '200 ms', rating: 'good' });
    expect(measureOf('tbt', 201)).toMatchObject({ value: 201, display: '201 ms', rating: 'needs-improvement' });
    expect(measureOf('tbt', 999.7)).toMatchObject({ value: 1_000, display: '1 s', rating: 'poor' });
    expect(measureOf('cls', 0.1)).toEqual({ id: 'cls', label: expect.any(String), value: 0.1, unit: '', display: '0.10', rating: 'good' });
    expect(measureOf('cls', 0.104)).toMatchObject({ value: 0.1, display: '0.10', rating: 'good' });
    expect(measureOf('cls', 0.12)).toMatchObject({ value: 0.12, display: '0.12', rating: 'needs-improvement' });
    expect(measureOf('cls', 0.26)).toMatchObject({ display: '0.26', rating: 'poor' });
    expect(measureOf('cls', 0)).toMatchObject({ display: '0.00', rating: 'good' });
    expect(measureOf('fcp', 1_849)).toMatchObject({ display: '1.8 s', rating: 'good' });
    expect(measureOf('si', 5_900)).toMatchObject({ display: '5.9 s', rating: 'poor' });
    expect(measureOf('inp', 350)).toMatchObject({ display: '350 ms', rating: 'needs-improvement' });
  });

  it('labels every measure in plain words, without the acronym alone', () => {
    for (const [id] of published) {
      expect(measureOf(id, 0).label).not.toMatch(/^[A-Z]{2,4}$/);
      expect(measureOf(id, 0).label.length).toBeGreaterThan(5);
    }
  });

  it('says the bounds in words, and nothing for a measure it does not know', () => {
    expect(thresholdsText('lcp')).toBe('good up to 2.5 s, poor over 4 s');
    expect(thresholdsText('tbt')).toBe('good up to 200 ms, poor over 600 ms');
    expect(thresholdsText('cls')).toBe('good up to 0.1, poor over 0.25');
    expect(thresholdsText('ttfb')).toBeUndefined();
    expect(thresholdsText('toString')).toBeUndefined();
  });

  it('counts LCP, CLS, INP and TBT (INP in a lab run) as Core Web Vitals, not FCP or Speed Index', () => {
    expect([...CORE_WEB_VITALS].sort()).toEqual(['cls', 'inp', 'lcp', 'tbt']);
    const measures = [measureOf('fcp', 9_000), measureOf('si', 9_000), measureOf('lcp', 3_000), measureOf('cls', 0.3)];
    expect(poorCoreWebVitals(measures).map((m) => m.id)).toEqual(['cls']);
    expect(poorCoreWebVitals([measureOf('fcp', 9_000), measureOf('si', 9_000)])).toEqual([]);
  });
});
