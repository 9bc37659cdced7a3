/**
 * Query-string and path-parameter parsing for the public list and detail pages. Bad input is answered with a
 * clear 400 (or 404 for ids) instead of reaching the database or failing with a 500.
 */
import { z } from './zod';
import { TAG_MAX_LENGTH, TAG_PATTERN, URL_SLUG_PATTERN } from './schemas/fields';

/** Record ids and article slugs: readable slugs for new records, original ids (e.g. Firestore's 20 characters) for imported ones. */
export const routeIdSchema = z
  .string()
  .min(1)
  .max(128)
  .regex(URL_SLUG_PATTERN);

/** A detail page's id or slug, or undefined when it cannot name a record (the page answers 404). */
export function parseRouteId(raw: string | undefined): string | undefined {
  const parsed = routeIdSchema.safeParse(raw);
  return parsed.success ? parsed.data : undefined;
}

/** Upper bound keeps OFFSET arithmetic sane; no site has 100,000 pages of articles. */
export const MAX_PAGE = 100_000;
export const MAX_TAG_LENGTH = TAG_MAX_LENGTH;

export const PAGE_ERROR = "That page number isn't valid. Page numbers are whole numbers starting at 1.";
export const TAG_ERROR = "That tag isn't valid. Tags are short words or phrases without special characters.";

const pageSchema = z
  .string()
  .regex(/^[0-9]{1,6}$/)
  .transform(Number)
  .pipe(z.number().int().min(1).max(MAX_PAGE));

// Letters (any script), digits, spaces and a few joiners seen in real tags ("AI & automation", "C++", "no-shows").
const tagSchema = z.string().trim().min(1).max(MAX_TAG_LENGTH).regex(TAG_PATTERN);

/** A rejected value is not kept: the 400 page says what is wrong without repeating a stranger's text. */
export type ArticlesQuery =
  | { ok: true; page: number; tag: string | undefined }
  | { ok: false; field: 'page' | 'tag'; message: string };

/** The parameters /articles reads (its route-cache key keeps only these, src/server/cache/page-queries.ts). */
export const ARTICLES_QUERY_PARAMS = ['page', 'tag'] as const;

/** `?page=` (absent or empty → 1) and `?tag=` (absent or empty → no filter) of /articles. */
export function parseArticlesQuery(params: URLSearchParams): ArticlesQuery {
  const rawPage = params.get('page');
  let page = 1;
  if (rawPage !== null && rawPage !== '') {
    const parsed = pageSchema.safeParse(rawPage);
    if (!parsed.success) return { ok: false, field: 'page', message: PAGE_ERROR };
    page = parsed.data;
  }
  const rawTag = params.get('tag');
  let tag: string | undefined;
  if (rawTag !== null && rawTag.trim() !== '') {
    const parsed = tagSchema.safeParse(rawTag);
    if (!parsed.success) return { ok: false, field: 'tag', message: TAG_ERROR };
    tag = parsed.data;
  }
  return { ok: true, page, tag };
}

/** Number of pages for `total` items (at least 1, so an empty list still has its first page). */
export function pageCount(total: number, perPage: number): number {
  return Math.max(1, Math.ceil(total / perPage));
}

/**
 * Whether /articles has this page: not past the last one, and not for a tag that no published article
 * carries (`total` counts the articles with that tag). Otherwise the answer is the 404 page, which neither
 * repeats the tag nor lets a stranger's query fill the route cache.
 */
export function articlesPageExists(query: { page: number; tag: string | undefined }, total: number, perPage: number): boolean {
  if (query.tag !== undefined && total === 0) return false;
  return query.page <= pageCount(total, perPage);
}
