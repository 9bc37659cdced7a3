import { describe, expect, it } from 'vitest';
import { accountLabel } from '../../src/features/account-menu/account-area';
import { ADMIN_NAV_LINKS } from '../../src/shared/navigation';
import { AUTH_TIMEOUT_DESKTOP_MS, AUTH_TIMEOUT_MOBILE_MS, authTimeoutMs, firstErrors, toFailure } from '../../src/features/auth/api';
import { afterVerificationPath, savedRedirect, takeRedirect } from '../../src/features/auth/redirect';
import { changePasswordFailureText, validateNewPassword } from '../../src/features/settings-dialog/validate';
import { AUTH_MESSAGES } from '../../src/shared/auth-messages';

function memoryStorage(initial: Record<string, string> = {}) {
  const data = new Map(Object.entries(initial));
  return {
    data,
    getItem: (k: string) => data.get(k) ?? null,
    setItem: (k: string, v: string) => void data.set(k, v),
    removeItem: (k: string) => void data.delete(k),
  };
}

describe('auth requests', () => {
  it('time out after 30 s on desktop and 60 s below 768 px', () => {
    expect(AUTH_TIMEOUT_DESKTOP_MS).toBe(30_000);
    expect(AUTH_TIMEOUT_MOBILE_MS).toBe(60_000);
    expect(authTimeoutMs(1280)).toBe(30_000);
    expect(authTimeoutMs(768)).toBe(30_000);
    expect(authTimeoutMs(767)).toBe(60_000);
    expect(authTimeoutMs(390)).toBe(60_000);
  });

  it('map error codes to our texts, never the provider wording', () => {
    expect(toFailure(401, { code: 'INVALID_EMAIL_OR_PASSWORD', message: 'x' }).message).toBe(AUTH_MESSAGES.INVALID_EMAIL_OR_PASSWORD);
    expect(toFailure(401, { code: 'USER_NOT_FOUND', message: 'User not found' }).message).toBe(AUTH_MESSAGES.INVALID_EMAIL_OR_PASSWORD);
    expect(toFailure(403, { code: 'SESSION_NOT_FRESH' }).message).toBe(AUTH_MESSAGES.SESSION_NOT_FRESH);
    expect(toFailure(400, { code: 'INVALID_TOKEN' }).message).toBe(AUTH_MESSAGES.INVALID_LINK);
    expect(toFailure(500, 'not json').message).toBe(AUTH_MESSAGES.UNKNOWN);
  });

  it('429 says when to retry; unverified sign-in flags needsVerification; field errors pass through', () => {
    expect(toFailure(429, { code: 'TOO_MANY_REQUESTS', retryAfter: 42 })).toMatchObject({ message: 'Too many attempts. Please try again in 42 seconds.', retryAfter: 42 });
    expect(toFailure(429, {}).message).toBe('Too many attempts. Please try again in 1 minute.');
    expect(toFailure(403, { code: 'EMAIL_NOT_VERIFIED' })).toMatchObject({ needsVerification: true, message: 'Email not verified yet' });
    const f = toFailure(400, { code: 'INVALID_INPUT', fieldErrors: { firstName: ['First name is required', 'other'] } });
    expect(firstErrors(f.fieldErrors)).toEqual({ firstName: 'First name is required' });
  });
});

describe('redirect after login', () => {
  it('takes the saved path once, refusing other sites and the auth pages', () => {
    const s = memoryStorage({ redirectAfterLogin: '/services?x=1' });
    expect(takeRedirect(s, '/')).toBe('/services?x=1');
    expect(takeRedirect(s, '/')).toBe('/');
    expect(takeRedirect(memoryStorage({ redirectAfterLogin: '//evil.example' }), '/')).toBe('/');
    expect(takeRedirect(memoryStorage({ redirectAfterLogin: 'https://evil.example/' }), '/')).toBe('/');
    expect(takeRedirect(memoryStorage({ redirectAfterLogin: '/auth' }), '/')).toBe('/');
    expect(savedRedirect(memoryStorage({ redirectAfterLogin: '/packages' }))).toBe('/packages');
  });

  it('after verification: the saved path, else /dashboard for members and "/" for admins', () => {
    expect(afterVerificationPath(memoryStorage(), 'user')).toBe('/dashboard');
    expect(afterVerificationPath(memoryStorage(), 'admin')).toBe('/');
    expect(afterVerificationPath(memoryStorage({ redirectAfterLogin: '/packages' }), 'user')).toBe('/packages');
  });

  it('survives disabled storage', () => {
    const broken = { getItem: () => { throw new Error('denied'); }, setItem: () => { throw new Error('denied'); }, removeItem: () => { throw new Error('denied'); } };
    expect(takeRedirect(broken, '/')).toBe('/');
  });
});

describe('change password (seed section 5 and 8)', () => {
  it('match first, then length', () => {
    expect(validateNewPassword('abcdef', 'abcdeg')).toBe('Passwords do not match');
    expect(validateNewPassword('abc', 'abc')).toBe('Password must be at least 6 characters long');
    expect(validateNewPassword('abcdef', 'abcdef')).toBeUndefined();
  });

  it('server errors: the recent-login text, field messages, else "Failed to update password"', () => {
    expect(changePasswordFailureText(toFailure(403, { code: 'SESSION_NOT_FRESH' }))).toBe(
      'For security reasons, please log out and log back in before changing your password.',
    );
    expect(changePasswordFailureText(toFailure(400, { code: 'INVALID_INPUT', fieldErrors: { newPassword: ['Password must be at most 128 characters long'] } }))).toBe(
      'Password must be at most 128 characters long',
    );
    expect(changePasswordFailureText(toFailure(500, {}))).toBe('Failed to update password');
    expect(changePasswordFailureText(toFailure(401, { code: 'UNAUTHORIZED' }))).toBe('No user logged in');
  });
});

describe('navbar account states', () => {
  it('name (or email) with the role in brackets; the admin menu of the seed, its chat page named for the inbox (decision 031)', () => {
    const user = { id: '1', email: 'a@example.com', name: '', firstName: 'Ada', lastName: 'Lovelace', role: 'admin' as const, emailVerified: true };
    expect(accountLabel(user)).toBe('Ada Lovelace (admin)');
    expect(accountLabel({ ...user, firstName: '', lastName: '', role: 'user' })).toBe('a@example.com (user)');
    expect(ADMIN_NAV_LINKS.map((l) => l.label)).toEqual(['Content', 'Users', 'Chat', 'SEO', 'Landing Page', 'Audit']);
  });
});
