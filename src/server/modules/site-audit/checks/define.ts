/**
 * How a check is written: fixed texts (id, title, why, fix, topic) plus a `judge` that returns the status and
 * what was seen. `runCategory` turns the definitions into CheckResults, skipping the ones that need the home
 * page when it did not answer, so no check repeats that rule.
 */
import type { AuditCategory, CheckResult, CheckStatus, FixTopic, Measure } from '../findings';
import { cutText } from '../text';
import type { AuditContext, HomeContext, ParsedPage } from './context';

export interface Verdict {
  status: CheckStatus;
  evidence: string[];
  /** Replaces the definition's fix when this outcome needs a different one. */
  fix?: string | undefined;
  /** Numbers measured, each rated (Core Web Vitals); passed on to the CheckResult. */
  measures?: Measure[] | undefined;
}

interface CheckTexts {
  id: string;
  title: string;
  why: string;
  fix: string;
  /** What the agency sells that fixes it; only attached to a warning or a failure. */
  topic?: FixTopic | undefined;
}

/** Judged from the home page (and the other pages): skipped when the home page did not answer with HTML. */
export interface PageCheck extends CheckTexts {
  judge(ctx: HomeContext): Verdict;
}

/** Judged from the rest of the snapshot, whether or not the home page answered. */
export interface SiteCheck extends CheckTexts {
  judgesWithoutHome: true;
  judge(ctx: AuditContext): Verdict;
}

export type CheckDefinition = PageCheck | SiteCheck;

export const pass = (...evidence: string[]): Verdict => ({ status: 'pass', evidence });
export const warn = (...evidence: string[]): Verdict => ({ status: 'warn', evidence });
export const fail = (...evidence: string[]): Verdict => ({ status: 'fail', evidence });
export const skip = (...evidence: string[]): Verdict => ({ status: 'skipped', evidence });

function verdictOf(definition: CheckDefinition, ctx: AuditContext): Verdict {
  if ('judgesWithoutHome' in definition) return definition.judge(ctx);
  if (!ctx.home) return skip(ctx.homeProblem ?? 'The home page could not be read.');
  return definition.judge(ctx as HomeContext);
}

export function runCategory(category: AuditCategory, definitions: readonly CheckDefinition[], ctx: AuditContext): CheckResult[] {
  return definitions.map((definition) => {
    let verdict: Verdict;
    try {
      verdict = verdictOf(definition, ctx);
    } catch (error) {
      // One check tripping over an odd page must not cost the owner the rest of the report.
      verdict = skip(`This check stopped on something unexpected: ${cutText(error instanceof Error ? error.message : String(error))}`);
    }
    const needsFixing = verdict.status === 'warn' || verdict.status === 'fail';
    return {
      id: definition.id,
      category,
      title: definition.title,
      status: verdict.status,
      evidence: verdict.evidence,
      why: definition.why,
      fix: verdict.fix ?? definition.fix,
      ...(needsFixing && definition.topic ? { topic: definition.topic } : {}),
      ...(verdict.measures && verdict.measures.length > 0 ? { measures: verdict.measures } : {}),
    };
  });
}

/** A per-page computation done once per page and audit (pages are parsed once and shared by the checks). */
export function perPage<T>(compute: (page: ParsedPage) => T): (page: ParsedPage) => T {
  const cache = new WeakMap<ParsedPage, T>();
  return (page) => {
    if (!cache.has(page)) cache.set(page, compute(page));
    return cache.get(page) as T;
  };
}

/** The first page (home first) where `find` finds something, with what it found. */
export function findOnPages<T>(pages: readonly ParsedPage[], find: (page: ParsedPage) => T | undefined): { page: ParsedPage; found: T } | undefined {
  for (const page of pages) {
    const found = find(page);
    if (found !== undefined) return { page, found };
  }
  return undefined;
}

/** "on the home page" or "on /contact". */
export function onPage(page: ParsedPage, ctx: AuditContext): string {
  return page === ctx.home ? 'on the home page' : `on ${page.label}`;
}

/** A check judged from the home page (contextual typing for `judge`). */
export const pageCheck = (definition: PageCheck): CheckDefinition => definition;

/** A check judged from the rest of the snapshot, run even when the home page did not answer. */
export const siteCheck = (definition: Omit<SiteCheck, 'judgesWithoutHome'>): CheckDefinition => ({ ...definition, judgesWithoutHome: true });
