/**
 * Dates and times as people read them, one form for days everywhere the team or a prospect reads one (the
 * admin, the emails, the audit report, the member's dashboard): "14 Mar 2025", with the weekday where a
 * day stands alone ("Fri, 14 Mar 2025"), and 24-hour times ("09:30"). Moments are shown on the wall clock
 * of the site's time zone (decision 055: a general setting, UTC until the owner picks one) through
 * `formatInZone`; the admin names the zone once per page (its header), a mail or the report beside the one
 * time it shows (`formatWithZoneName`). Calendar days (day keys, "2025-03-14") have no zone: `formatDay`.
 *
 * Public content pages (article and demo dates, the policies' "last updated") keep their own form, "Nov 22,
 * 2026" in UTC (`formatDateMedium`, `formatDateLong`): a cached page is the same for every visitor and on
 * every server, and those dates are the content's, not the team's.
 *
 * Pure and the same on the server and in the browser, so an island renders the same text on both sides.
 * Formatters are built once per zone and style: constructing Intl formatters is costly on hot pages.
 */
/** The zone of a site whose owner has not chosen one (decision 032). */
export const DEFAULT_TIME_ZONE = 'UTC';

/** An IANA time zone the runtime knows ("Europe/Berlin", "UTC"). */
export function isTimeZone(value: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: value });
    return value.length > 0;
  } catch {
    return false;
  }
}

/** A zone's name as people read it: "America/New York". */
export const timeZoneLabel = (timeZone: string) => timeZone.replace(/_/g, ' ');

const medium = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: 'UTC' });
const long = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' });

/** Public content pages only: "Nov 22, 2026" (UTC). */
export const formatDateMedium = (date: Date) => medium.format(date);
/** Public content pages only: "November 22, 2026" (UTC). */
export const formatDateLong = (date: Date) => long.format(date);

const h23 = { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' } as const;
const DAY = { day: 'numeric', month: 'short', year: 'numeric' } as const;

/** How much of a moment a place shows; the examples are 2025-03-14T09:30:05Z in UTC. */
const STYLES = {
  /** "14 Mar 2025, 09:30:05": lists, logs, page headers. */
  'date-time': { ...DAY, ...h23, second: '2-digit' },
  /** "14 Mar 2025, 09:30": a time a mail or the report names (with the zone: formatWithZoneName). */
  'date-hour-minute': { ...DAY, ...h23 },
  /** "14 Mar, 09:30": a compact column (the chat inbox). */
  'day-time': { day: 'numeric', month: 'short', ...h23 },
  /** "09:30:05": under a day heading. */
  time: { ...h23, second: '2-digit' },
  /** "Fri, 14 Mar 2025, 09:30": a booked call. */
  appointment: { weekday: 'short', ...DAY, ...h23 },
  /** "09:30": a message in a conversation. */
  'hour-minute': h23,
  /** "14 Mar 2025": when only the day matters. */
  date: DAY,
  /** "Fri, 14 Mar 2025": a day on its own (a timeline's heading, a follow-up day). */
  'weekday-date': { weekday: 'short', ...DAY },
  /** "Fri 14 Mar": a chart's day. */
  'weekday-day': { weekday: 'short', day: 'numeric', month: 'short' },
  /** "14 Mar": a chart's axis. */
  'day-month': { day: 'numeric', month: 'short' },
} as const satisfies Record<string, Intl.DateTimeFormatOptions>;

export type TimeStyle = keyof typeof STYLES;

/** The styles that show a calendar day without its time. */
export type DayStyle = 'date' | 'weekday-date' | 'weekday-day' | 'day-month';

const WALL_CLOCK = { year: 'numeric', month: 'numeric', day: 'numeric', ...h23, second: 'numeric' } as const;
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(style: TimeStyle | 'wall-clock', timeZone: string): Intl.DateTimeFormat {
  const key = `${style} ${timeZone}`;
  let f = formatters.get(key);
  if (!f) {
    const [locale, options] = style === 'wall-clock' ? (['en-US', WALL_CLOCK] as const) : (['en-GB', STYLES[style]] as const);
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
 * The one formatter of moments: `at` (a Date, an ISO string or epoch ms) on the wall clock of `timeZone`.
 * The admin names the zone once per page (its header), not after every time.
 */
export function formatInZone(at: Date | string | number, timeZone: string, style: TimeStyle = 'date-time'): string {
  return formatter(style, timeZone).format(instant(at));
}

/** A moment for a reader who has no page header naming the zone (a mail, the audit report): "14 Mar 2025, 09:30 (Europe/Berlin)". */
export function formatWithZoneName(at: Date | string | number, timeZone: string, style: TimeStyle = 'date-hour-minute'): string {
  const zone = isTimeZone(timeZone) ? timeZone : DEFAULT_TIME_ZONE;
  return `${formatInZone(at, zone, style)} (${timeZoneLabel(zone)})`;
}

/** A calendar day (a day key, "2025-03-14": no zone to apply) in the one form: "14 Mar 2025", "Fri, 14 Mar 2025". */
export function formatDay(dayKey: string, style: DayStyle = 'date'): string {
  return formatter(style, 'UTC').format(parseDayKey(dayKey));
}

/** The date and time of day `at` shows on the wall clock of `timeZone` (hours 0–23). */
export function wallClockIn(at: Date | string | number, timeZone: string) {
  const parts = formatter('wall-clock', timeZone).formatToParts(instant(at));
  const part = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  return { year: part('year'), month: part('month'), day: part('day'), hour: part('hour') % 24, minute: part('minute'), second: part('second') };
}

/** The calendar day ("2026-11-25") `at` falls on in `timeZone`. */
export function dayKeyIn(at: Date | string | number, timeZone: string): string {
  const { year, month, day } = wallClockIn(at, timeZone);
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** How far `timeZone`'s wall clock is ahead of UTC at `at` (ms; negative west of Greenwich). */
function offsetAt(at: number, timeZone: string): number {
  const w = wallClockIn(at, timeZone);
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
  const { hour, minute } = wallClockIn(at, timeZone);
  return hour * 60 + minute;
}
