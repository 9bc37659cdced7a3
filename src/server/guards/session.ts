/**
 * The session for a guarded request, read only when the better-auth cookie is there: visitors (no
 * cookie) never cost a database query, and public pages never read it at all.
 */
import { COOKIE_PREFIX } from '../auth/constants';
import { logger } from '../logger';

export interface RequestUser {
  id: string;
  email: string;
  name: string;
  firstName: string;
  lastName: string;
  role: 'user' | 'admin';
  emailVerified: boolean;
}

export interface RequestSession {
  id: string;
  expiresAt: Date;
}

/** `agency.session_token`, or `__Secure-agency.session_token` when the site is served over HTTPS. */
const SESSION_COOKIE = new RegExp(`(?:^|;\\s*)(?:__Secure-)?${COOKIE_PREFIX.replace(/\./g, '\\.')}\\.session_token=[^;]`);

export function hasSessionCookie(cookieHeader: string | null): boolean {
  return cookieHeader !== null && SESSION_COOKIE.test(cookieHeader);
}

const str = (v: unknown) => (typeof v === 'string' ? v : '');

/** better-auth's getSession result → the fields pages, guards and Actions use. */
export function toRequestUser(raw: Record<string, unknown>): RequestUser {
  return {
    id: str(raw.id),
    email: str(raw.email),
    name: str(raw.name),
    firstName: str(raw.firstName),
    lastName: str(raw.lastName),
    role: raw.role === 'admin' ? 'admin' : 'user',
    emailVerified: raw.emailVerified === true,
  };
}

type GetSession = (headers: Headers) => Promise<{ user: object; session: { id: string; expiresAt: Date } } | null>;

/** A disabled account: banned with no end date, or an end date still ahead. */
export function isDisabledAccount(raw: Record<string, unknown>, now = Date.now()): boolean {
  if (raw.banned !== true) return false;
  const ends = raw.banExpires == null ? undefined : new Date(raw.banExpires as string | Date).getTime();
  return ends === undefined || Number.isNaN(ends) || ends > now;
}

/** Null for no cookie, an unknown/expired/banned session, or a failed lookup (logged; treated as signed out). */
export async function readSession(headers: Headers, getSession: GetSession): Promise<{ user: RequestUser; session: RequestSession } | null> {
  if (!hasSessionCookie(headers.get('cookie'))) return null;
  try {
    const found = await getSession(headers);
    if (!found || isDisabledAccount(found.user as Record<string, unknown>)) return null;
    return { user: toRequestUser(found.user as Record<string, unknown>), session: { id: found.session.id, expiresAt: found.session.expiresAt } };
  } catch (err) {
    logger.error({ err }, 'session lookup failed');
    return null;
  }
}
