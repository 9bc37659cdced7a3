/**
 * Admins preview what visitors cannot see yet (an unpublished article, an inactive package) at its real
 * URL with `?preview`: the middleware reads the session for such a request, the page renders the record
 * with a "preview — not public" bar, and the answer is private (never cached, never indexed). Anyone
 * else gets exactly what a visitor gets without the parameter: the 404 page.
 */
import type { AstroGlobal } from 'astro';
import { HEADER_ONLY_CSP } from '../../security-headers';

type CspDirective = Parameters<NonNullable<AstroGlobal['csp']>['insertDirective']>[0];

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

/**
 * Lets the site's own admin pages show this private preview in a frame (the landing page editor's live
 * preview). Every other answer forbids framing (frame-ancestors 'none', X-Frame-Options: DENY). Astro
 * sends the page's policy as a header; the middleware adds its header-only directives only to a policy
 * without frame-ancestors, so this page's policy carries them itself, framing allowed for the site only
 * (browsers ignore X-Frame-Options when frame-ancestors is present).
 */
export function allowFramingBySite(astro: AstroGlobal) {
  const directives = HEADER_ONLY_CSP.replace("frame-ancestors 'none'", "frame-ancestors 'self'").split(';');
  for (const directive of directives) astro.csp?.insertDirective(directive.trim() as CspDirective);
}
