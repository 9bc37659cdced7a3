/**
 * What Google Lighthouse measured in a real browser (when the server has a Chromium, AUDIT_CHROMIUM_PATH):
 * the speed score with Core Web Vitals under Speed, the accessibility score under Mobile. Without a
 * measurement both are skipped, saying why. The Core Web Vitals are also kept as measures, each rated by
 * PageSpeed Insights' thresholds (web-vitals.ts); a poor one keeps the speed check from passing whatever
 * the score.
 */
import { CRAWL_STEPS } from '../crawl-context';
import type { Measure, MeasureId } from '../findings';
import type { LighthouseResult } from '../snapshot';
import { cutText, formatMs } from '../text';
import { measureOf, poorCoreWebVitals, thresholdsText } from '../web-vitals';
import type { AuditContext } from './context';
import { fail, pass, siteCheck, skip, warn, type Verdict } from './define';

/** Lighthouse's own bands: 90 and over good, 50 to 89 needs work, under 50 poor. */
function byScore(score: number, ...evidence: string[]): Verdict {
  if (score >= 90) return pass(...evidence);
  return score >= 50 ? warn(...evidence) : fail(...evidence);
}

/** Why there is no measurement, in the reader's words ("Lighthouse stopped: …" as it is, other reasons after "Lighthouse was not run"). */
function notMeasured(ctx: AuditContext): Verdict {
  const reason = ctx.snapshot.skipped.find((item) => item.check === CRAWL_STEPS.lighthouse)?.reason;
  if (!reason) return skip('Lighthouse was not run for this audit.');
  return skip(reason.startsWith('Lighthouse ') ? cutText(reason) : `Lighthouse was not run: ${cutText(reason)}`);
}

function vitals(result: LighthouseResult): string {
  const parts: string[] = [];
  if (result.largestContentfulPaintMs !== undefined) parts.push(`largest content shown after ${formatMs(result.largestContentfulPaintMs)}`);
  if (result.cumulativeLayoutShift !== undefined) parts.push(`layout shift ${result.cumulativeLayoutShift.toFixed(2)}`);
  if (result.totalBlockingTimeMs !== undefined) parts.push(`blocked for ${formatMs(result.totalBlockingTimeMs)}`);
  if (result.firstContentfulPaintMs !== undefined) parts.push(`first content after ${formatMs(result.firstContentfulPaintMs)}`);
  return parts.length > 0 ? `Core Web Vitals: ${parts.join(', ')}` : 'No Core Web Vitals measured';
}

/** What Lighthouse measured, Core Web Vitals first, each rated; what it did not measure is left out. */
export function lighthouseMeasures(result: LighthouseResult): Measure[] {
  const measured: [MeasureId, number | undefined][] = [
    ['lcp', result.largestContentfulPaintMs],
    ['cls', result.cumulativeLayoutShift],
    ['tbt', result.totalBlockingTimeMs],
    ['fcp', result.firstContentfulPaintMs],
    ['si', result.speedIndexMs],
  ];
  return measured.flatMap(([id, value]) => (typeof value === 'number' && Number.isFinite(value) ? [measureOf(id, value)] : []));
}

/** The speed verdict: Lighthouse's score band, but never a pass while a Core Web Vital is poor. */
function speedVerdict(result: LighthouseResult): Verdict {
  const performance = Math.round(result.performance);
  const measures = lighthouseMeasures(result);
  const verdict = byScore(performance, `Performance ${performance} of 100 on a phone (90 or more is good)`, vitals(result));
  const poor = poorCoreWebVitals(measures);
  if (verdict.status === 'pass' && poor.length > 0) {
    const named = poor.map((m) => `${m.label.toLowerCase()} ${m.display} (${thresholdsText(m.id)})`).join('; ');
    return {
      ...warn(...verdict.evidence, `Poor despite the score: ${named}`),
      fix: 'The score is good, but a Core Web Vital that visitors feel is poor: work on that measure first (the largest picture or text block for content shown late, fixed sizes for pictures and ads for jumping content, less script for a blocked page).',
      measures,
    };
  }
  return { ...verdict, measures };
}

export const lighthouseSpeed = siteCheck({
  id: 'lighthouse',
  title: 'Google Lighthouse speed score',
  why: 'Lighthouse loads the page in a real browser on a simulated mid-range phone, the way Google judges page experience.',
  fix: 'Work through the other speed findings first (pictures, scripts, caching); they are what usually holds the score down.',
  topic: 'website-speed',
  judge(ctx) {
    const result = ctx.snapshot.lighthouse;
    if (!result) return notMeasured(ctx);
    return speedVerdict(result);
  },
});

export const lighthouseAccessibility = siteCheck({
  id: 'lighthouse-accessibility',
  title: 'Google Lighthouse accessibility score',
  why: 'Visitors who use a screen reader, zoom in or cannot use a mouse must be able to read and use the page; the same fixes make it easier for everyone on a phone.',
  fix: 'Give every picture a description, every form field a label and every button a name, and make text contrast strongly with its background.',
  topic: 'website-care',
  judge(ctx) {
    const result = ctx.snapshot.lighthouse;
    if (!result) return notMeasured(ctx);
    const accessibility = Math.round(result.accessibility);
    return byScore(accessibility, `Accessibility ${accessibility} of 100 (90 or more is good), measured in a real browser on a simulated phone`);
  },
});
