/**
 * Members' page-time (seed sections 4 and 9, decision 014): the timing rules, pure and with an injected
 * clock, shared by the browser's tracker (src/features/page-time/tracker.ts) and the server's checks.
 * No imports: this module ships inside the tracker chunk, which must stay a few hundred bytes; the Zod
 * schema of a record lives in page-time-schema.ts for the same reason.
 */

/** A stretch of this many milliseconds or less is not worth a record (the seed: "skip ≤ 1000 ms"). */
export const MIN_DURATION_MS = 1000;
/** The periodic save runs this often and saves only when MORE than this has elapsed. */
export const PERIODIC_SAVE_MS = 30_000;
/** No single record covers more than a day, whatever the clocks say. */
export const MAX_DURATION_MS = 24 * 60 * 60 * 1000;
/**
 * How far the browser's clock may run ahead of the server's. The tracker measures a stretch and stamps its
 * start with the same (browser) clock; the server compares that start with its own clock. A device whose
 * clock runs a little fast would otherwise see its timestamps "in the future" and its durations capped
 * below what it really measured. Synchronised clocks differ by well under a second; a minute covers a
 * device that missed its time sync for weeks, while still letting nobody claim more than a minute that
 * did not happen.
 */
export const CLOCK_SKEW_MS = 60_000;
/** The longest page path a record may name (longer paths are refused). */
export const MAX_PAGE_PATH_LENGTH = 512;
/** The tab session token: letters, digits, '-' and '_', 8 to 64 of them. */
export const SESSION_ID_PATTERN = /^[A-Za-z0-9_-]{8,64}$/;
/** The per-member limit of /api/page-views: a tab saves a few records a minute, a script thousands. */
export const PAGE_TIME_RATE_LIMIT = { max: 120, windowSeconds: 60 } as const;
/** The largest body /api/page-views reads: one record is about 200 bytes. */
export const PAGE_TIME_MAX_BYTES = 4 * 1024;

/** What the tracker sends to POST /api/page-views: one measured stretch on one page. */
export interface PageTimeRecord {
  userId: string;
  /** location.pathname: percent-encoded, no query, no fragment. */
  pagePath: string;
  /** Milliseconds spent on the page, an integer > MIN_DURATION_MS. */
  duration: number;
  /** When the stretch began (ms since the epoch, the browser's clock). */
  timestamp: number;
  /** Random per browser tab (sessionStorage), so an admin can tell two tabs apart. */
  sessionId: string;
}

/**
 * A path on this site as location.pathname gives it: a leading '/', not '//' (another host), no
 * backslash, no whitespace or control characters, no markup characters, at most MAX_PAGE_PATH_LENGTH.
 */
export const isPageTimePath = (path: string) =>
  path.length <= MAX_PAGE_PATH_LENGTH && /^\/(?!\/)[^\s\\<>"'`\u0000-\u001f\u007f-\u009f]*$/.test(path);

/**
 * The duration the server stores: at most the time really elapsed since the stretch began (by the
 * server's clock, plus CLOCK_SKEW_MS) and at most MAX_DURATION_MS. A record that claims more is cut down,
 * not refused: its start is real and the member really was there.
 */
export function capDuration(duration: number, timestamp: number, now: number): number {
  return Math.max(0, Math.min(duration, now - timestamp + CLOCK_SKEW_MS, MAX_DURATION_MS));
}

export interface PageTimeTrackerOptions {
  /** The clock: Date.now in the browser, a fake one in tests. */
  now: () => number;
  userId: string;
  sessionId: string;
  pagePath: string;
  /** When the first stretch began (the navigation's start); `now()` when omitted. */
  startedAt?: number;
  /** The tab is hidden when the tracker starts (a page opened in the background): nothing runs yet. */
  hidden?: boolean;
}

/**
 * One tab's stretches on one page. Each method returns the record to send, or undefined when there is
 * nothing worth sending. While the tab is hidden (or the page left), the clock is stopped: time spent
 * elsewhere is never counted.
 */
export interface PageTimeTracker {
  /** The periodic save: a record only when MORE than PERIODIC_SAVE_MS have elapsed; the stretch restarts. */
  tick(): PageTimeRecord | undefined;
  /** The tab became hidden: the stretch ends and the clock stops. */
  hide(): PageTimeRecord | undefined;
  /** The page is being left (pagehide: a link, reload, closed tab, back/forward): same as hide. */
  leave(): PageTimeRecord | undefined;
  /** The tab is visible again (or a page restored from the back/forward cache): a new stretch begins. */
  show(): void;
  /** A client-side navigation to `pagePath`: the old page's stretch ends, the new page's begins. */
  navigate(pagePath: string): PageTimeRecord | undefined;
}

export function createPageTimeTracker(options: PageTimeTrackerOptions): PageTimeTracker {
  const { now, userId, sessionId } = options;
  let pagePath = options.pagePath;
  /** Start of the running stretch; undefined while the clock is stopped. */
  let start: number | undefined = options.hidden ? undefined : (options.startedAt ?? now());

  /** Ends the running stretch at `at`; the record when it is long enough. */
  const end = (at: number): PageTimeRecord | undefined => {
    if (start === undefined) return undefined;
    const duration = Math.round(at - start);
    const timestamp = Math.round(start);
    start = undefined;
    return duration > MIN_DURATION_MS ? { userId, pagePath, duration, timestamp, sessionId } : undefined;
  };

  return {
    tick() {
      const at = now();
      if (start === undefined || at - start <= PERIODIC_SAVE_MS) return undefined;
      const record = end(at);
      start = at;
      return record;
    },
    hide: () => end(now()),
    leave: () => end(now()),
    show() {
      start ??= now();
    },
    navigate(next) {
      const at = now();
      const running = start !== undefined;
      const record = end(at);
      pagePath = next;
      if (running) start = at;
      return record;
    },
  };
}
