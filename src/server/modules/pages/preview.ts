/**
 * Admins preview what visitors cannot see yet (an unpublished article, an inactive package) at its real
 * URL with `?preview`: the middleware reads the session for such a request, the page renders the record
 * with a "preview — not public" bar, and the answer is private (never cached, never indexed). Anyone
 * else gets exactly what a visitor gets without the parameter: the 404 page.
 */
import type { AstroGlobal } from 'astro';

export const PREVIEW_PARAM = 'preview';

/** Whether this request may show non-public content: `?preview` asked by a verified admin. */
export function isAdminPreview(astro: AstroGlobal): boolean {
  const user = astro.locals.user;
  return astro.url.searchParams.has(PREVIEW_PARAM) && user?.role === 'admin' && user.emailVerified === true;
}

/** Marks a preview answer private: the route cache does not store it and browsers do not keep it. */
export function markPreviewPrivate(astro: AstroGlobal) {
  astro.response.headers.set('Cache-Control', 'private, no-store');
  astro.response.headers.set('X-Robots-Tag', 'noindex, nofollow');
}
