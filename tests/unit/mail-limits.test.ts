/** The rules that keep the site's mail from being turned against strangers (src/shared/mail-limits.ts, decision 057). */
import { describe, expect, it } from 'vitest';
import { automaticMailValues, noticeRoute, roomIn, UNCONFIRMED_PERSON_VALUES } from '../../src/shared/mail-limits';
import { resumeStepOf, RESUME_GRACE_MS, SEQUENCE_PLACEHOLDERS } from '../../src/shared/schemas/lead-sequences';
import { cleanName } from '../../src/shared/text-controls';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const now = new Date('2026-05-04T12:00:00Z');
const ago = (ms: number) => new Date(now.getTime() - ms);

describe('automatic mail to an address nobody confirmed', () => {
  const typed = { name: 'Your account is locked - verify at https://evil.example', first_name: 'Your', business: 'Verify now', booking_link: 'https://cal.example', site_name: 'Autoflow' };

  it('uses none of the person’s own words until the address is confirmed; the site’s own values stay', () => {
    expect(automaticMailValues(typed, false)).toEqual({ ...typed, name: 'there', first_name: 'there', business: 'your business' });
    expect(automaticMailValues(typed, true)).toBe(typed);
  });

  it('the sequence editor names what each person placeholder says meanwhile', () => {
    expect(SEQUENCE_PLACEHOLDERS.first_name).toContain(`“${UNCONFIRMED_PERSON_VALUES.first_name}”`);
    expect(SEQUENCE_PLACEHOLDERS.business).toContain(`“${UNCONFIRMED_PERSON_VALUES.business}”`);
  });
});

describe('a cap per window', () => {
  it('has room below the limit, counting only what falls in the window', () => {
    expect(roomIn([], 3, now, DAY)).toEqual({ ok: true });
    expect(roomIn([ago(HOUR), ago(2 * HOUR), ago(DAY + 1)], 3, now, DAY)).toEqual({ ok: true });
  });

  it('at the limit, frees when the oldest one that counts leaves the window (in any order given)', () => {
    expect(roomIn([ago(HOUR), ago(5 * HOUR), ago(3 * HOUR)], 3, now, DAY)).toEqual({ ok: false, freesAt: new Date(ago(5 * HOUR).getTime() + DAY) });
    // Over it (mail sent before the limit was lowered): as many have to leave as it is over.
    expect(roomIn([ago(HOUR), ago(2 * HOUR), ago(3 * HOUR), ago(4 * HOUR)], 3, now, DAY)).toEqual({ ok: false, freesAt: new Date(ago(3 * HOUR).getTime() + DAY) });
  });
});

describe('an admin’s lead notices', () => {
  it('one by one below the hour’s limit', () => {
    expect(noticeRoute([ago(10 * 60_000)], 5, false, now)).toEqual({ send: true });
  });

  it('past it, into the digest that goes when the hour’s notices have left the window', () => {
    const sent = [1, 2, 3, 4, 5].map((m) => ago(m * 60_000));
    expect(noticeRoute(sent, 5, false, now)).toEqual({ send: false, digestAt: new Date(ago(5 * 60_000).getTime() + HOUR) });
  });

  it('while a digest waits, every lead joins it, even when the hour has room again', () => {
    expect(noticeRoute([], 5, true, now)).toEqual({ send: false, digestAt: now });
  });
});

describe('a sequence resumed after a cancelled call', () => {
  const steps = [{ delayDays: 0 }, { delayDays: 2 }, { delayDays: 5 }];
  const enrolledAt = new Date('2026-05-01T09:00:00Z');
  const at = (days: number) => new Date(enrolledAt.getTime() + days * DAY);

  it('goes on with the step it waited for while that is at most a day late', () => {
    expect(resumeStepOf(steps, 1, enrolledAt, at(1))).toBe(1);
    expect(resumeStepOf(steps, 1, enrolledAt, new Date(at(2).getTime() + RESUME_GRACE_MS - 1))).toBe(1);
  });

  it('passes over the steps more than a day late, and gives up when none is left in the schedule', () => {
    expect(resumeStepOf(steps, 1, enrolledAt, new Date(at(2).getTime() + RESUME_GRACE_MS))).toBe(2);
    expect(resumeStepOf(steps, 0, enrolledAt, at(4))).toBe(2);
    expect(resumeStepOf(steps, 1, enrolledAt, at(6))).toBeUndefined();
    expect(resumeStepOf(steps, 3, enrolledAt, at(0))).toBeUndefined();
  });
});

describe('a name kept as one clean line', () => {
  it('turns line breaks, controls and text-direction characters into single spaces, trimmed and cut', () => {
    expect(cleanName(' Ada\r\nBcc: x@evil.example\u202E\t<b>Lovelace</b>\u0000 ', 200)).toBe('Ada Bcc: x@evil.example <b>Lovelace</b>');
    expect(cleanName('José 🚀 Núñez', 6)).toBe('José 🚀');
    expect(cleanName('\n\t', 10)).toBe('');
  });
});
