/** UsersError → ActionError: the service's message reaches the member; the code gives the HTTP status. */
import { ActionError, type ActionErrorCode } from 'astro:actions';
import { UsersError, type UsersErrorCode } from '../server/modules/users/service';

const ACTION_CODES: Record<UsersErrorCode, ActionErrorCode> = {
  NO_USER_LOGGED_IN: 'UNAUTHORIZED',
  NOT_ALLOWED: 'FORBIDDEN',
  CANNOT_DISABLE_SELF: 'FORBIDDEN',
  NOT_FOUND: 'NOT_FOUND',
  NOT_VERIFIED: 'CONFLICT',
  LAST_ADMIN: 'CONFLICT',
  CLAIM_INVALID: 'BAD_REQUEST',
  ADMIN_EXISTS: 'CONFLICT',
};

/** ActionErrors pass through; anything else that is not a UsersError is rethrown (Astro answers a 500). */
export function toActionError(err: unknown): never {
  if (err instanceof UsersError) throw new ActionError({ code: ACTION_CODES[err.code], message: err.message });
  throw err;
}
