/**
 * Times for tests of mail that waits out the quiet hours (lead sequences, chat reply mails), so that they
 * pass at whatever hour the suite runs: the default quiet hours (20:00–08:00 in the site's zone, UTC here)
 * once failed every run started in the evening, and those started just before 20:00.
 */
import { outsideQuietHours } from '../../src/server/modules/lead-sequences/schedule';
import { DEFAULT_QUIET_HOURS, type QuietHours } from '../../src/shared/schemas/lead-sequences';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

/**
 * A minute past `days` after the enrolment; when that falls in the default quiet hours, a minute past their
 * end (never a minute past a moment just before they start, which would fall inside them).
 */
export function dayOf(enrolledAt: Date, days: number): Date {
  const moment = new Date(enrolledAt.getTime() + days * DAY + MINUTE);
  const allowed = outsideQuietHours(moment, DEFAULT_QUIET_HOURS, 'UTC');
  return allowed.getTime() === moment.getTime() ? moment : new Date(allowed.getTime() + MINUTE);
}

/** Quiet hours (UTC wall clock) that start six hours from `now` and last one: a test's minutes never meet them. */
export function quietHoursAwayFrom(now: Date): QuietHours {
  const wallClock = (at: Date) => at.toISOString().slice(11, 16);
  return { start: wallClock(new Date(now.getTime() + 6 * 60 * MINUTE)), end: wallClock(new Date(now.getTime() + 7 * 60 * MINUTE)) };
}
