/** Working a lead (work.ts): a person that is not a lead, or a change the rules refuse (with field messages). */
export type LeadErrorCode = 'NOT_FOUND' | 'INVALID';

export class LeadError extends Error {
  constructor(
    readonly code: LeadErrorCode,
    message: string,
    readonly fieldErrors: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'LeadError';
  }
}
