/**
 * Seed: "Log in (stores the current path in session storage for redirect after login)". The sign-in
 * flow reads this key after a successful login.
 */
export const REDIRECT_AFTER_LOGIN_KEY = 'redirectAfterLogin';

/** The path to come back to: path and query of the current page; never the auth pages themselves. */
export function redirectPathFor(location: { pathname: string; search: string }): string {
  if (location.pathname === '/auth' || location.pathname === '/verify-email') return '/';
  return `${location.pathname}${location.search}`;
}

export function rememberPathBeforeLogin(storage: Pick<Storage, 'setItem'>, location: { pathname: string; search: string }) {
  try {
    storage.setItem(REDIRECT_AFTER_LOGIN_KEY, redirectPathFor(location));
  } catch {
    // Storage can be disabled (private modes, strict settings): login still works, it just lands on the default page.
  }
}
