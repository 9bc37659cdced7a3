/**
 * The query parameters the cached public pages read (issue 21). Every other parameter (a campaign's utm_*,
 * a crawler's or an attacker's invented ones, a cache buster) cannot change what a page shows, so it is
 * left out of the route-cache key: `/?anything=1` is the stored `/`, not a new render and a new entry.
 *
 * A page that starts reading a parameter declares it here, or every visitor gets the page rendered for
 * whichever value came first. Only pages that mark themselves cacheable are stored; the key of any other
 * page is never used.
 */
import { ARTICLES_QUERY_PARAMS } from '../../shared/query';
import { LAYOUT_PARAM } from '../../shared/landing';
import { AUDIT_SENT_PARAM } from '../../shared/schemas/audit';
import { isUnstorableText } from '../http/request-body';
import { PREVIEW_PARAM } from '../modules/pages/preview';

/** Read on every page that can show an admin a preview (its answer is private, never stored). */
const EVERY_PAGE: readonly string[] = [PREVIEW_PARAM];

const BY_PATH: ReadonlyMap<string, ReadonlySet<string>> = new Map(
  Object.entries({
    '/': [LAYOUT_PARAM],
    '/articles': ARTICLES_QUERY_PARAMS,
    '/free-audit': [AUDIT_SENT_PARAM],
  }).map(([path, params]) => [path, new Set([...EVERY_PAGE, ...params])]),
);

const EVERY_PAGE_SET: ReadonlySet<string> = new Set(EVERY_PAGE);

/** The parameters the page at `pathname` reads. */
export const queryParamsReadAt = (pathname: string): ReadonlySet<string> => BY_PATH.get(pathname) ?? EVERY_PAGE_SET;

/**
 * A query the middleware refuses with 400 (a NUL, broken text), in a parameter the page does not read too:
 * the route cache must not answer it from the clean page's entry (neither its fast path nor the provider).
 */
export const hasUnstorableQuery = (url: URL): boolean =>
  url.search !== '' && [...url.searchParams].some(([name, value]) => isUnstorableText(name) || isUnstorableText(value));
