import { describe, expect, it } from 'vitest';
import { CHECK_IDS } from '../../src/server/modules/site-audit/checks';
import { AUDIT_CATEGORIES, type AuditCategory, type CheckResult, type CheckStatus } from '../../src/server/modules/site-audit/findings';
import { CATEGORY_WEIGHTS, CHECK_WEIGHTS, scoreFindings } from '../../src/server/modules/site-audit/scoring';

let counter = 0;
/** A check result with an id of its own unless named (named ids may carry a weight). */
function check(category: AuditCategory, status: CheckStatus, id = `check-${++counter}`): CheckResult {
  return { id, category, title: id, status, evidence: ['seen'], why: 'why', fix: 'fix' };
}

const scoreOf = (findings: ReturnType<typeof scoreFindings>, category: AuditCategory) => findings.categories.find((item) => item.category === category)!.score;

describe('site audit scoring', () => {
  it('scores pass 1, warn 0.5, fail 0 and leaves skipped checks out', () => {
    const findings = scoreFindings([
      check('search', 'pass'),
      check('search', 'warn'),
      check('search', 'fail'),
      check('search', 'pass'),
      check('search', 'skipped'),
    ]);
    expect(scoreOf(findings, 'search')).toBe(63); // 2.5 of 4, rounded
  });

  it('counts the important checks more within their category', () => {
    expect(CHECK_WEIGHTS.https).toBe(2);
    expect(CHECK_WEIGHTS['contact-form']).toBe(2);
    const findings = scoreFindings([check('security', 'fail', 'https'), check('security', 'pass'), check('leads', 'pass', 'contact-form'), check('leads', 'fail')]);
    expect(scoreOf(findings, 'security')).toBe(33); // 1 of 3 weighted
    expect(scoreOf(findings, 'leads')).toBe(67); // 2 of 3 weighted
  });

  it('gives a category with only skipped checks no score, and leaves it out of the overall', () => {
    const findings = scoreFindings([check('speed', 'skipped'), check('leads', 'pass'), check('links', 'fail')]);
    expect(scoreOf(findings, 'speed')).toBeUndefined();
    expect(scoreOf(findings, 'mobile')).toBeUndefined();
    // leads 100 × 30 and links 0 × 5, renormalised over 35.
    expect(findings.overall).toBe(86);
  });

  it('weights the categories as published, towards leads', () => {
    expect(CATEGORY_WEIGHTS).toEqual({ leads: 30, speed: 20, search: 20, security: 15, mobile: 10, links: 5 });
    expect(Object.values(CATEGORY_WEIGHTS).reduce((sum, weight) => sum + weight, 0)).toBe(100);
    const onlyLeadsFail = scoreFindings(AUDIT_CATEGORIES.map((category) => check(category, category === 'leads' ? 'fail' : 'pass')));
    expect(onlyLeadsFail.overall).toBe(70);
    const onlyLinksFail = scoreFindings(AUDIT_CATEGORIES.map((category) => check(category, category === 'links' ? 'fail' : 'pass')));
    expect(onlyLinksFail.overall).toBe(95);
  });

  it('keeps every category in the fixed order and the checks as given', () => {
    const checks = [check('links', 'pass'), check('security', 'warn')];
    const findings = scoreFindings(checks);
    expect(findings.categories.map((item) => item.category)).toEqual([...AUDIT_CATEGORIES]);
    expect(findings.checks).toBe(checks);
  });

  it('has no score at all when nothing could be judged', () => {
    expect(scoreFindings([])).toEqual({ checks: [], categories: AUDIT_CATEGORIES.map((category) => ({ category, score: undefined })), overall: undefined });
  });

  it('weights only checks that exist', () => {
    for (const id of Object.keys(CHECK_WEIGHTS)) expect(CHECK_IDS).toContain(id);
  });
});
