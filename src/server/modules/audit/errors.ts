/** The free audit's service errors: the code gives the HTTP status, the message reaches the admin. */
export type AuditErrorCode = 'NOT_FOUND' | 'INVALID' | 'CONFLICT';

export class AuditError extends Error {
  constructor(
    readonly code: AuditErrorCode,
    message: string,
    readonly fieldErrors: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'AuditError';
  }
}
