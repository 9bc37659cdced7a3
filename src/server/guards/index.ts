/**
 * Who may open which route (seed section 2 "Route guard", section 6; PRODUCT.md "Deliberate differences").
 * Pure: the middleware supplies the path and the session it read, and carries out the decision.
 *
 * Pages redirect like the seed: not logged in → /auth; email not verified → /verify-email; a non-admin on
 * an admin route → /dashboard. API routes and Actions answer JSON 401/403 instead, since a redirect would
 * hand a fetch() an HTML page.
 */
import { CHANGE_PASSWORD_FORM_PAGE } from '../../shared/form-pages';
import { SIGN_IN_PAGE, VERIFY_EMAIL_PAGE } from '../auth/constants';

export const DASHBOARD_PAGE = '/dashboard';

export interface GuardSession {
  role: 'user' | 'admin';
  emailVerified: boolean;
}

export type GuardDecision =
  | { kind: 'allow' }
  | { kind: 'redirect'; to: string }
  | { kind: 'deny'; status: 401 | 403; code: 'UNAUTHORIZED' | 'FORBIDDEN'; message: string };

export const GUARD_MESSAGES = {
  // Seed section 8: an action without a signed-in user.
  UNAUTHORIZED: 'No user logged in',
  NOT_VERIFIED: 'Email not verified yet',
  FORBIDDEN: 'You do not have access to this',
} as const;

type Access = 'public' | 'signed-in' | 'verified' | 'admin';
type Surface = 'page' | 'api';

/**
 * Actions a visitor may call (none yet). Every other action needs a verified member; the action itself
 * then checks anything finer (users.promote: an admin, or nobody is admin yet).
 */
export const PUBLIC_ACTIONS: ReadonlySet<string> = new Set<string>();

// Paths are matched lower-cased (normalizePath), Action names are camelCase: compare alike.
const PUBLIC_ACTIONS_LOWER = new Set([...PUBLIC_ACTIONS].map((a) => a.toLowerCase()));
const isPublicAction = (name: string) => PUBLIC_ACTIONS_LOWER.has(name.toLowerCase());

/** Every Action under `admin.` is for verified admins; the rest for verified members unless public. */
function actionAccess(name: string): Access {
  if (/^admin\./i.test(name)) return 'admin';
  return isPublicAction(name) ? 'public' : 'verified';
}

/**
 * The form the router matches: decoded (so /%61dmin is /admin), repeated slashes collapsed, no trailing
 * slash, lower case (guards must not be sidestepped by spelling a path differently).
 */
export function normalizePath(pathname: string): string {
  let path = pathname;
  try {
    path = decodeURIComponent(pathname);
  } catch {
    // Malformed escapes never reach a route (server.mjs refuses them); match on the raw text.
  }
  path = path.replace(/\/{2,}/g, '/').toLowerCase();
  return path.length > 1 ? path.replace(/\/+$/, '') : path;
}

function ruleFor(path: string): { access: Access; surface: Surface } {
  if (path === VERIFY_EMAIL_PAGE || path === CHANGE_PASSWORD_FORM_PAGE) return { access: 'signed-in', surface: 'page' };
  if (/^\/dashboard(\/|$)/.test(path)) return { access: 'verified', surface: 'page' };
  if (/^\/admin(\/|$)/.test(path)) return { access: 'admin', surface: 'page' };
  if (path === '/api/prices') return { access: 'verified', surface: 'api' };
  // The admin API (media uploads, content import/export): verified admins, refused with JSON 401/403.
  if (/^\/api\/admin(\/|$)/.test(path)) return { access: 'admin', surface: 'api' };
  const action = /^\/_actions\/([^/]+)$/.exec(path)?.[1];
  if (action !== undefined) return { access: actionAccess(action), surface: 'api' };
  if (/^\/_actions(\/|$)/.test(path)) return { access: 'verified', surface: 'api' };
  return { access: 'public', surface: 'page' };
}

/**
 * The path whose rule an Action follows, whichever transport carries it (`/_actions/name`, or a form post
 * to a page with `?_action=name`): the same guard for both.
 */
export function actionRulePath(actionName: string): string {
  return `/_actions/${actionName}`;
}

/** Paths whose answer depends on the session: the only ones for which the middleware reads it. */
export function needsSession(pathname: string): boolean {
  const path = normalizePath(pathname);
  // Public actions still get the caller (e.g. to link a request to the member's account).
  return ruleFor(path).access !== 'public' || /^\/_actions(\/|$)/.test(path);
}

const deny = (status: 401 | 403, message: string): GuardDecision => ({
  kind: 'deny',
  status,
  code: status === 401 ? 'UNAUTHORIZED' : 'FORBIDDEN',
  message,
});

/**
 * `answerAs` overrides how a refusal is answered: an Action posted by a browser form is refused with the
 * pages' redirects, the same Action called from script with the API's JSON.
 */
export function guardDecision(pathname: string, session: GuardSession | null | undefined, answerAs?: Surface): GuardDecision {
  const path = normalizePath(pathname);
  const rule = ruleFor(path);
  const access = rule.access;
  const surface = answerAs ?? rule.surface;
  if (access === 'public') return { kind: 'allow' };

  if (!session) return surface === 'api' ? deny(401, GUARD_MESSAGES.UNAUTHORIZED) : { kind: 'redirect', to: SIGN_IN_PAGE };
  if (access === 'signed-in') return { kind: 'allow' };

  if (!session.emailVerified) {
    return surface === 'api' ? deny(403, GUARD_MESSAGES.NOT_VERIFIED) : { kind: 'redirect', to: VERIFY_EMAIL_PAGE };
  }
  if (access === 'admin' && session.role !== 'admin') {
    return surface === 'api' ? deny(403, GUARD_MESSAGES.FORBIDDEN) : { kind: 'redirect', to: DASHBOARD_PAGE };
  }
  return { kind: 'allow' };
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * A state-changing request whose Origin is not one of the site's own (src/server/request-origin.ts), or
 * that the browser itself says comes from another site (`Sec-Fetch-Site: cross-site`, which a page cannot
 * forge). Browsers send Origin on every POST, so a request without either is not a browser's and cannot be
 * cross-site request forgery.
 *
 * `Origin: null` is foreign (a sandboxed frame, a `data:` page), except where the browser vouches for it:
 * a page of ours served with `Referrer-Policy: no-referrer` (an emailed report or unsubscribe link, whose
 * address is the key) makes the browser send `null` on its own form posts and fetches, together with
 * `Sec-Fetch-Site: same-origin`, which no page can forge and an opaque origin never gets. `tokenRoute`: the
 * route is authorized by a token in its own address, so a forged post does nothing its sender could not
 * do with the token anyway; `null` is accepted there from browsers that send no Sec-Fetch-Site (Safari
 * before 16.4).
 */
export function isForeignOrigin(
  method: string,
  origin: string | null,
  trustedOrigins: readonly string[],
  fetchSite: string | null = null,
  { tokenRoute = false }: { tokenRoute?: boolean } = {},
): boolean {
  if (SAFE_METHODS.has(method.toUpperCase())) return false;
  const site = fetchSite?.trim().toLowerCase();
  if (site === 'cross-site') return true;
  if (origin === 'null' && (site === 'same-origin' || (tokenRoute && !site))) return false;
  return origin !== null && !trustedOrigins.includes(origin);
}
