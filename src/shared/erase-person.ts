/**
 * Erasing a person (issue 39): what goes, by kind, in the words the confirmation and the result use. One
 * list, so the dialog names every kind the server counts.
 */
import { countedLines } from './plural';

export interface ErasedCounts {
  auditRequests: number;
  websiteChecks: number;
  reports: number;
  conversations: number;
  chatMessages: number;
  leadEvents: number;
  notes: number;
  mails: number;
  sequenceEnrolments: number;
  bookings: number;
  pageViews: number;
  memberAccount: number;
}

const NOUNS: Record<keyof ErasedCounts, [one: string, many: string]> = {
  auditRequests: ['audit request', 'audit requests'],
  websiteChecks: ['website check', 'website checks'],
  reports: ['sent report (its link will answer “not found”)', 'sent reports (their links will answer “not found”)'],
  conversations: ['chat conversation', 'chat conversations'],
  chatMessages: ['chat message', 'chat messages'],
  leadEvents: ['lead event', 'lead events'],
  notes: ['team note', 'team notes'],
  mails: ['email to them or naming them (sent or queued)', 'emails to them or naming them (sent or queued)'],
  sequenceEnrolments: ['follow-up sequence enrolment', 'follow-up sequence enrolments'],
  bookings: ['booked call', 'booked calls'],
  pageViews: ['page view of their member account', 'page views of their member account'],
  memberAccount: ['member account (they are signed out)', 'member accounts'],
};

/** "2 audit requests", … for each kind with something to erase, in a fixed order. */
export const erasedLines = (counts: ErasedCounts): string[] => countedLines(counts, NOUNS);

/** What an erase keeps, said the same way wherever it is said. */
export const ERASE_KEEPS = [
  'One activity entry with the number of records erased and a one-way hash of the address (no name, no address), so a later import does not bring them back.',
  'Their unsubscribe, under the same hash: no follow-up sequence ever emails the address again.',
] as const;
