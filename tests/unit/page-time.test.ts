/**
 * Members' page-time rules (src/shared/page-time.ts) with a fake clock: every timing rule of the seed —
 * skip ≤ 1000 ms, the 30 s save only when MORE than 30 s elapsed, route change, hidden, unload, hidden time
 * never counted — and the server's checks and cap.
 */
import { describe, expect, it } from 'vitest';
import {
  capDuration,
  CLOCK_SKEW_MS,
  createPageTimeTracker,
  isPageTimePath,
  MAX_DURATION_MS,
  MIN_DURATION_MS,
  PERIODIC_SAVE_MS,
  type PageTimeTrackerOptions,
} from '../../src/shared/page-time';
import { pageTimeRecordSchema } from '../../src/shared/page-time-schema';

const T0 = Date.UTC(2026, 10, 25, 9, 0, 0);

function fakeClock(start = T0) {
  let t = start;
  return { now: () => t, advance: (ms: number) => (t += ms), at: () => t };
}

function setup(over: Partial<PageTimeTrackerOptions> = {}) {
  const clock = fakeClock();
  const tracker = createPageTimeTracker({ now: clock.now, userId: 'u1', sessionId: 'tab-session-1', pagePath: '/services', ...over });
  return { clock, tracker };
}

describe('page-time tracker: the seed’s timing rules', () => {
  it('the constants are the seed’s', () => {
    expect(MIN_DURATION_MS).toBe(1000);
    expect(PERIODIC_SAVE_MS).toBe(30_000);
  });

  it('skips a stretch of exactly 1000 ms and sends one of 1001 ms', () => {
    const a = setup();
    a.clock.advance(1000);
    expect(a.tracker.leave()).toBeUndefined();
    const b = setup();
    b.clock.advance(1001);
    expect(b.tracker.leave()).toEqual({ userId: 'u1', pagePath: '/services', duration: 1001, timestamp: T0, sessionId: 'tab-session-1' });
  });

  it('the periodic save does not save at exactly 30 s, saves at 30.001 s and starts a new stretch', () => {
    const { clock, tracker } = setup();
    clock.advance(30_000);
    expect(tracker.tick()).toBeUndefined();
    clock.advance(1);
    expect(tracker.tick()).toMatchObject({ duration: 30_001, timestamp: T0 });
    // The next stretch starts at the save: leaving 5 s later sends those 5 s only.
    clock.advance(5000);
    expect(tracker.leave()).toMatchObject({ duration: 5000, timestamp: T0 + 30_001 });
  });

  it('ticks every 30 s save every other tick when the stretch began with the timer (more than, not at least)', () => {
    const { clock, tracker } = setup();
    const saved = [];
    for (let i = 0; i < 4; i += 1) {
      clock.advance(PERIODIC_SAVE_MS);
      saved.push(tracker.tick()?.duration);
    }
    expect(saved).toEqual([undefined, 60_000, undefined, 60_000]);
  });

  it('a route change sends the old page’s stretch and times the new page from then', () => {
    const { clock, tracker } = setup();
    clock.advance(4000);
    expect(tracker.navigate('/blog')).toMatchObject({ pagePath: '/services', duration: 4000, timestamp: T0 });
    clock.advance(2500);
    expect(tracker.leave()).toMatchObject({ pagePath: '/blog', duration: 2500, timestamp: T0 + 4000 });
  });

  it('a route change after 1000 ms or less sends nothing, and the new page still starts then', () => {
    const { clock, tracker } = setup();
    clock.advance(1000);
    expect(tracker.navigate('/blog')).toBeUndefined();
    clock.advance(1500);
    expect(tracker.leave()).toMatchObject({ pagePath: '/blog', duration: 1500, timestamp: T0 + 1000 });
  });

  it('hidden sends the stretch and stops the clock; the hidden time is not counted after visible again', () => {
    const { clock, tracker } = setup();
    clock.advance(3000);
    expect(tracker.hide()).toMatchObject({ duration: 3000, timestamp: T0 });
    clock.advance(10 * 60_000); // ten minutes in another tab
    expect(tracker.tick()).toBeUndefined();
    expect(tracker.leave()).toBeUndefined();
    tracker.show();
    clock.advance(2000);
    expect(tracker.leave()).toMatchObject({ duration: 2000, timestamp: T0 + 3000 + 600_000 });
  });

  it('a hidden tab’s periodic save counts only visible time', () => {
    const { clock, tracker } = setup();
    clock.advance(20_000);
    tracker.hide();
    clock.advance(40_000);
    tracker.show();
    clock.advance(PERIODIC_SAVE_MS);
    expect(tracker.tick()).toBeUndefined(); // exactly 30 s visible since the return
    clock.advance(1);
    expect(tracker.tick()).toMatchObject({ duration: 30_001, timestamp: T0 + 60_000 });
  });

  it('unload (pagehide) sends the stretch once; hidden followed by pagehide does not send twice', () => {
    const { clock, tracker } = setup();
    clock.advance(7000);
    expect(tracker.hide()).toMatchObject({ duration: 7000 });
    expect(tracker.leave()).toBeUndefined();
    const other = setup();
    other.clock.advance(7000);
    expect(other.tracker.leave()).toMatchObject({ duration: 7000 });
    expect(other.tracker.hide()).toBeUndefined();
  });

  it('show while visible does not restart the stretch', () => {
    const { clock, tracker } = setup();
    clock.advance(5000);
    tracker.show();
    clock.advance(1000);
    expect(tracker.leave()).toMatchObject({ duration: 6000, timestamp: T0 });
  });

  it('a page restored from the back/forward cache times a new stretch after leave', () => {
    const { clock, tracker } = setup();
    clock.advance(2000);
    tracker.leave();
    clock.advance(60_000);
    tracker.show();
    clock.advance(1500);
    expect(tracker.leave()).toMatchObject({ duration: 1500, timestamp: T0 + 62_000 });
  });

  it('starts at the navigation’s start when given, and not at all in a background tab until shown', () => {
    const { clock, tracker } = setup({ startedAt: T0 - 800 });
    clock.advance(400);
    expect(tracker.leave()).toMatchObject({ duration: 1200, timestamp: T0 - 800 });
    const bg = setup({ hidden: true });
    bg.clock.advance(5000);
    expect(bg.tracker.tick()).toBeUndefined();
    expect(bg.tracker.navigate('/blog')).toBeUndefined();
    bg.tracker.show();
    bg.clock.advance(1200);
    expect(bg.tracker.leave()).toMatchObject({ pagePath: '/blog', duration: 1200 });
  });

  it('durations and timestamps are whole milliseconds even from a fractional clock', () => {
    const { clock, tracker } = setup({ startedAt: T0 + 0.4 });
    clock.advance(1500.7);
    const record = tracker.leave()!;
    expect(Number.isInteger(record.duration) && Number.isInteger(record.timestamp)).toBe(true);
  });
});

