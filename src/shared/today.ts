/**
 * The overview's Today (issue 35): what waits for the owner, in four short lists, as the server sends them
 * to the page and to its live refresh (GET /api/admin/today). Times are ISO strings. Pure and browser-safe.
 */
import type { InboxConversationDto } from './chat';
import { auditListSearch } from './schemas/audit';
import { inboxSearch } from './chat-inbox';
import { peopleSearch } from './lead-people';

/** Items each list shows; the rest are "and N more", a link to the whole list. */
export const TODAY_LIST_LENGTH = 5;

export interface TodayList<T> {
  rows: T[];
  total: number;
}

export interface TodayRequest {
  id: string;
  createdAt: string;
  fullName: string;
  businessName: string;
  website: string;
  checkStatus: string | null;
  score: number | null;
}

export interface TodayFollowUp {
  email: string;
  name: string;
  followUpOn: string;
  stage: string;
  ownerName: string | null;
}

export interface TodayOpenedReport {
  email: string;
  requestId: string;
  fullName: string;
  businessName: string;
  openedAt: string;
  openings: number;
}

export interface Today {
  /** The site's day ("2026-11-26"): follow-ups on it are due today, before it overdue. */
  day: string;
  requests: TodayList<TodayRequest>;
  chats: TodayList<InboxConversationDto>;
  followUps: TodayList<TodayFollowUp>;
  reports: TodayList<TodayOpenedReport>;
}

/** Where each list's "and N more" leads: the whole list, filtered as closely as the list pages allow. */
export const TODAY_MORE_HREFS = {
  requests: `/admin/audit${auditListSearch({ report: 'waiting' })}`,
  chats: `/admin/chat-settings${inboxSearch({ status: 'open' })}`,
  followUps: `/admin/leads${peopleSearch({ due: true, sort: 'follow-up' })}`,
  reports: `/admin/leads${peopleSearch({ kind: 'report-opened' })}`,
} as const;

/** What a request's website check says beside it. */
export function checkLabel(r: Pick<TodayRequest, 'website' | 'checkStatus' | 'score'>): string {
  if (r.score !== null) return `Website check ${r.score}/100`;
  if (!r.website || r.checkStatus === null) return 'No website to check';
  if (r.checkStatus === 'queued' || r.checkStatus === 'running') return 'Website check running';
  if (r.checkStatus === 'failed') return 'Website check failed';
  return 'Website check without a score';
}

/** "and 3 more" (nothing when all are shown). */
export const moreLabel = (list: TodayList<unknown>) => (list.total > list.rows.length ? `and ${list.total - list.rows.length} more` : '');
