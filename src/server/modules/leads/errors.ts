/**
 * Working a lead (work.ts): a person that is not a lead, a change the rules refuse (with field messages), or
 * one the person's state no longer allows (a sequence that has ended).
 */
export type LeadErrorCode = 'NOT_FOUND' | 'INVALID' | 'CONFLICT';

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
