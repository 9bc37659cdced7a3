/**
 * Whether a path is one of the site's public pages (src/shared/site-routes.ts), with a detail page's id
 * checked against the content: what page-view counts and lead attribution may name.
 */
import { tagMemo } from '../../cache/memo';
import { CACHE_TAGS } from '../../cache/tags';
import type { Database } from '../../db/client';
import { publicRouteOf } from '../../../shared/site-routes';
import { OTHER } from '../../../shared/utm';
import { detailExists, publicDetailIds } from './repository';

type Reader = Pick<Database, 'select'>;

/**
 * The detail ids, read once and kept until a content write on any server process invalidates their tags
 * (docs/decisions/022; a minute at most, the backstop): the page-view beacon asks on every view.
 */
const detailIds = tagMemo([CACHE_TAGS.services, CACHE_TAGS.packages, CACHE_TAGS.demos, CACHE_TAGS.articles], 60_000, () => publicDetailIds());

/** Tests: forget the cached ids (each test has its own database). */
export const forgetPublicDetailIds = () => detailIds.clear();

/** The path a page view is counted under: the path itself for a public page, else OTHER. */
export async function countedPagePath(path: string): Promise<string> {
  const route = publicRouteOf(path);
  if (!route) return OTHER;
  if (route.kind === 'static') return path;
  return (await detailIds.get('ids'))[route.kind].has(route.id) ? path : OTHER;
}

/**
 * The path when it is a public page, else undefined: for a lead event, written in the caller's
 * transaction (`ex`), so it reads through it rather than the cache.
 */
export async function publicPageOrUndefined(path: string | null | undefined, ex: Reader): Promise<string | undefined> {
  if (!path) return undefined;
  const route = publicRouteOf(path);
  if (!route) return undefined;
  if (route.kind === 'static') return path;
  return (await detailExists(route.kind, route.id, ex)) ? path : undefined;
}
