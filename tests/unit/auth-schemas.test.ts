import { describe, expect, it } from 'vitest';
import { authMessage, tooManyAttemptsMessage } from '../../src/shared/auth-messages';
import { changePasswordSchema, fieldErrorsOf, profileSchema, sanitizeSitePath, signUpSchema } from '../../src/shared/auth-schemas';

const errorsOf = (schema: { safeParse(v: unknown): { success: boolean; error?: unknown } }, value: unknown) => {
  const r = schema.safeParse(value);
  return r.success ? {} : fieldErrorsOf(r.error as never);
};

describe('change-password rules (seed section 5)', () => {
  it('requires both fields, a match and at least 6 characters, with the seed\'s texts', () => {
    expect(errorsOf(changePasswordSchema, { newPassword: 'abcdef', confirmPassword: 'abcdeg' })).toEqual({
      confirmPassword: ['Passwords do not match'],
    });
    expect(errorsOf(changePasswordSchema, { newPassword: 'abc', confirmPassword: 'abc' }).newPassword).toEqual([
      'Password must be at least 6 characters long',
    ]);
    expect(Object.keys(errorsOf(changePasswordSchema, {}))).toEqual(['newPassword', 'confirmPassword']);
    expect(changePasswordSchema.safeParse({ newPassword: 'abcdef', confirmPassword: 'abcdef' }).success).toBe(true);
  });
});

describe('sign-up and profile normalization', () => {
  it('trims fields, lowercases the email and drops blank phone/website', () => {
    const parsed = signUpSchema.parse({
      firstName: ' Ada ',
      lastName: ' Lovelace ',
      email: ' ADA@Example.COM ',
      password: 'secret1',
      phone: '   ',
      website: ' example.com ',
    });
    expect(parsed).toMatchObject({ firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com', website: 'https://example.com' });
    expect(parsed.phone).toBeUndefined();
  });

  it('keeps only same-site paths as signupSource', () => {
    expect(sanitizeSitePath('/packages/growth?x=1')).toBe('/packages/growth?x=1');
    for (const bad of ['https://evil.example/', '//evil.example', '/\\evil', 'packages', '/a\u0000b', 42]) {
      expect(sanitizeSitePath(bad)).toBeUndefined();
    }
  });

  it('profile edits refuse unknown fields such as role', () => {
    expect(errorsOf(profileSchema, { firstName: 'A', lastName: 'B', role: 'admin' })).toEqual({ role: ['This field cannot be set'] });
  });
});

describe('messages', () => {
  it('maps provider codes to the product\'s texts', () => {
    expect(authMessage('INVALID_EMAIL_OR_PASSWORD')).toBe('Invalid email or password');
    expect(authMessage('USER_NOT_FOUND')).toBe('Invalid email or password');
    expect(authMessage('TOKEN_EXPIRED')).toBe(authMessage('INVALID_TOKEN'));
    expect(authMessage('INVALID_TOKEN')).toMatch(/^This link has expired or is invalid/);
    expect(authMessage('UNAUTHORIZED')).toBe('No user logged in');
    expect(authMessage('EMAIL_NOT_VERIFIED')).toBe('Email not verified yet');
    expect(authMessage('SOMETHING_NEW')).toBe('Something went wrong. Please try again.');
  });

  it('says when to retry after too many attempts', () => {
    expect(tooManyAttemptsMessage(1)).toBe('Too many attempts. Please try again in 1 second.');
    expect(tooManyAttemptsMessage(42)).toBe('Too many attempts. Please try again in 42 seconds.');
    expect(tooManyAttemptsMessage(300)).toBe('Too many attempts. Please try again in 5 minutes.');
  });
});
