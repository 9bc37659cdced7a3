/**
 * A member's page-time for the admin's user page (src/components/admin/PageTimeReport.astro): the
 * timeline, newest first and paged by keyset (a cursor naming the last record seen, never an OFFSET),
 * and the pages they spent most time on. The timeline reads one member's rows through page_times_user_at_idx,
 * the totals and the count their rows of page_time_totals (one per path, kept by triggers).
 */
import * as repo from './repository';

/** The query parameters of the timeline's cursor on the admin's user page (beside that page's own). */
export const PAGE_TIME_BEFORE_PARAM = 'ptBefore';
export const PAGE_TIME_AFTER_PARAM = 'ptAfter';
export const PAGE_TIME_PER_PAGE = 25;
export const PAGE_TIME_TOP_PAGES = 10;
const MAX_PER_PAGE = 100;

/**
 * A position in the timeline: a record's `at` in epoch milliseconds and its id, written `<ms>.<id>`
 * (e.g. `1764063000123.5f0c…`). `before` asks for the records older than it, `after` for the newer ones.
 */
export interface PageTimeCursor {
  atMs: number;
  id: string;
}

// Ids are the app's UUIDs (or a seed's slugs): letters, digits, '-' and '_'; never a '.'.
const CURSOR_PATTERN = /^([0-9]{1,15})\.([A-Za-z0-9_-]{1,64})$/;

export const formatPageTimeCursor = (row: { at: Date; id: string }) => `${row.at.getTime()}.${row.id}`;

/** The cursor written in a query parameter, or undefined when it is missing or not exactly one. */
export function parsePageTimeCursor(raw: string | null | undefined): PageTimeCursor | undefined {
  const m = raw == null ? null : CURSOR_PATTERN.exec(raw);
  if (!m) return undefined;
  const atMs = Number(m[1]);
  return Number.isSafeInteger(atMs) ? { atMs, id: m[2]! } : undefined;
}

/** Which page the URL asks for: both cursors, or a malformed one, mean the newest page. */
export function pageTimePositionOf(params: URLSearchParams): { before?: PageTimeCursor; after?: PageTimeCursor } {
  const rawBefore = params.getAll(PAGE_TIME_BEFORE_PARAM);
  const rawAfter = params.getAll(PAGE_TIME_AFTER_PARAM);
  if (rawBefore.length + rawAfter.length !== 1) return {};
  if (rawBefore.length === 1) {
    const before = parsePageTimeCursor(rawBefore[0]);
    return before ? { before } : {};
  }
  const after = parsePageTimeCursor(rawAfter[0]);
  return after ? { after } : {};
}

export interface PageTimeTimeline {
  /** This page's records, newest first. */
  rows: repo.PageTimeRow[];
  /** Every record of the member (summed over their page_time_totals rows, not counted in page_times). */
  total: number;
  pageSize: number;
  /** True on the first page (nothing newer than its first record). */
  newest: boolean;
  /** The cursor for `ptAfter=` (the first record shown) when there are newer records, else null. */
  newer: string | null;
  /** The cursor for `ptBefore=` (the last record shown) when there are older records, else null. */
  older: string | null;
}

/**
 * One page of the member's timeline: the newest `pageSize` records, or those just older than `before`
 * or just newer than `after`. A cursor that is not one of this member's records (another member's, a
 * deleted one, a forged one) shows the newest page; so does a cursor with nothing on its side.
 * A page of newer records shorter than a page is topped up to the newest page, which is never short.
 */
export async function pageTimeTimeline(
  userId: string,
  { before, after, pageSize = PAGE_TIME_PER_PAGE }: { before?: PageTimeCursor; after?: PageTimeCursor; pageSize?: number } = {},
): Promise<PageTimeTimeline> {
  const size = Math.min(MAX_PER_PAGE, Math.max(1, Math.trunc(pageSize) || PAGE_TIME_PER_PAGE));
  const cursor = before && !after ? before : after && !before ? after : undefined;
  const [total, valid] = await Promise.all([
    repo.countPageTimesOf(userId),
    cursor ? repo.isPageTimeCursorOf(userId, cursor.id, cursor.atMs) : Promise.resolve(false),
  ]);
  const empty = { rows: [], total, pageSize: size, newest: true, newer: null, older: null };
  if (total === 0) return empty;
  if (valid && cursor) {
    const direction = cursor === before ? 'older' : 'newer';
    // One more than a page tells whether there is another page beyond this one.
    const rows = await repo.pageTimesOf(userId, size + 1, { id: cursor.id, direction });
    if (direction === 'older' && rows.length > 0) {
      const shown = rows.slice(0, size);
      return { rows: shown, total, pageSize: size, newest: false, newer: formatPageTimeCursor(shown[0]!), older: rows.length > size ? formatPageTimeCursor(shown.at(-1)!) : null };
    }
    if (direction === 'newer' && rows.length > size) {
      const shown = rows.slice(1);
      return { rows: shown, total, pageSize: size, newest: false, newer: formatPageTimeCursor(shown[0]!), older: formatPageTimeCursor(shown.at(-1)!) };
    }
  }
  const rows = await repo.pageTimesOf(userId, size + 1);
  const shown = rows.slice(0, size);
  return { ...empty, rows: shown, older: rows.length > size ? formatPageTimeCursor(shown.at(-1)!) : null };
}

export type PageTimeTotal = repo.PageTimeTotalRow;

export function pageTimeTotals(userId: string, limit = PAGE_TIME_TOP_PAGES): Promise<PageTimeTotal[]> {
  return repo.pageTimeTotalsOf(userId, limit);
}
