/**
 * The report a requester reads, made from a run's findings and the owner's draft (issue 22): hidden checks
 * left out and the scores made again without them (so every number shown can be traced to a check shown),
 * the owner's note on each check, and the agency's offer for what needs fixing. Pure.
 */
import type { ReportDraft } from '../../../shared/schemas/audit-report';
import { CHECK_STATUS_ORDER, type AuditFindings, type CheckResult, type FixTopic } from '../site-audit/findings';
import { CATEGORY_WEIGHTS, scoreFindings } from '../site-audit/scoring';
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
  /** Failed, then needing attention; the heaviest category first within each. */
  toFix: ReportCheck[];
  working: ReportCheck[];
  notChecked: ReportCheck[];
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
    toFix: [...of('fail'), ...of('warn')],
    working: of('pass'),
    notChecked: of('skipped'),
  };
}
