/**
 * What a member reads when an account action fails or succeeds. The server answers with a stable `code`;
 * this maps codes to text (seed sections 5 and 8, PRODUCT.md "Accounts"), so a dependency's wording never
 * reaches the user. Shared by the API (its `message` field) and the forms.
 */

export const AUTH_MESSAGES = {
  // Seed texts, verbatim.
  PASSWORDS_DO_NOT_MATCH: 'Passwords do not match',
  PASSWORD_TOO_SHORT: 'Password must be at least 6 characters long',
  PASSWORD_UPDATED: 'Password updated successfully!',
  SESSION_NOT_FRESH: 'For security reasons, please log out and log back in before changing your password.',
  PASSWORD_UPDATE_FAILED: 'Failed to update password',
  NO_USER_LOGGED_IN: 'No user logged in',
  EMAIL_NOT_VERIFIED: 'Email not verified yet',
  // PRODUCT.md: one generic text for wrong password and unknown user, so accounts cannot be probed.
  INVALID_EMAIL_OR_PASSWORD: 'Invalid email or password',
  INVALID_EMAIL: 'Please enter a valid email address',
  EMAIL_IN_USE: 'An account with this email already exists',
  INVALID_LINK: 'This link has expired or is invalid. Please request a new one.',
  INVALID_INPUT: 'Please correct the highlighted fields.',
  PASSWORD_TOO_LONG: 'Password must be at most 128 characters long',
  ACCOUNT_DISABLED: 'This account has been disabled. Please contact us if you think this is a mistake.',
  EMAIL_ALREADY_VERIFIED: 'Your email is already verified.',
  VERIFICATION_SENT: 'We sent you a new verification link.',
  RESET_SENT: 'If an account exists for this email, we sent a link to reset the password.',
  PASSWORD_RESET: 'Your password has been reset. You can now log in.',
  REQUEST_TOO_LARGE: 'The request is too large.',
  FORBIDDEN_ORIGIN: 'This request was blocked because it did not come from this site.',
  NETWORK: 'Network error: please check your connection and try again.',
  UNKNOWN: 'Something went wrong. Please try again.',
} as const;

export type AuthMessageCode = keyof typeof AUTH_MESSAGES;

/** Codes better-auth (and our endpoints) answer with → our message codes. */
const CODE_ALIASES: Record<string, AuthMessageCode> = {
  INVALID_EMAIL_OR_PASSWORD: 'INVALID_EMAIL_OR_PASSWORD',
  USER_NOT_FOUND: 'INVALID_EMAIL_OR_PASSWORD',
  INVALID_PASSWORD: 'INVALID_EMAIL_OR_PASSWORD',
  CREDENTIAL_ACCOUNT_NOT_FOUND: 'INVALID_EMAIL_OR_PASSWORD',
  INVALID_EMAIL: 'INVALID_EMAIL',
  EMAIL_NOT_VERIFIED: 'EMAIL_NOT_VERIFIED',
  USER_ALREADY_EXISTS: 'EMAIL_IN_USE',
  USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL: 'EMAIL_IN_USE',
  INVALID_TOKEN: 'INVALID_LINK',
  TOKEN_EXPIRED: 'INVALID_LINK',
  INVALID_LINK: 'INVALID_LINK',
  PASSWORD_TOO_SHORT: 'PASSWORD_TOO_SHORT',
  PASSWORD_TOO_LONG: 'PASSWORD_TOO_LONG',
  PASSWORDS_DO_NOT_MATCH: 'PASSWORDS_DO_NOT_MATCH',
  SESSION_NOT_FRESH: 'SESSION_NOT_FRESH',
  SESSION_EXPIRED: 'SESSION_NOT_FRESH',
  UNAUTHORIZED: 'NO_USER_LOGGED_IN',
  NO_USER_LOGGED_IN: 'NO_USER_LOGGED_IN',
  BANNED_USER: 'ACCOUNT_DISABLED',
  ACCOUNT_DISABLED: 'ACCOUNT_DISABLED',
  EMAIL_ALREADY_VERIFIED: 'EMAIL_ALREADY_VERIFIED',
  INVALID_INPUT: 'INVALID_INPUT',
  VALIDATION_ERROR: 'INVALID_INPUT',
  BAD_REQUEST: 'INVALID_INPUT',
  PAYLOAD_TOO_LARGE: 'REQUEST_TOO_LARGE',
  FORBIDDEN_ORIGIN: 'FORBIDDEN_ORIGIN',
  INVALID_ORIGIN: 'FORBIDDEN_ORIGIN',
  MISSING_OR_NULL_ORIGIN: 'FORBIDDEN_ORIGIN',
  CROSS_SITE_NAVIGATION_LOGIN_BLOCKED: 'FORBIDDEN_ORIGIN',
  PASSWORD_UPDATE_FAILED: 'PASSWORD_UPDATE_FAILED',
};

export function messageCodeFor(code: string | undefined): AuthMessageCode {
  // Own keys only: a code such as "__proto__" or "constructor" from a URL must not find Object's members.
  return code && Object.hasOwn(CODE_ALIASES, code) ? CODE_ALIASES[code]! : 'UNKNOWN';
}

/** The text for an error code from the API or a `?error=` link parameter. */
export function authMessage(code: string | undefined): string {
  return AUTH_MESSAGES[messageCodeFor(code)];
}

/** "Too many attempts" with when to retry, from the server's retryAfter seconds. */
export function tooManyAttemptsMessage(retryAfterSeconds: number): string {
  const s = Math.max(1, Math.ceil(retryAfterSeconds));
  const when = s < 60 ? `${s} second${s === 1 ? '' : 's'}` : `${Math.ceil(s / 60)} minute${Math.ceil(s / 60) === 1 ? '' : 's'}`;
  return `Too many attempts. Please try again in ${when}.`;
}
