/**
 * A member's page-time for the admin's user page (src/components/admin/PageTimeReport.astro): the
 * timeline, newest first and paginated in SQL, and the pages they spent most time on. Both read one
 * member's rows through page_times_user_at_idx.
 */
import { pageCount } from '../../../shared/query';
import * as repo from './repository';

/** The query parameter of the timeline's page on the admin's user page (beside that page's own). */
export const PAGE_TIME_PAGE_PARAM = 'ptPage';
export const PAGE_TIME_PER_PAGE = 25;
export const PAGE_TIME_TOP_PAGES = 10;
const MAX_PER_PAGE = 100;

export interface PageTimeTimeline {
  rows: repo.PageTimeRow[];
  total: number;
  /** The page shown: the one asked for, or the last one when that is past the end. */
  page: number;
  pageCount: number;
  pageSize: number;
}

export async function pageTimeTimeline(userId: string, { page = 1, pageSize = PAGE_TIME_PER_PAGE }: { page?: number; pageSize?: number } = {}): Promise<PageTimeTimeline> {
  const size = Math.min(MAX_PER_PAGE, Math.max(1, Math.trunc(pageSize) || PAGE_TIME_PER_PAGE));
  const total = await repo.countPageTimesOf(userId);
  const pages = pageCount(total, size);
  const shown = Math.min(Math.max(1, Math.trunc(page) || 1), pages);
  const rows = total === 0 ? [] : await repo.pageTimesOf(userId, size, (shown - 1) * size);
  return { rows, total, page: shown, pageCount: pages, pageSize: size };
}

export type PageTimeTotal = repo.PageTimeTotalRow;

export function pageTimeTotals(userId: string, limit = PAGE_TIME_TOP_PAGES): Promise<PageTimeTotal[]> {
  return repo.pageTimeTotalsOf(userId, limit);
}
