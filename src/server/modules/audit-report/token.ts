/**
 * The private link of a sent report: 32 random bytes (base64url), of which the database keeps only the
 * SHA-256. A copy of the database cannot open a report, and a guess has 2^256 to choose from.
 */
import { createHash, randomBytes } from 'node:crypto';
import { REPORT_TOKEN_PATTERN } from '../../../shared/schemas/audit-report';

export function newReportToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashReportToken(token) };
}

export const hashReportToken = (token: string): string => createHash('sha256').update(token).digest('hex');

/** Only a well-formed token is looked up; anything else is simply not a report. */
export const isReportToken = (token: string | undefined): token is string => token !== undefined && REPORT_TOKEN_PATTERN.test(token);
