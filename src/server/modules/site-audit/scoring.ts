/**
 * Scores of the website audit (issue 22): each category 0–100 from its checks, and an overall score weighted
 * towards what the agency sells (leads first). The weights are exported so the docs and the report can show
 * how the numbers are made.
 */
import { AUDIT_CATEGORIES, type AuditCategory, type AuditFindings, type CategoryScore, type CheckResult, type CheckStatus } from './findings';

/** What a check's outcome is worth; skipped checks are left out of the scores. */
export const STATUS_POINTS: Record<Exclude<CheckStatus, 'skipped'>, number> = { pass: 1, warn: 0.5, fail: 0 };

/** How much each category counts towards the overall score (renormalised over the scored categories). */
export const CATEGORY_WEIGHTS: Record<AuditCategory, number> = {
  leads: 30,
  speed: 20,
  search: 20,
  security: 15,
  mobile: 10,
  links: 5,
};

/** Checks that count more than the others within their category (default 1). */
export const CHECK_WEIGHTS: Readonly<Record<string, number>> = {
  reachable: 2,
  https: 2,
  'contact-form': 2,
  'click-to-call': 1.5,
  'booking-link': 1.5,
  noindex: 2,
  title: 1.5,
  viewport: 2,
  lighthouse: 2,
};

/** The weighted mean of `items`' values, or undefined when nothing is weighted. */
function weightedMean<T>(items: readonly T[], value: (item: T) => number, weight: (item: T) => number): number | undefined {
  let total = 0;
  let weights = 0;
  for (const item of items) {
    total += value(item) * weight(item);
    weights += weight(item);
  }
  return weights > 0 ? total / weights : undefined;
}

function categoryScore(category: AuditCategory, checks: readonly CheckResult[]): CategoryScore {
  const scored = checks.filter((check) => check.category === category && check.status !== 'skipped');
  const mean = weightedMean(
    scored,
    (check) => STATUS_POINTS[check.status as keyof typeof STATUS_POINTS],
    (check) => CHECK_WEIGHTS[check.id] ?? 1,
  );
  return { category, score: mean === undefined ? undefined : Math.round(100 * mean) };
}

export function scoreFindings(checks: CheckResult[]): AuditFindings {
  const categories = AUDIT_CATEGORIES.map((category) => categoryScore(category, checks));
  // The overall score is made from the category scores as shown, so a reader can redo the sum.
  const scored = categories.filter((item): item is CategoryScore & { score: number } => item.score !== undefined);
  const overall = weightedMean(
    scored,
    (item) => item.score,
    (item) => CATEGORY_WEIGHTS[item.category],
  );
  return { checks, categories, overall: overall === undefined ? undefined : Math.round(overall) };
}
