/** Account settings and paths, in one place so the decision record (docs/decisions/003) can point here. */

export const AUTH_BASE_PATH = '/api/auth';
/** Pages the UI step builds: emailed links land there with `?error=CODE` or `?token=...`. */
export const VERIFY_EMAIL_PAGE = '/verify-email';
export const RESET_PASSWORD_PAGE = '/auth/reset-password';
export const SIGN_IN_PAGE = '/auth';
/** Our page for errors better-auth would show on its own page (which repeats its query string). */
export const AUTH_ERROR_PAGE = '/auth/error';

export const COOKIE_PREFIX = 'agency';
/** Set by handleAuthRequest from the socket or the trusted proxy header; client values are replaced. */
export const CLIENT_IP_HEADER = 'x-agency-client-ip';

export const SESSION_DAYS = 7;
/** "Recent sign-in" for a password change (the seed's requires-recent-login). */
export const RECENT_SIGN_IN_SECONDS = 10 * 60;
export const VERIFICATION_LINK_SECONDS = 24 * 60 * 60;
export const RESET_LINK_SECONDS = 60 * 60;
/** Auth bodies are a few hundred bytes; 64 KiB still lets a 10 KB name reach validation for a field error. */
export const MAX_AUTH_BODY_BYTES = 64 * 1024;

/** Per client IP and path; stored in the rate_limits table. */
export const RATE_LIMITS = {
  '/sign-in/email': { window: 60, max: 5 },
  '/sign-up/email': { window: 60, max: 5 },
  '/send-verification-email': { window: 300, max: 3 },
  '/request-password-reset': { window: 300, max: 3 },
  '/reset-password': { window: 60, max: 5 },
  '/reset-password/*': { window: 60, max: 10 },
  '/verify-email': { window: 60, max: 10 },
  '/account/change-password': { window: 60, max: 5 },
  // Every page view asks who is signed in (the navbar and price islands): a cheap read that must not run
  // out for visitors sharing one address (an office, a clinic), nor cost a rate-limit write per page view.
  '/get-session': false,
} as const;

/**
 * The better-auth endpoints this site uses, by method. Every other path under /api/auth answers 404 at
 * our edge (src/server/auth/handler.ts), so an endpoint the site never calls (verify-password, update-user,
 * the admin plugin's HTTP API, whatever a future version adds) cannot be reached from outside.
 */
export const USED_AUTH_ENDPOINTS: ReadonlyArray<{ method: 'GET' | 'POST'; path: string | RegExp }> = [
  { method: 'GET', path: '/get-session' },
  { method: 'POST', path: '/sign-up/email' },
  { method: 'POST', path: '/sign-in/email' },
  { method: 'POST', path: '/sign-out' },
  { method: 'POST', path: '/send-verification-email' },
  { method: 'GET', path: '/verify-email' },
  { method: 'POST', path: '/request-password-reset' },
  // The emailed reset link: better-auth checks the token, then redirects to our page with ?token=.
  { method: 'GET', path: /^\/reset-password\/[A-Za-z0-9_-]{1,200}$/ },
  { method: 'POST', path: '/reset-password' },
  { method: 'POST', path: '/account/change-password' },
];

export function isUsedAuthEndpoint(method: string, path: string): boolean {
  const m = method === 'HEAD' ? 'GET' : method;
  return USED_AUTH_ENDPOINTS.some((e) => e.method === m && (typeof e.path === 'string' ? e.path === path : e.path.test(path)));
}

/**
 * A reset request answers no sooner than this, whether or not the account exists (its mail is sent after
 * the answer): the time taken does not tell a stranger which addresses have accounts.
 */
export const RESET_REQUEST_MIN_MS = 250;
