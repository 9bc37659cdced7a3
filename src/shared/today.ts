/**
 * The overview's Today (issue 35): what waits for the owner, in four short lists. The server reads the
 * rows (src/server/modules/today) and turns them into items ready to show (names, links, badges, times in
 * the site's zone), so the page's live island only draws them: the same view on the first render and on
 * each refresh (GET /api/admin/today). Pure and browser-safe, no imports.
 */

/** Items each list shows; the rest are "and N more", a link to the whole list. */
export const TODAY_LIST_LENGTH = 5;

export const TODAY_SECTIONS = ['requests', 'chats', 'followUps', 'reports'] as const;
export type TodaySectionKey = (typeof TODAY_SECTIONS)[number];

export interface TodayBadge {
  label: string;
  /** Tailwind classes of the badge (a lead stage's, or one of TODAY_BADGE_TONES). */
  className: string;
}

export interface TodayItem {
  key: string;
  href: string;
  /** The person's or visitor's name, as typed (shown as text, isolated). */
  name: string;
  /** The business, the visitor's last words, the owner: one line of context (as text). */
  detail: string;
  badges: TodayBadge[];
  /** "Received 26 Nov 2026, 10:02" (site zone) with its instant or day. */
  when: { label: string; at: string; overdue?: boolean };
}

export interface TodaySection {
  key: TodaySectionKey;
  total: number;
  items: TodayItem[];
  /** The whole list, filtered as closely as the list pages allow. */
  moreHref: string;
}

export type TodayView = Record<TodaySectionKey, TodaySection>;

/** Each list's heading, what it holds (said on the page: the rule, not a guess) and its all-clear. */
export const TODAY_TEXTS: Record<TodaySectionKey, { title: string; rule: string; empty: string; more: string }> = {
  requests: {
    title: 'Requests waiting for a report',
    rule: 'Audit requests with no report sent yet, of people who are no client and not a fit, the longest waiting first.',
    empty: 'All clear: every open request has its report.',
    more: 'All requests waiting for a report',
  },
  chats: {
    title: 'Unanswered chats',
    rule: 'Open chats with visitor messages nobody on the team has read yet, or where the visitor wrote last. Newest first: they may still be on the site.',
    empty: 'All clear: no visitor is waiting for an answer.',
    more: 'All open conversations',
  },
  followUps: {
    title: 'Follow-ups due',
    rule: 'Leads whose follow-up day is today or past, in the site’s time zone, soonest first.',
    empty: 'All clear: no follow-up is due today. Set one on a lead’s page; it shows here on the day.',
    more: 'All leads due',
  },
  reports: {
    title: 'Reports opened, no reply yet',
    rule: 'Reports the person opened with nothing from the team since: no email written to them, no chat reply, no call booked, no stage change and not marked as replied (automatic sequence emails do not count). Latest opening first.',
    empty: 'All clear: everyone who opened their report has heard from you since.',
    more: 'Everyone who opened a report',
  },
};

export const TODAY_BADGE_TONES = {
  brand: 'rounded-full bg-brand-600 px-2 py-0.5 text-xs font-semibold text-white',
  amber: 'rounded-full bg-amber-100 px-2 py-0.5 text-xs font-semibold text-amber-900',
  slate: 'rounded-full bg-slate-100 px-2 py-0.5 text-xs font-semibold text-slate-700',
  green: 'rounded-full bg-green-100 px-2 py-0.5 text-xs font-semibold text-green-900',
} as const;

/** What a request's website check says beside it. */
export function checkBadge(r: { website: string; checkStatus: string | null; score: number | null }): TodayBadge {
  if (r.score !== null) return { label: `Website check ${r.score}/100`, className: r.score >= 70 ? TODAY_BADGE_TONES.green : TODAY_BADGE_TONES.amber };
  if (!r.website || r.checkStatus === null) return { label: 'No website to check', className: TODAY_BADGE_TONES.slate };
  if (r.checkStatus === 'queued' || r.checkStatus === 'running') return { label: 'Website check running', className: TODAY_BADGE_TONES.slate };
  if (r.checkStatus === 'failed') return { label: 'Website check failed', className: TODAY_BADGE_TONES.amber };
  return { label: 'Website check without a score', className: TODAY_BADGE_TONES.slate };
}

/** "and 3 more" ('' when all are shown). */
export const moreLabel = (s: Pick<TodaySection, 'total' | 'items'>) => (s.total > s.items.length ? `and ${s.total - s.items.length} more` : '');
