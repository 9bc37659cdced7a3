/**
 * What the checks conclude (issue 22): one CheckResult per check, grouped in categories with a 0–100 score
 * each and an overall score (weights in scoring.ts and docs/decisions). Plain data, stored with the run.
 */

export const AUDIT_CATEGORIES = ['security', 'speed', 'search', 'mobile', 'leads', 'links'] as const;
export type AuditCategory = (typeof AUDIT_CATEGORIES)[number];

export const AUDIT_CATEGORY_LABELS: Record<AuditCategory, string> = {
  security: 'Reachable and secure',
  speed: 'Speed',
  search: 'Found in search',
  mobile: 'Mobile',
  leads: 'Turns visitors into leads',
  links: 'Broken links',
};

/** skipped: could not be judged here (no Chromium, the page did not answer); left out of the scores. */
export type CheckStatus = 'pass' | 'warn' | 'fail' | 'skipped';

/** Worst first: what to fix comes before what is fine. */
export const CHECK_STATUS_ORDER: Record<CheckStatus, number> = { fail: 0, warn: 1, pass: 2, skipped: 3 };

/**
 * What the agency sells that fixes a failed check; the report names the admin's own service or package
 * for the topic (never hard-coded text).
 */
export const FIX_TOPICS = ['lead-capture', 'booking', 'chat', 'reviews', 'newsletter', 'website-speed', 'seo', 'website-care'] as const;
export type FixTopic = (typeof FIX_TOPICS)[number];

export interface CheckResult {
  /** Stable id ('https', 'title-length', 'booking-link' …): notes and hiding refer to it across runs. */
  id: string;
  category: AuditCategory;
  title: string;
  status: CheckStatus;
  /** What was seen, as text ("Title: 'Welcome' (7 characters)", "No <form> with an email field on 3 pages"). */
  evidence: string[];
  /** Why it matters, for the site's owner, one or two sentences. */
  why: string;
  /** How to fix it, one or two sentences. */
  fix: string;
  /** The agency's offer that fixes it, when there is one. */
  topic?: FixTopic | undefined;
  /** Numbers measured for this check, each rated (Lighthouse's Core Web Vitals); absent on runs stored before they were kept. */
  measures?: Measure[] | undefined;
}

/** Which measure: Largest/First Contentful Paint, Cumulative Layout Shift, Total Blocking Time, Interaction to Next Paint, Speed Index. */
export type MeasureId = 'lcp' | 'fcp' | 'cls' | 'tbt' | 'inp' | 'si';
/** PageSpeed Insights' three bands (web-vitals.ts). */
export type MeasureRating = 'good' | 'needs-improvement' | 'poor';

/** One measured number, rated by PageSpeed Insights' published thresholds (web-vitals.ts). */
export interface Measure {
  id: MeasureId;
  /** In plain words: 'Largest content shown'. */
  label: string;
  /** The value as shown and rated: in ms for unit 'ms' (rounded as displayed), unitless for CLS (two decimals). */
  value: number;
  unit: 'ms' | '';
  /** The value for reading: '26.9 s', '420 ms', '0.12'. */
  display: string;
  rating: MeasureRating;
}

export interface CategoryScore {
  category: AuditCategory;
  /** 0–100; undefined when every check of the category was skipped. */
  score: number | undefined;
}

export interface AuditFindings {
  checks: CheckResult[];
  categories: CategoryScore[];
  /** 0–100, the weighted mean of the scored categories. */
  overall: number | undefined;
}
