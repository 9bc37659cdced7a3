/**
 * Where to go after login or verification, and the flag that makes the next page show the login banner.
 * sessionStorage only: the public HTML stays identical for every visitor.
 */
import { sanitizeSitePath } from '../../shared/auth-schemas';
import { LOGIN_BANNER_FLAG } from '../login-banner/flag';
import { REDIRECT_AFTER_LOGIN_KEY } from '../navbar/login-redirect';

export { LOGIN_BANNER_FLAG };
/** Where a signed-in member with an unverified email goes (seed section 2). */
export const VERIFY_EMAIL_PATH = '/verify-email';

type Store = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

function safe<T>(fn: () => T, fallback: T): T {
  try {
    return fn();
  } catch {
    return fallback; // storage disabled: fall back to defaults
  }
}

export function savedRedirect(storage: Store): string | undefined {
  return safe(() => sanitizeSitePath(storage.getItem(REDIRECT_AFTER_LOGIN_KEY)), undefined);
}

/** The saved path (then forgotten) or the fallback. Never an auth page: that would loop. */
export function takeRedirect(storage: Store, fallback: string): string {
  const saved = savedRedirect(storage);
  safe(() => storage.removeItem(REDIRECT_AFTER_LOGIN_KEY), undefined);
  if (!saved || /^\/(auth|verify-email)(\/|\?|$)/.test(saved)) return fallback;
  return saved;
}

export function flagLoginBanner(storage: Store): void {
  safe(() => storage.setItem(LOGIN_BANNER_FLAG, '1'), undefined);
}

/** Seed: verified members continue to the saved path or /dashboard; admins to "/" until /admin/content exists. */
export function afterVerificationPath(storage: Store, role: 'user' | 'admin'): string {
  return takeRedirect(storage, role === 'admin' ? '/' : '/dashboard');
}
