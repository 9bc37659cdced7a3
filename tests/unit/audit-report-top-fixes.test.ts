/**
 * The report leads with the fixes that would bring the most clients (issue 38): ranked by what fixing each
 * adds to the overall score, and the owner's summary starts from them.
 */
import { describe, expect, it } from 'vitest';
import { fixGain, reportDocument, suggestedSummary, topFixes } from '../../src/server/modules/audit-report/document';
import type { CheckResult } from '../../src/server/modules/site-audit/findings';
import { scoreFindings } from '../../src/server/modules/site-audit/scoring';

const check = (id: string, status: CheckResult['status'], category: CheckResult['category'], fix = `Fix ${id}. Then more.`): CheckResult => ({
  id,
  category,
  title: `Title of ${id}`,
  status,
  evidence: [],
  why: '',
  fix,
});

describe('fixGain', () => {
  it('is what the overall score would gain: fixing the check and scoring again adds that, within rounding', () => {
    const checks = [check('contact-form', 'fail', 'leads'), check('booking-link', 'warn', 'leads'), check('https', 'fail', 'security'), check('title', 'pass', 'search')];
    for (const one of checks.filter((c) => c.status !== 'pass')) {
      const fixed = checks.map((c) => (c === one ? { ...c, status: 'pass' as const } : c));
      // Within rounding: the category scores are rounded, then the overall made from them is rounded again.
      expect(Math.abs(scoreFindings(fixed).overall! - scoreFindings(checks).overall! - fixGain(one, checks))).toBeLessThanOrEqual(1.5);
    }
  });

  it('counts a failure twice a warning, a heavier check more, and nothing for a pass or a skipped check', () => {
    const checks = [check('contact-form', 'fail', 'leads'), check('lead-magnet', 'fail', 'leads'), check('email-link', 'warn', 'leads'), check('title', 'pass', 'search'), check('lighthouse', 'skipped', 'speed')];
    const gain = (id: string) => fixGain(checks.find((c) => c.id === id)!, checks);
    expect(gain('lead-magnet')).toBeCloseTo(2 * gain('email-link'));
    expect(gain('contact-form')).toBeCloseTo(2 * gain('lead-magnet')); // contact-form weighs 2
    expect(gain('title')).toBe(0);
    expect(gain('lighthouse')).toBe(0);
  });
});

describe('topFixes', () => {
  it('puts a leads failure before a links failure, and keeps at most three', () => {
    const checks = [
      check('broken-links', 'fail', 'links'),
      check('https', 'fail', 'security'),
      check('contact-form', 'fail', 'leads'),
      check('meta-description', 'warn', 'search'),
      check('title', 'fail', 'search'),
      check('viewport', 'pass', 'mobile'),
    ];
    const top = topFixes(checks).map((c) => c.id);
    expect(top).toHaveLength(3);
    expect(top[0]).toBe('contact-form');
    expect(top).not.toContain('broken-links');
  });

  it('is empty when nothing needs fixing', () => {
    expect(topFixes([check('https', 'pass', 'security'), check('lighthouse', 'skipped', 'speed')])).toEqual([]);
  });

  it('leads the report, from the checks the owner leaves in', () => {
    const findings = scoreFindings([check('contact-form', 'fail', 'leads'), check('https', 'fail', 'security'), check('title', 'warn', 'search')]);
    expect(reportDocument(findings, { summary: '', notes: {}, hidden: [] }, {}).top.map((c) => c.id)).toEqual(['contact-form', 'https', 'title']);
    expect(reportDocument(findings, { summary: '', notes: {}, hidden: ['contact-form'] }, {}).top.map((c) => c.id)).toEqual(['https', 'title']);
  });
});

describe('suggestedSummary', () => {
  it('gives the score and the top three fixes by their titles (the report sets each out in full below it)', () => {
    const findings = scoreFindings([check('contact-form', 'fail', 'leads'), check('https', 'fail', 'security'), check('title', 'warn', 'search'), check('broken-links', 'fail', 'links')]);
    const text = suggestedSummary(findings, 'Bright Smiles');
    expect(text).toContain(`Bright Smiles's website scored ${findings.overall} out of 100`);
    expect(text).toContain('\n1. Title of contact-form\n');
    expect(text).toContain('\n3. Title of title\n');
    expect(text).not.toContain('Fix ');
    expect(text).not.toContain('broken-links');
  });

  it('says there is nothing pressing when every check passes', () => {
    expect(suggestedSummary(scoreFindings([check('https', 'pass', 'security')]), 'Acme')).toMatch(/nothing pressing/);
  });
});
