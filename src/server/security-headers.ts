/**
 * Headers every response carries, cached or not. Script/style CSP comes from Astro's per-page hashed
 * <meta>; the directives that only work as a header are set here.
 */
export function applySecurityHeaders(headers: Headers, { https }: { https: boolean }) {
  // Astro sends the hashed script-src/style-src policy of the page; add to it rather than replace it.
  const pagePolicy = headers.get('Content-Security-Policy');
  const headerOnly = "frame-ancestors 'none'; base-uri 'self'; object-src 'none'; form-action 'self'";
  if (!pagePolicy?.includes('frame-ancestors')) {
    headers.set('Content-Security-Policy', pagePolicy ? `${pagePolicy.replace(/;\s*$/, '')}; ${headerOnly}` : headerOnly);
  }
  headers.set('X-Content-Type-Options', 'nosniff');
  headers.set('Referrer-Policy', 'strict-origin-when-cross-origin');
  headers.set('X-Frame-Options', 'DENY');
  headers.set('Permissions-Policy', 'camera=(), microphone=(), geolocation=(), payment=(), usb=(), interest-cohort=()');
  headers.set('Cross-Origin-Opener-Policy', 'same-origin');
  if (https) headers.set('Strict-Transport-Security', 'max-age=63072000; includeSubDomains');
}

/** Pages and endpoints whose content depends on who asks: never stored by any cache. */
export function isPrivatePath(pathname: string): boolean {
  return /^\/(admin|dashboard|auth|verify-email|api)(\/|$)/.test(pathname);
}
