/**
 * Cross-site request forgery, in one place: a state-changing request (form post, Action, API call)
 * whose Origin is not one of this site's own is refused, whatever route it is for. Browsers send Origin
 * on every POST, so a request without one is not a browser's and cannot be forgery.
 *
 * A refused origin is logged once per origin with the setting that would accept it: behind a new domain
 * or port, an operator sees "set SITE_URL=…" instead of a sign-in form that silently never works.
 */
import { config } from './config';
import { isForeignOrigin } from './guards';
import { logger } from './logger';
import { isSecretLinkPath } from './security-headers';

const MAX_LOGGED_ORIGINS = 100;
const logged = new Set<string>();

export interface OriginPolicy {
  trustedOrigins: readonly string[];
  siteUrlIsExplicit: boolean;
}

/** The line an operator reads when a request from `origin` was refused. Exported for tests. */
export function refusedOriginAdvice(origin: string, policy: OriginPolicy): string {
  const trusted = policy.trustedOrigins.join(', ');
  return policy.siteUrlIsExplicit
    ? `Refused a request from ${origin}: SITE_URL is ${trusted}. If visitors open the site at ${origin}, set SITE_URL=${origin}.`
    : `Refused a request from ${origin}: without SITE_URL this site trusts ${trusted}. If visitors open the site at ${origin}, set SITE_URL=${origin}.`;
}

/** True when the request must be refused as cross-site. */
export function isRefusedOrigin(request: Request, policy: OriginPolicy = config()): boolean {
  const origin = request.headers.get('origin');
  const tokenRoute = isSecretLinkPath(new URL(request.url).pathname);
  if (!isForeignOrigin(request.method, origin, policy.trustedOrigins, request.headers.get('sec-fetch-site'), { tokenRoute })) return false;
  const key = String(origin ?? 'a cross-site page without Origin').slice(0, 200);
  if (!logged.has(key) && logged.size < MAX_LOGGED_ORIGINS) {
    logged.add(key);
    logger.warn({ origin: key, path: new URL(request.url).pathname }, refusedOriginAdvice(key, policy));
  }
  return true;
}
