import { describe, expect, it } from 'vitest';
import { followUpDaySchema, LEAD_STAGE_LABELS, LEAD_STAGES, leadNoteSchema, leadStageBadgeClass, leadStageLabel } from '../../src/shared/schemas/lead-work';

describe('lead stages', () => {
  it('are the issue’s five, in order, with their words', () => {
    expect(LEAD_STAGES.map((s) => LEAD_STAGE_LABELS[s])).toEqual(['New', 'Contacted', 'Call booked', 'Client', 'Not a fit']);
    expect(leadStageLabel('unknown')).toBe('unknown');
    expect(leadStageBadgeClass('unknown')).toBe(leadStageBadgeClass('new'));
  });
});

describe('the follow-up day', () => {
  it('is a real calendar day or null', () => {
    expect(followUpDaySchema.parse('2026-12-01')).toBe('2026-12-01');
    expect(followUpDaySchema.parse(null)).toBeNull();
    for (const bad of ['2026-02-29', '2026-13-01', '2026-1-1', ' 2026-12-01', '', 'today']) {
      expect(followUpDaySchema.safeParse(bad).error?.issues[0]?.message, bad).toBe('Enter a date such as 2026-12-01');
    }
    expect(followUpDaySchema.parse('2028-02-29')).toBe('2028-02-29');
  });
});

describe('a note', () => {
  it('is trimmed, not empty, at most 5000 characters', () => {
    expect(leadNoteSchema.parse({ body: '  Called.  ' }).body).toBe('Called.');
    expect(leadNoteSchema.safeParse({ body: ' \n ' }).error?.issues[0]?.message).toBe('Note must not be empty');
    expect(leadNoteSchema.safeParse({ body: 'x'.repeat(5001) }).error?.issues[0]?.message).toBe('Note must be at most 5000 characters');
  });
});
