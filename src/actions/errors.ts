/**
 * Service errors → ActionErrors: the service's message reaches the user; the code gives the HTTP status.
 * Field problems found on the server (a slug already taken) come back in the shape of Astro's input
 * errors, so a form shows them beside the field exactly like the schema's own.
 */
import { ActionError, type ActionErrorCode } from 'astro:actions';
import { AuditError } from '../server/modules/audit/service';
import { ContentError, type ContentErrorCode } from '../server/modules/content/errors';
import { LeadError } from '../server/modules/leads/errors';
import { UsersError, type UsersErrorCode } from '../server/modules/users/service';

const USERS_CODES: Record<UsersErrorCode, ActionErrorCode> = {
  NO_USER_LOGGED_IN: 'UNAUTHORIZED',
  NOT_ALLOWED: 'FORBIDDEN',
  CANNOT_DISABLE_SELF: 'FORBIDDEN',
  NOT_FOUND: 'NOT_FOUND',
  NOT_VERIFIED: 'CONFLICT',
  LAST_ADMIN: 'CONFLICT',
  CLAIM_INVALID: 'BAD_REQUEST',
  ADMIN_EXISTS: 'CONFLICT',
  NOT_ADMIN: 'FORBIDDEN',
  NOT_ADMIN_EMAIL: 'FORBIDDEN',
};

const CONTENT_CODES: Record<ContentErrorCode, ActionErrorCode> = {
  NOT_FOUND: 'NOT_FOUND',
  INVALID: 'BAD_REQUEST',
  CONFLICT: 'CONFLICT',
  UNKNOWN_TYPE: 'BAD_REQUEST',
};

/**
 * Astro's ActionInputError is not exported to server code; the client recognises one by its shape
 * (`type` and `issues`), which survives serialization.
 */
function inputError(fieldErrors: Record<string, string>, pathPrefix: readonly string[]): ActionError {
  const issues = Object.entries(fieldErrors).map(([path, message]) => ({
    code: 'custom',
    path: [...pathPrefix, ...path.split('.').map((p) => (/^\d+$/.test(p) ? Number(p) : p))],
    message,
  }));
  const error = new ActionError({ code: 'BAD_REQUEST', message: 'Please correct the highlighted fields.' });
  return Object.assign(error, { type: 'AstroActionInputError', issues, fields: {} });
}

/** ActionErrors pass through; anything that is not one of our services' errors is rethrown (a 500). */
export function toActionError(err: unknown, fieldPathPrefix: readonly string[] = []): never {
  if (err instanceof UsersError) throw new ActionError({ code: USERS_CODES[err.code], message: err.message });
  if (err instanceof AuditError || err instanceof LeadError) {
    if (err.code === 'INVALID') throw inputError(err.fieldErrors, fieldPathPrefix);
    throw new ActionError({ code: err.code, message: err.message });
  }
  if (err instanceof ContentError) {
    if (err.code === 'INVALID') throw inputError(err.fieldErrors, fieldPathPrefix);
    throw new ActionError({ code: CONTENT_CODES[err.code], message: err.message });
  }
  throw err;
}
