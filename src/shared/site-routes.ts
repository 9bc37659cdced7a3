/**
 * The site's public pages as analytics and lead attribution count them: the fixed pages every visitor can
 * open (each renders in the Site layout, which sends the page-view beacon) and the four detail pages, whose
 * id must also exist (checked on the server). A path that is none of these (a typo, a 404, an invented
 * "/buy-now-at-example-com") is not counted under its own name: the admin never reads text a stranger made
 * up, and the per-page tables cannot grow without bound. Pure: no server imports.
 */

/** Every fixed page of the Site layout (tests/unit/site-routes.test.ts checks this against src/pages). */
export const PUBLIC_STATIC_PATHS: readonly string[] = [
  '/',
  '/services',
  '/packages',
  '/demos',
  '/articles',
  '/free-audit',
  '/privacy',
  '/terms',
  '/dashboard',
  '/auth',
  '/auth/change-password',
  '/auth/reset-password',
  '/auth/error',
  '/verify-email',
  '/claim-admin',
];

export const DETAIL_KINDS = ['service', 'package', 'demo', 'article'] as const;
export type DetailKind = (typeof DETAIL_KINDS)[number];

export type PublicRoute = { kind: 'static'; path: string } | { kind: DetailKind; id: string };

const STATIC = new Set(PUBLIC_STATIC_PATHS);
/** /service/{id}, /package/{id}, /demo/{id}, /article/{slug}: one percent-encoded segment. */
const DETAIL = /^\/(service|package|demo|article)\/([^/]+)$/;
/** Ids and slugs are admin-chosen text of modest length. */
const MAX_ID_LENGTH = 200;

/** The public route a path (location.pathname, percent-encoded) is, or undefined when it is none. */
export function publicRouteOf(path: string): PublicRoute | undefined {
  if (STATIC.has(path)) return { kind: 'static', path };
  const match = DETAIL.exec(path);
  if (!match) return undefined;
  let id: string;
  try {
    id = decodeURIComponent(match[2]!);
  } catch {
    return undefined;
  }
  if (id === '' || id.length > MAX_ID_LENGTH) return undefined;
  return { kind: match[1] as DetailKind, id };
}
