/**
 * The report a requester reads, made from a run's findings and the owner's draft (issue 22): hidden checks
 * left out and the scores made again without them (so every number shown can be traced to a check shown),
 * the owner's note on each check, and the agency's offer for what needs fixing. Pure.
 */
import type { ReportDraft } from '../../../shared/schemas/audit-report';
import { CHECK_STATUS_ORDER, type AuditFindings, type CheckResult, type FixTopic } from '../site-audit/findings';
import { CATEGORY_WEIGHTS, CHECK_WEIGHTS, STATUS_POINTS, scoreFindings } from '../site-audit/scoring';
import type { Offer } from './offers';

export interface ReportCheck extends CheckResult {
  /** The owner's note on this check. */
  note?: string | undefined;
  /** The agency's service or package that fixes it (problems only). */
  offer?: Offer | undefined;
}

export interface ReportDocument {
  summary: string;
  overall: number | undefined;
  categories: AuditFindings['categories'];
  /** The fixes that would bring the most clients, most first (at most TOP_FIXES; see topFixes). */
  top: ReportCheck[];
  /** Failed, then needing attention; the heaviest category first within each (the top ones included). */
  toFix: ReportCheck[];
  working: ReportCheck[];
  notChecked: ReportCheck[];
}

/** How many fixes the report leads with. */
export const TOP_FIXES = 3;

/**
 * How many points of the overall score fixing a check would bring: its category's share of the overall
 * weight, times the check's share of its category, times what it lacks (all of a failure, half of a
 * warning). The category weights say what brings clients (leads first), so this ranks by both.
 */
export function fixGain(check: CheckResult, checks: readonly CheckResult[]): number {
  if (check.status !== 'fail' && check.status !== 'warn') return 0;
  const scored = checks.filter((c) => c.status !== 'skipped');
  const categories = new Set(scored.map((c) => c.category));
  const totalWeight = [...categories].reduce((sum, category) => sum + CATEGORY_WEIGHTS[category], 0);
  const inCategory = scored.filter((c) => c.category === check.category);
  const categoryWeight = inCategory.reduce((sum, c) => sum + (CHECK_WEIGHTS[c.id] ?? 1), 0);
  const lacking = 1 - STATUS_POINTS[check.status];
  return (100 * CATEGORY_WEIGHTS[check.category] * (CHECK_WEIGHTS[check.id] ?? 1) * lacking) / (totalWeight * categoryWeight);
}

/** The `count` fixes that would raise the score most (the heaviest category first on a tie). */
export function topFixes<T extends CheckResult>(checks: readonly T[], count = TOP_FIXES): T[] {
  return checks
    .filter((c) => c.status === 'fail' || c.status === 'warn')
    .map((check) => ({ check, gain: fixGain(check, checks) }))
    .sort((a, b) => b.gain - a.gain || worstFirst(a.check, b.check))
    .slice(0, count)
    .map(({ check }) => check);
}

/**
 * A summary for the owner to start from, written from the top fixes: the score, then each fix by its
 * check's title. A suggestion only: the owner edits it, and nothing is sent without their "Send".
 */
export function suggestedSummary(findings: AuditFindings, businessName: string): string {
  const top = topFixes(findings.checks);
  const score = findings.overall === undefined ? '' : `${businessName}'s website scored ${findings.overall} out of 100 in our check. `;
  if (top.length === 0) return `${score}We found nothing pressing to fix: the site already does what brings clients.`.trim();
  // Titles only: the report sets out each fix in full right below the summary.
  const lines = top.map((check, i) => `${i + 1}. ${check.title}`);
  return `${score}The ${top.length === 1 ? 'change' : `${top.length} changes`} that would bring you the most clients:\n${lines.join('\n')}\n\nWe would be glad to go through them with you on a short call.`;
}

/** The report's order: failed, then needing attention, then passed, then not checked; the heaviest category first within each. */
export const worstFirst = (a: CheckResult, b: CheckResult) => CHECK_STATUS_ORDER[a.status] - CHECK_STATUS_ORDER[b.status] || CATEGORY_WEIGHTS[b.category] - CATEGORY_WEIGHTS[a.category];

export function reportDocument(findings: AuditFindings, draft: ReportDraft, offers: Partial<Record<FixTopic, Offer>>): ReportDocument {
  const hidden = new Set(draft.hidden);
  const shown = findings.checks.filter((c) => !hidden.has(c.id));
  const scored = scoreFindings(shown);
  const withExtras = (check: CheckResult): ReportCheck => ({
    ...check,
    note: draft.notes[check.id] || undefined,
    offer: check.status === 'fail' || check.status === 'warn' ? (check.topic && offers[check.topic]) || undefined : undefined,
  });
  const of = (status: CheckResult['status']) => shown.filter((c) => c.status === status).sort(worstFirst).map(withExtras);
  return {
    summary: draft.summary,
    overall: scored.overall,
    categories: scored.categories,
    top: topFixes(shown).map(withExtras),
    toFix: [...of('fail'), ...of('warn')],
    working: of('pass'),
    notChecked: of('skipped'),
  };
}
