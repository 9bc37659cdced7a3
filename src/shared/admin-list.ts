/**
 * The URL state of an admin list (?q=&filter=&sort=&dir=&page=): parsed the same way for every list, so
 * a link always shows the same rows and nothing in the query can break the page.
 */
export interface ListSpecLike {
  sorts: readonly { key: string; label: string }[];
  filters: readonly { key: string; label: string }[];
}

export interface AdminListQuery {
  q: string;
  filter: string;
  sort: string;
  dir: 'asc' | 'desc';
  page: number;
  perPage: number;
}

export const ADMIN_LIST_PER_PAGE = 50;
const MAX_QUERY = 100;

/** Sorts whose natural direction is newest/largest first. */
const DESCENDING_BY_DEFAULT = new Set(['updated', 'created', 'date']);

export function parseAdminListQuery(params: URLSearchParams, spec: ListSpecLike): AdminListQuery {
  const q = (params.get('q') ?? '').trim().slice(0, MAX_QUERY);
  const filterParam = params.get('filter') ?? '';
  const filter = spec.filters.some((f) => f.key === filterParam) ? filterParam : '';
  const sortParam = params.get('sort') ?? '';
  const sort = spec.sorts.some((s) => s.key === sortParam) ? sortParam : (spec.sorts[0]?.key ?? '');
  const dirParam = params.get('dir');
  const dir = dirParam === 'asc' || dirParam === 'desc' ? dirParam : DESCENDING_BY_DEFAULT.has(sort) ? 'desc' : 'asc';
  const pageNumber = Number(params.get('page') ?? '1');
  const page = Number.isInteger(pageNumber) && pageNumber >= 1 && pageNumber <= 100_000 ? pageNumber : 1;
  return { q, filter, sort, dir, page, perPage: ADMIN_LIST_PER_PAGE };
}

/** The list's URL for another page or setting, keeping the rest (defaults left out, so links stay short). */
export function adminListHref(path: string, query: AdminListQuery, change: Partial<AdminListQuery>, spec: ListSpecLike): string {
  const next = { ...query, ...change };
  const params = new URLSearchParams();
  if (next.q) params.set('q', next.q);
  if (next.filter) params.set('filter', next.filter);
  if (next.sort && next.sort !== spec.sorts[0]?.key) params.set('sort', next.sort);
  const defaultDir = DESCENDING_BY_DEFAULT.has(next.sort) ? 'desc' : 'asc';
  if (next.dir !== defaultDir) params.set('dir', next.dir);
  if (next.page > 1) params.set('page', String(next.page));
  const qs = params.toString();
  return qs ? `${path}?${qs}` : path;
}

/** Whether the rows on screen are the whole list in public order: the only view that can be reordered. */
export function canReorder(query: AdminListQuery, total: number, ordered: boolean, firstSort: string): boolean {
  return ordered && query.sort === firstSort && query.dir === 'asc' && !query.q && !query.filter && total <= query.perPage;
}
