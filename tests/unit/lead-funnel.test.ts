/** The lead funnel's pure rules (src/shared/lead-funnel.ts): steps with conversions, groups with the rest summed. */
import { describe, expect, it } from 'vitest';
import { funnelGroups, funnelSteps, funnelTotal } from '../../src/shared/lead-funnel';
import { OTHER } from '../../src/shared/utm';

const counts = (leads: number, audit = 0, report = 0, call = 0, client = 0) => ({ leads, audit, report, call, client });

describe('funnelSteps', () => {
  it('starts at the unique visitors and gives each step its conversion from the one before', () => {
    const steps = funnelSteps(400, counts(20, 10, 5, 2, 1));
    expect(steps.map((s) => [s.label, s.people, s.fromPrevious])).toEqual([
      ['Unique visitors', 400, null],
      ['Leads', 20, 0.05],
      ['Audit requested', 10, 0.5],
      ['Report opened', 5, 0.5],
      ['Call booked', 2, 0.4],
      ['Client', 1, 0.5],
    ]);
  });

  it('has no conversion after a step nobody reached (never a division by zero)', () => {
    expect(funnelSteps(0, counts(0)).map((s) => s.fromPrevious)).toEqual([null, null, null, null, null, null]);
  });
});

describe('funnelGroups', () => {
  it('sums rows of one key, sorts by leads then name, keeps the top ones and sums the rest (and any OTHER) into one OTHER row', () => {
    const rows = [
      { source: 'b', ...counts(2, 1) },
      { source: 'a', ...counts(2) },
      { source: 'c', ...counts(5, 3, 1) },
      { source: 'b', ...counts(1, 1, 1, 1, 1) },
      { source: OTHER, ...counts(1) },
      { source: 'd', ...counts(1) },
    ];
    const groups = funnelGroups(rows, (r) => r.source, 2);
    expect(groups).toEqual([
      { key: 'c', counts: counts(5, 3, 1) },
      { key: 'b', counts: counts(3, 2, 1, 1, 1) },
      { key: OTHER, counts: counts(4) },
    ]);
    expect(funnelTotal(groups.map((g) => g.counts))).toEqual(funnelTotal(rows));
    expect(funnelGroups(rows.slice(0, 2), (r) => r.source)).toEqual([
      { key: 'a', counts: counts(2) },
      { key: 'b', counts: counts(2, 1) },
    ]);
  });
});
