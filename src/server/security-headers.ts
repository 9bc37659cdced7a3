/**
 * Headers every response carries, cached or not. Script/style CSP comes from Astro's per-page hashed
 * policy; the directives that only work as a header are appended here.
 */
export const HEADER_ONLY_CSP = "frame-ancestors 'none'; base-uri 'self'; object-src 'none'; form-action 'self'";

/** Pages whose address is itself the key (an emailed report or unsubscribe link): the address is never sent on as a Referer. */
export const isSecretLinkPath = (pathname: string) => /^\/(audit-report|unsubscribe)(\/|$)/i.test(pathname);

export function applySecurityHeaders(headers: Headers, { https, pathname }: { https: boolean; pathname?: string | undefined }) {
  // Astro sends the hashed script-src/style-src policy of the page; add to it rather than replace it.
  const pagePolicy = headers.get('Content-Security-Policy');
  if (!pagePolicy?.includes('frame-ancestors')) {
    headers.set('Content-Security-Policy', pagePolicy ? `${pagePolicy.replace(/;\s*$/, '')}; ${HEADER_ONLY_CSP}` : HEADER_ONLY_CSP);
  }
  headers.set('X-Content-Type-Options', 'nosniff');
  headers.set('Referrer-Policy', pathname !== undefined && isSecretLinkPath(pathname) ? 'no-referrer' : 'strict-origin-when-cross-origin');
  headers.set('X-Frame-Options', 'DENY');
  headers.set('Permissions-Policy', 'camera=(), microphone=(), geolocation=(), payment=(), usb=()');
  headers.set('Cross-Origin-Opener-Policy', 'same-origin');
  if (https) headers.set('Strict-Transport-Security', 'max-age=63072000; includeSubDomains');
}

/** Pages and endpoints whose content depends on who asks: never stored by any cache. */
export function isPrivatePath(pathname: string): boolean {
  return /^\/(admin|dashboard|auth|verify-email|claim-admin|api|audit-report|unsubscribe)(\/|$)/i.test(pathname);
}

export const PRIVATE_CACHE_CONTROL = 'private, no-store';

/**
 * Browser/proxy caching for a response. Private paths are never stored, whatever the route set; other
 * routes keep their own choice (e.g. robots.txt), and HTML defaults to "always revalidate" so a content
 * change shows on the next visit — the server-side route cache is what makes repeat views cheap.
 */
export function cacheControlFor(pathname: string, routeValue: string | null): string {
  if (isPrivatePath(pathname)) return PRIVATE_CACHE_CONTROL;
  return routeValue ?? 'public, max-age=0, must-revalidate';
}
