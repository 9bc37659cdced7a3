/**
 * The admin inbox's rules (/admin/chat-settings): its URL state (`?status=open|handled|all&page=`), how a
 * live change of one conversation moves the rows of the list being looked at, and the words for a row.
 * Pure and browser-safe: the page renders with them and the live island applies them to each event.
 */
import type { InboxConversationDto } from './chat';

export const INBOX_FILTERS = ['open', 'handled', 'all'] as const;
export type InboxFilter = (typeof INBOX_FILTERS)[number];
export const INBOX_FILTER_LABELS: Record<InboxFilter, string> = { open: 'Open', handled: 'Handled', all: 'All' };

export interface InboxQuery {
  status: InboxFilter;
  page: number;
}

/** The inbox's state from the URL; anything unreadable gives the default (open conversations, page 1). */
export function inboxQueryOf(params: URLSearchParams): InboxQuery {
  const status = params.get('status');
  const page = Number(params.get('page'));
  return {
    status: (INBOX_FILTERS as readonly string[]).includes(status ?? '') ? (status as InboxFilter) : 'open',
    page: Number.isInteger(page) && page >= 1 && page <= 10_000 ? page : 1,
  };
}

/** `?status=…&page=…` without the defaults, so each view has one URL ('' for open conversations, page 1). */
export function inboxSearch(query: Partial<InboxQuery>): string {
  const params = new URLSearchParams();
  if (query.status && query.status !== 'open') params.set('status', query.status);
  if (query.page && query.page > 1) params.set('page', String(query.page));
  const qs = params.toString();
  return qs ? `?${qs}` : '';
}

export const matchesInboxFilter = (c: Pick<InboxConversationDto, 'status'>, filter: InboxFilter) => filter === 'all' || c.status === filter;

const newestFirst = (a: InboxConversationDto, b: InboxConversationDto) => b.lastMessageAt.localeCompare(a.lastMessageAt) || b.id.localeCompare(a.id);

/** A copy of a conversation read before the one shown: its last activity is older. */
const isOlderCopy = (copy: Pick<InboxConversationDto, 'lastMessageAt'>, shown: Pick<InboxConversationDto, 'lastMessageAt'>) => copy.lastMessageAt < shown.lastMessageAt;

/**
 * The conversation to show when a new copy of it arrives: `incoming`, unless it was read before the change
 * already shown (an action's answer overtaken by the live feed: a visitor's contact details arrived while
 * "mark read" was on its way back). Its last activity orders the copies; at the same time the newer copy
 * (an admin's own status change or hand-back) wins.
 */
export function fresherConversation<C extends Pick<InboxConversationDto, 'lastMessageAt'>>(current: C | undefined, incoming: C): C {
  return current && isOlderCopy(incoming, current) ? current : incoming;
}

/**
 * The rows after one conversation changed. It leaves a list it no longer matches (handled, while looking at
 * open ones); on the first page it takes its place by its last activity (a new message brings it to the
 * top) and the page keeps its size; on a later page a known row is updated where it is, and a new one is
 * left to the first page, where it belongs.
 */
export function applyInboxChange(rows: readonly InboxConversationDto[], changed: InboxConversationDto, view: InboxQuery & { perPage: number }): InboxConversationDto[] {
  const shown = rows.find((r) => r.id === changed.id);
  if (shown && isOlderCopy(changed, shown)) return [...rows]; // read before the row shown (fresherConversation)
  const known = shown !== undefined;
  const others = rows.filter((r) => r.id !== changed.id);
  if (!matchesInboxFilter(changed, view.status)) return known ? others : [...rows];
  if (view.page > 1) return known ? rows.map((r) => (r.id === changed.id ? changed : r)) : [...rows];
  return [...others, changed].sort(newestFirst).slice(0, view.perPage);
}

/** What the live region says about a change: a new visitor message, nothing for the rest. */
export function inboxAnnouncement(before: InboxConversationDto | undefined, after: InboxConversationDto): string | undefined {
  if (after.unread > (before?.unread ?? 0)) return `New message from ${after.displayName}${after.preview ? `: ${after.preview}` : ''}`;
  return undefined;
}

/** "3 unread" or "" (a row's badge). */
export const unreadLabel = (n: number) => (n > 0 ? `${n} unread` : '');

/** Where the reply goes: the open chat at once, else the visitor's email after the wait, else their next visit. */
export function replyReachText(contactEmail: string, delaySeconds: number): string {
  if (!contactEmail) return 'The visitor sees it in their chat when it is open, or when they come back (they left no email).';
  const wait = delaySeconds < 60 ? `${delaySeconds} seconds` : delaySeconds === 60 ? 'a minute' : `${Math.round(delaySeconds / 60)} minutes`;
  return `The visitor sees it at once if their chat is open; if they do not see it within ${wait}, it is emailed to ${contactEmail}.`;
}

/** How many conversations a filter holds, from the live counts (the inbox's summary follows them). */
export function inboxTotalOf(counts: { openChats: number; allChats: number }, filter: InboxFilter): number {
  if (filter === 'open') return counts.openChats;
  if (filter === 'handled') return Math.max(0, counts.allChats - counts.openChats);
  return counts.allChats;
}

/** "3 open conversations · page 1 of 2": the inbox's summary line, as rendered and as it follows the feed. */
export function inboxSummary(total: number, view: InboxQuery & { perPage: number }): string {
  const pages = Math.max(1, Math.ceil(total / view.perPage));
  const kind = view.status === 'all' ? '' : `${INBOX_FILTER_LABELS[view.status].toLowerCase()} `;
  return `${total} ${kind}${total === 1 ? 'conversation' : 'conversations'}${pages > 1 ? ` · page ${view.page} of ${pages}` : ''}`;
}
