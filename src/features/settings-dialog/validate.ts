import { AUTH_MESSAGES } from '../../shared/auth-messages';
import { MIN_PASSWORD_LENGTH } from '../../shared/auth-schemas';

/** Seed section 5, checked in the seed's order: match first, then length. */
export function validateNewPassword(newPassword: string, confirmPassword: string): string | undefined {
  if (newPassword !== confirmPassword) return AUTH_MESSAGES.PASSWORDS_DO_NOT_MATCH;
  if (newPassword.length < MIN_PASSWORD_LENGTH) return AUTH_MESSAGES.PASSWORD_TOO_SHORT;
  return undefined;
}

/** Seed section 8: the error's own message, or "Failed to update password" when it has none worth showing. */
export function changePasswordFailureText(failure: { code: string; message: string; fieldErrors?: Record<string, string[]> | undefined }): string {
  const fieldText = Object.values(failure.fieldErrors ?? {}).find((v) => v[0])?.[0];
  if (fieldText) return fieldText;
  if (failure.message === AUTH_MESSAGES.UNKNOWN) return AUTH_MESSAGES.PASSWORD_UPDATE_FAILED;
  return failure.message;
}
