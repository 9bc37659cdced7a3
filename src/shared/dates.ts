/**
 * Dates and times as people read them. Public pages show dates in UTC ("Nov 22, 2026"), so a cached page is
 * the same on every server. The admin shows every time in the site's time zone (decision 032: the zone the
 * chat's business hours are read in, UTC until the owner picks one) through `formatInZone`, and groups
 * days in it with `dayKeyIn` / `startOfDayIn`. Pure and the same on the server and in the browser, so an
 * island renders the same text on both sides. Formatters are built once per zone and style: constructing
 * Intl formatters is costly on hot pages.
 */
/** The zone of a site whose owner has not chosen one (decision 032). */
export const DEFAULT_TIME_ZONE = 'UTC';

const medium = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: 'UTC' });
const long = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' });

/** Public pages: "Nov 22, 2026" (UTC). */
export const formatDateMedium = (date: Date) => medium.format(date);
/** Public pages: "November 22, 2026" (UTC). */
export const formatDateLong = (date: Date) => long.format(date);

const h23 = { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' } as const;

/** How much of a moment a place shows; the examples are 2025-03-14T09:30:05Z in UTC. */
const STYLES = {
  /** "14 Mar 2025, 09:30:05": lists, logs, page headers. */
  'date-time': ['en-GB', { day: 'numeric', month: 'short', year: 'numeric', ...h23, second: '2-digit' }],
  /** "14 Mar, 09:30": a compact column (the chat inbox). */
  'day-time': ['en-GB', { day: 'numeric', month: 'short', ...h23 }],
  /** "09:30:05": under a day heading. */
  time: ['en-GB', { ...h23, second: '2-digit' }],
  /** "Thu, 3 Dec 2026, 10:00": a booked call. */
  appointment: ['en-GB', { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric', ...h23 }],
  /** "09:30": a message in a conversation. */
  'hour-minute': ['en-GB', h23],
  /** "Mar 14, 2025": when only the day matters. */
  date: ['en-US', { dateStyle: 'medium' }],
  /** "March 14, 2025". */
  'date-long': ['en-US', { dateStyle: 'long' }],
} as const satisfies Record<string, readonly [string, Intl.DateTimeFormatOptions]>;

export type TimeStyle = keyof typeof STYLES;

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(style: TimeStyle | 'wall-clock', timeZone: string): Intl.DateTimeFormat {
  const key = `${style} ${timeZone}`;
  let f = formatters.get(key);
  if (!f) {
    const [locale, options] = style === 'wall-clock' ? (['en-US', { year: 'numeric', month: 'numeric', day: 'numeric', ...h23, second: 'numeric' }] as const) : STYLES[style];
    try {
      f = new Intl.DateTimeFormat(locale, { ...options, timeZone });
    } catch {
      // The settings only store zones the runtime knew; one it no longer knows reads as UTC rather than failing the page.
      return formatter(style, DEFAULT_TIME_ZONE);
    }
    formatters.set(key, f);
  }
  return f;
}

const instant = (at: Date | string | number) => (at instanceof Date ? at : new Date(at));

/**
 * The one formatter of times in the admin: `at` (a Date, an ISO string or epoch ms) on the wall clock of
 * `timeZone`. The zone is named once per page (the admin header), not after every time.
 */
export function formatInZone(at: Date | string | number, timeZone: string, style: TimeStyle = 'date-time'): string {
  return formatter(style, timeZone).format(instant(at));
}

function wallClockParts(at: number, timeZone: string) {
  const parts = formatter('wall-clock', timeZone).formatToParts(at);
  const part = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  return { year: part('year'), month: part('month'), day: part('day'), hour: part('hour'), minute: part('minute'), second: part('second') };
}

/** The calendar day ("2026-11-25") `at` falls on in `timeZone`. */
export function dayKeyIn(at: Date | string | number, timeZone: string): string {
  const { year, month, day } = wallClockParts(instant(at).getTime(), timeZone);
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** How far `timeZone`'s wall clock is ahead of UTC at `at` (ms; negative west of Greenwich). */
function offsetAt(at: number, timeZone: string): number {
  const w = wallClockParts(at, timeZone);
  return Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second) - Math.floor(at / 1000) * 1000;
}

const DAY_KEY = /^(\d{4})-(\d{2})-(\d{2})$/;

function parseDayKey(day: string): number {
  const m = DAY_KEY.exec(day);
  if (!m) throw new RangeError(`not a day key: ${day}`);
  return Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
}

/**
 * The first moment of `day` ("2026-03-29") in `timeZone`: midnight, or the first moment that exists when the
 * clocks skip midnight (America/Santiago's spring change starts the day at 01:00). A day is 23, 24 or 25
 * hours long around a DST change, so day ranges are always built from this, never by adding 24 hours.
 */
export function startOfDayIn(day: string, timeZone: string): Date {
  const wall = parseDayKey(day);
  // Midnight as if the offset were the one just before or just after it; an offset changes at most once a day.
  const candidates = [wall - offsetAt(wall - 86_400_000, timeZone), wall - offsetAt(wall + 86_400_000, timeZone), wall - offsetAt(wall, timeZone)];
  const onTheDay = candidates.filter((t) => dayKeyIn(t, timeZone) === day).sort((a, b) => a - b);
  // No midnight candidate lands on the day only for a day the zone skipped altogether (Samoa, 30 Dec 2011).
  return new Date(onTheDay[0] ?? candidates[2]!);
}

/** The day key `days` calendar days after `day` (negative: before). Zone-free: keys are calendar days. */
export function addDays(day: string, days: number): string {
  return new Date(parseDayKey(day) + days * 86_400_000).toISOString().slice(0, 10);
}

/** The minute of the day (0–1439) `at` shows on the wall clock of `timeZone`. */
export function minuteOfDayIn(at: Date | string | number, timeZone: string): number {
  const { hour, minute } = wallClockParts(instant(at).getTime(), timeZone);
  return (hour % 24) * 60 + minute;
}