describe('page-time: the server’s cap', () => {
  const now = T0 + 3_600_000;

  it('keeps a duration within the real elapsed time', () => {
    expect(capDuration(5000, now - 5000, now)).toBe(5000);
  });

  it('cuts a duration to the time elapsed since the stretch began, plus the clock-skew allowance', () => {
    expect(capDuration(600_000, now - 10_000, now)).toBe(10_000 + CLOCK_SKEW_MS);
    expect(capDuration(600_000, now, now)).toBe(CLOCK_SKEW_MS);
  });

  it('never more than 24 h, never negative', () => {
    expect(capDuration(3 * MAX_DURATION_MS, now - 3 * MAX_DURATION_MS, now)).toBe(MAX_DURATION_MS);
    expect(capDuration(5000, now + 2 * CLOCK_SKEW_MS, now)).toBe(0);
  });
});

describe('page-time: what a record may say', () => {
  const now = T0;
  const record = { userId: 'u1', pagePath: '/services/follow-up', duration: 4000, timestamp: now - 4000, sessionId: 'abcDEF12-_x' };
  const parse = (over: Record<string, unknown>) => pageTimeRecordSchema(now).safeParse({ ...record, ...over });
  const message = (over: Record<string, unknown>) => {
    const result = parse(over);
    return result.success ? undefined : result.error.issues[0]?.message;
  };

  it('accepts a well-formed record', () => {
    expect(parse({}).success).toBe(true);
    expect(parse({ pagePath: '/' }).success).toBe(true);
    expect(parse({ pagePath: '/caf%C3%A9/a-b_c.d~e' }).success).toBe(true);
  });

  it('refuses unknown fields by name', () => {
    expect(message({ admin: true })).toBe('Unknown field: admin');
  });

  it('refuses durations that are not integers over 1000 ms', () => {
    expect(message({ duration: 1000 })).toMatch(/more than 1000 ms/);
    expect(message({ duration: -5000 })).toMatch(/more than 1000 ms/);
    expect(message({ duration: 1500.5 })).toMatch(/whole number/);
    expect(message({ duration: '5000' })).toMatch(/number of milliseconds/);
    expect(message({ duration: 1e12 })).toMatch(/too large/);
    expect(parse({ duration: Number.NaN }).success).toBe(false);
    expect(parse({ duration: 1001 }).success).toBe(true);
  });

  it('refuses paths that are not site paths', () => {
    for (const pagePath of ['services', '//evil.example/x', '/<script>alert(1)</script>', '/a"b', "/a'b", '/a`b', '/a b', '/a\tb', '/a\u0007b', '/a\\b', '', `/${'a'.repeat(512)}`]) {
      expect(isPageTimePath(pagePath), pagePath).toBe(false);
      expect(parse({ pagePath }).success, pagePath).toBe(false);
    }
    expect(isPageTimePath(`/${'a'.repeat(511)}`)).toBe(true);
  });

  it('refuses timestamps in the future (beyond the skew allowance), too old, or not integers', () => {
    expect(parse({ timestamp: now + CLOCK_SKEW_MS }).success).toBe(true);
    expect(message({ timestamp: now + CLOCK_SKEW_MS + 1 })).toBe('timestamp must not be in the future');
    expect(message({ timestamp: now - 3 * MAX_DURATION_MS })).toBe('timestamp is too long ago');
    expect(message({ timestamp: 'yesterday' })).toMatch(/milliseconds since 1970/);
    expect(message({ timestamp: now - 0.5 })).toMatch(/whole number/);
  });

  it('refuses session ids that are not short tokens, and missing fields', () => {
    expect(parse({ sessionId: 'short' }).success).toBe(false);
    expect(parse({ sessionId: 'x'.repeat(65) }).success).toBe(false);
    expect(parse({ sessionId: '<b>bold</b>xx' }).success).toBe(false);
    expect(pageTimeRecordSchema(now).safeParse({ pagePath: '/' }).success).toBe(false);
    expect(pageTimeRecordSchema(now).safeParse(null).success).toBe(false);
  });
});
