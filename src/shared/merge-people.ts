/**
 * Merging two people (issue 39): what moves from the other address, in the words the confirmation uses, and
 * how the two working states combine. Pure rules, shared by the server and the person page.
 */
import { countedLines } from './plural';
import type { LeadStage } from './schemas/lead-work';

export interface MergedCounts {
  leadEvents: number;
  auditRequests: number;
  conversations: number;
  notes: number;
  bookings: number;
  sequenceEnrolments: number;
}

const NOUNS: Record<keyof MergedCounts, [one: string, many: string]> = {
  leadEvents: ['lead event', 'lead events'],
  auditRequests: ['audit request', 'audit requests'],
  conversations: ['chat conversation', 'chat conversations'],
  notes: ['team note', 'team notes'],
  bookings: ['booked call', 'booked calls'],
  sequenceEnrolments: ['follow-up sequence enrolment', 'follow-up sequence enrolments'],
};

export const mergedLines = (counts: MergedCounts): string[] => countedLines(counts, NOUNS);

export interface WorkState {
  stage: LeadStage | string;
  ownerId: string | null;
  followUpOn: string | null;
  repliedAt: Date | null;
}

/**
 * The merged person's stage, owner, follow-up and "replied": the kept person's where they have one (a stage
 * past "New"), else the other's; the sooner follow-up day; replied if either did.
 */
export function combinedWork(keep: WorkState | undefined, other: WorkState | undefined): WorkState {
  const days = [keep?.followUpOn, other?.followUpOn].filter((d): d is string => Boolean(d)).sort();
  return {
    stage: keep && keep.stage !== 'new' ? keep.stage : (other?.stage ?? keep?.stage ?? 'new'),
    ownerId: keep?.ownerId ?? other?.ownerId ?? null,
    followUpOn: days[0] ?? null,
    repliedAt: keep?.repliedAt ?? other?.repliedAt ?? null,
  };
}
