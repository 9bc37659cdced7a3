/**
 * First-party analytics (decision 014), the pure rules: what a visit beacon may carry, how a view is
 * classified (device, source, entry or not) and which day of the site's time zone it counts on. No server imports: the browser
 * beacon (src/features/analytics/beacon.ts) uses only the field names, the server everything else.
 */
import { sanitizeSitePath } from './auth-schemas';
import { dayKeyIn, DEFAULT_TIME_ZONE } from './dates';
import { safeUtm, UTM_MAX_LENGTH } from './utm';
import { z } from './zod';

export { UTM_MAX_LENGTH };

export const VISITS_API_PATH = '/api/visits';

/** The largest beacon body /api/visits reads: a path, a referrer and three UTM values, with room to spare. */
export const VISIT_BEACON_MAX_BYTES = 2048;

/**
 * Distinct sources (referring host + UTM source, medium, campaign) stored per day; the visits of any more
 * are counted in one "other" row (OTHER), so invented sources cannot grow the table or the overview.
 */
export const MAX_SOURCES_PER_DAY = 200;

/**
 * Per address: page views counted in one window, then 429. Far above one person's reading, because many
 * people can share one address (an office, a mobile carrier's NAT) and a browser shows a refused beacon
 * as a console error; a script flooding the counts still meets it within a second or two.
 */
export const VISIT_RATE_LIMIT = { max: 300, windowSeconds: 60 } as const;

export const DEVICE_CLASSES = ['mobile', 'tablet', 'desktop'] as const;
export type DeviceClass = (typeof DEVICE_CLASSES)[number];

/** Markup, quotes, white space and backslashes never occur in a browser's location.pathname (it is percent-encoded). */
const NOT_IN_A_PATH = /[\s<>"'`\\]/;

const utmField = z
  .string()
  .max(500)
  .optional()
  .transform((v) => cleanUtm(v));

/**
 * The beacon's body, short names to keep the browser's script small: p path (location.pathname), r
 * referrer (document.referrer, '' for none), s/m/c utm_source/medium/campaign, w viewport width in CSS px.
 * Unknown fields are refused.
 */
export const visitBeaconSchema = z.strictObject({
  p: z
    .string()
    .min(1)
    .max(512)
    .refine((v) => sanitizeSitePath(v) === v && !NOT_IN_A_PATH.test(v), 'must be a path on this site'),
  r: z.string().max(1024).optional().default(''),
  s: utmField,
  m: utmField,
  c: utmField,
  w: z.number().int().min(0).max(10_000),
});
export type VisitBeacon = z.output<typeof visitBeaconSchema>;

/** Viewport width (CSS px) → device class: under 768 mobile, under 1024 tablet, else desktop. */
export function deviceOf(width: number): DeviceClass {
  if (width < 768) return 'mobile';
  if (width < 1024) return 'tablet';
  return 'desktop';
}

/** "WWW.Example.com" → "example.com": a host as it is grouped in the report. */
export const bareHost = (host: string) => host.toLowerCase().replace(/^www\./, '');

/**
 * Where a view came from: '' for none (direct, or a referrer that is no http(s) URL), the referring host
 * (lower case, without "www.") for another site, or null when the referrer is this site itself: an
 * internal navigation, not the entry of a visit. `siteHosts` are this site's host names (any spelling).
 */
export function referrerHostOf(referrer: string, siteHosts: readonly string[]): string | null {
  if (!referrer) return '';
  let url: URL;
  try {
    url = new URL(referrer);
  } catch {
    return '';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return '';
  const host = bareHost(url.hostname);
  if (siteHosts.some((h) => bareHost(h) === host)) return null;
  return host.slice(0, 253);
}

/**
 * A UTM value as it is grouped: trimmed and lower case when it is a safe value (src/shared/utm.ts), else ''
 * (dropped: a visit with a tag of markup or a URL counts as untagged).
 */
export function cleanUtm(value: string | undefined): string {
  return safeUtm(value)?.toLowerCase() ?? '';
}

/**
 * What the visitor hash is made of: the day's random salt, the address, the user agent and the site's
 * host. Newline-separated: none of the four can contain one (HTTP header values cannot), so no two
 * different inputs join to the same text.
 */
export function visitorHashInput(daySalt: string, address: string, userAgent: string, host: string): string {
  return [daySalt, address, userAgent, host].join('\n');
}

/** A view, classified: what the ingest buffer adds up. */
export interface ClassifiedView {
  day: string;
  path: string;
  device: DeviceClass;
  /** Set when the view is the entry of a visit (its referrer is not this site). */
  source: { referrerHost: string; utmSource: string; utmMedium: string; utmCampaign: string } | null;
}

/**
 * A valid beacon → the view it counts as on the day `at` falls on in `timeZone` (the site's, decision 032):
 * the analytics tables hold counts per day, so the day is decided here, at ingest.
 */
export function classifyView(beacon: VisitBeacon, siteHosts: readonly string[], at: Date, timeZone: string = DEFAULT_TIME_ZONE): ClassifiedView {
  const referrerHost = referrerHostOf(beacon.r, siteHosts);
  return {
    day: dayKeyIn(at, timeZone),
    path: beacon.p,
    device: deviceOf(beacon.w),
    source: referrerHost === null ? null : { referrerHost, utmSource: beacon.s, utmMedium: beacon.m, utmCampaign: beacon.c },
  };
}
