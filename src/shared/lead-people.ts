/**
 * Leads by person (PRODUCT.md "Leads in one place"): the person key in admin URLs, the list's URL state,
 * and the timeline's merge, paging and grouping rules. Pure: no server imports.
 */
import { ADMIN_LIST_PER_PAGE } from './admin-list';
import { dayKeyIn, formatDay } from './dates';
import { isLeadKind, type LeadKind } from './lead-events';
import { isLeadStage, type LeadStage } from './schemas/lead-work';

/** One lead event of a kind, as a row of the list names it. */
export const LEAD_KIND_ONE: Record<LeadKind, string> = {
  'audit-request': 'Audit request',
  'chat-lead': 'Chat lead',
  'sign-up': 'Sign-up',
  'book-call': 'Book-a-call click',
  'call-booked': 'Call booked',
  'report-opened': 'Report opened',
};

// ---------------------------------------------------------------------------------------------------------
// The person key: a person is a lower-cased email, and their page's URL carries it as base64url, so the
// address is not in clear text in access logs or in the Referer of links followed from the page.

const MAX_EMAIL = 320;
/** The base64url of MAX_EMAIL bytes, rounded up. */
const MAX_KEY = Math.ceil((MAX_EMAIL * 4) / 3);

export const normalizeEmail = (email: string) => email.trim().toLowerCase();

function toBase64Url(bytes: Uint8Array): string {
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

export function personKeyOf(email: string): string {
  return toBase64Url(new TextEncoder().encode(normalizeEmail(email)));
}

/**
 * The email a key names, or undefined for anything that is not the canonical key of a plausible address
 * (wrong alphabet, padding, upper case inside, not UTF-8, no "@"): the page answers 404 to those.
 */
export function emailOfPersonKey(key: string | undefined): string | undefined {
  if (!key || key.length > MAX_KEY || !/^[A-Za-z0-9_-]+$/.test(key)) return undefined;
  let email: string;
  try {
    const binary = atob(key.replace(/-/g, '+').replace(/_/g, '/'));
    email = new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
  } catch {
    return undefined;
  }
  if (!/^[^\s@<>]+@[^\s@<>]+$/.test(email) || personKeyOf(email) !== key) return undefined;
  return email;
}

export const personHref = (email: string) => `/admin/leads/${personKeyOf(email)}`;

// ---------------------------------------------------------------------------------------------------------
// The list's URL state: ?q=&kind=&sort=&page= (anything unknown falls back to the default).

export const PEOPLE_SORTS = [
  { key: 'recent', label: 'Latest activity' },
  { key: 'first', label: 'First seen' },
  { key: 'events', label: 'Most events' },
  { key: 'follow-up', label: 'Follow-up date' },
  { key: 'score', label: 'Website score, lowest first' },
] as const;
export type PeopleSort = (typeof PEOPLE_SORTS)[number]['key'];

export const PEOPLE_PER_PAGE = ADMIN_LIST_PER_PAGE;
const MAX_SEARCH = 100;
const MAX_PAGE = 100_000;

export interface PeopleQuery {
  q: string;
  kind: LeadKind | '';
  stage: LeadStage | '';
  /** An admin's id, 'me' (the admin looking) or 'none' (nobody owns them); '' for anyone. */
  owner: string;
  /** Only people whose follow-up day has come (today or earlier, in the site's time zone). */
  due: boolean;
  sort: PeopleSort;
  page: number;
}

/** An owner filter value: 'me', 'none' or a user id (letters, digits, - and _). */
const OWNER_VALUE = /^[A-Za-z0-9_-]{1,100}$/;

export function peopleQueryOf(params: URLSearchParams): PeopleQuery {
  // Control characters never reach a LIKE pattern or the page.
  const q = (params.get('q') ?? '')
    .replace(/[\u0000-\u001f\u007f]/g, ' ')
    .trim()
    .slice(0, MAX_SEARCH);
  const kind = params.get('kind') ?? '';
  const stage = params.get('stage') ?? '';
  const owner = params.get('owner') ?? '';
  const sort = PEOPLE_SORTS.find((s) => s.key === params.get('sort'))?.key ?? 'recent';
  const raw = params.get('page') ?? '1';
  const page = /^[0-9]{1,6}$/.test(raw) && Number(raw) >= 1 && Number(raw) <= MAX_PAGE ? Number(raw) : 1;
  return {
    q,
    kind: isLeadKind(kind) ? kind : '',
    stage: isLeadStage(stage) ? stage : '',
    owner: OWNER_VALUE.test(owner) ? owner : '',
    due: params.get('due') === '1',
    sort,
    page,
  };
}

/** The list's query string (defaults left out, so links stay short). */
export function peopleSearch(query: Partial<PeopleQuery>): string {
  const params = new URLSearchParams();
  if (query.q) params.set('q', query.q);
  if (query.kind) params.set('kind', query.kind);
  if (query.stage) params.set('stage', query.stage);
  if (query.owner) params.set('owner', query.owner);
  if (query.due) params.set('due', '1');
  if (query.sort && query.sort !== 'recent') params.set('sort', query.sort);
  if (query.page && query.page > 1) params.set('page', String(query.page));
  const s = params.toString();
  return s ? `?${s}` : '';
}

// ---------------------------------------------------------------------------------------------------------
// Where a person came from: their first event's UTM values, else its referrer's host, else direct.

export interface FirstSource {
  sourcePage: string;
  referrer: string;
  utmSource: string;
  utmMedium: string;
  utmCampaign: string;
}

/** "www.example.com" of "https://www.example.com/a?b"; '' when it is not an absolute http(s) URL. */
export function referrerHostOf(referrer: string): string {
  const match = /^https?:\/\/([^/?#:@\s]+)(?=[/?#:]|$)/i.exec(referrer);
  return match ? match[1]!.toLowerCase() : '';
}

export function firstSourceLabel(s: FirstSource): string {
  const utm = [s.utmSource, s.utmMedium, s.utmCampaign].filter(Boolean);
  if (utm.length > 0) return utm.join(' / ');
  return referrerHostOf(s.referrer) || 'Direct';
}

// ---------------------------------------------------------------------------------------------------------
// The timeline: newest first. Each source (lead events, audit changes, notes, chat, mail, page time) is
// read newest first with a limit; the merge keeps only what is complete across all of them, so "Show
// older" (a cursor: everything strictly before a millisecond) never skips or repeats an entry.

export interface Timed {
  at: Date;
}

export interface SourcePage<T extends Timed> {
  /** Newest first, at most limit + 1 rows (the extra one tells that more exist). */
  rows: readonly T[];
  /** Whether the source had more rows than it returned. */
  truncated: boolean;
}

export interface MergedPage<T> {
  entries: T[];
  /** The cursor for the next page (entries strictly before it), or undefined when this is the end. */
  before: Date | undefined;
}

const ms = (e: Timed) => e.at.getTime();

/**
 * Merges the sources' pages newest first and cuts at `limit` entries, never inside one millisecond: an
 * entry is kept only when every source has returned all of its entries of that millisecond, and a cut
 * keeps all entries of the millisecond it falls in or none. Ties are ordered by `tieBreak` (stable).
 */
export function mergeTimeline<T extends Timed>(sources: readonly SourcePage<T>[], limit: number, tieBreak: (a: T, b: T) => number = () => 0): MergedPage<T> {
  // Below the newest "last returned row" of a truncated source, some rows may be missing.
  const floor = Math.max(-Infinity, ...sources.filter((s) => s.truncated && s.rows.length > 0).map((s) => ms(s.rows.at(-1)!)));
  const all = sources
    .flatMap((s) => s.rows)
    .sort((a, b) => ms(b) - ms(a) || tieBreak(a, b));
  let complete = all.filter((e) => ms(e) > floor);
  // Degenerate: one source returned more rows of a single millisecond than the limit; show them all.
  if (complete.length === 0 && Number.isFinite(floor)) complete = all.filter((e) => ms(e) === floor);
  const more = complete.length < all.length || sources.some((s) => s.truncated);
  if (complete.length <= limit) return { entries: complete, before: more && complete.length > 0 ? complete.at(-1)!.at : undefined };
  let cut = limit;
  const edge = ms(complete[limit]!);
  while (cut > 0 && ms(complete[cut - 1]!) === edge) cut -= 1;
  // The first millisecond alone is over the limit: it is shown whole.
  if (cut === 0) cut = complete.findIndex((e) => ms(e) !== edge);
  if (cut === -1) return { entries: complete, before: more ? complete.at(-1)!.at : undefined };
  const entries = complete.slice(0, cut);
  return { entries, before: entries.at(-1)!.at };
}

/** One save of a member's page time, as the timeline reads it. */
export interface PageTimeRow {
  at: Date;
  pagePath: string;
  durationMs: number;
  sessionId: string;
}

/** Consecutive saves on one page in one tab: one visit, from its first save's start, with the time summed. */
export interface PageVisit {
  at: Date;
  until: Date;
  pagePath: string;
  durationMs: number;
  saves: number;
}

/**
 * Groups page-time saves that follow each other (newest first, as the timeline lists them) into visits:
 * the same page in the same tab with nothing else in between. `row.at` is when the measured stretch began.
 */
export function groupPageVisits<T>(items: readonly T[], pageTimeOf: (item: T) => PageTimeRow | undefined): (T | PageVisit)[] {
  const out: (T | PageVisit)[] = [];
  let open: { visit: PageVisit; sessionId: string } | undefined;
  for (const item of items) {
    const row = pageTimeOf(item);
    if (!row) {
      open = undefined;
      out.push(item);
      continue;
    }
    const end = new Date(row.at.getTime() + row.durationMs);
    if (open && open.sessionId === row.sessionId && open.visit.pagePath === row.pagePath) {
      open.visit.at = row.at;
      open.visit.durationMs += row.durationMs;
      open.visit.saves += 1;
      continue;
    }
    open = { visit: { at: row.at, until: end, pagePath: row.pagePath, durationMs: row.durationMs, saves: 1 }, sessionId: row.sessionId };
    out.push(open.visit);
  }
  return out;
}

/** "45 s", "3 min 05 s", "1 h 02 min": a visit's time as a person reads it. */
export function durationInWords(durationMs: number): string {
  const seconds = Math.max(0, Math.round(durationMs / 1000));
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ${String(seconds % 60).padStart(2, '0')} s`;
  return `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, '0')} min`;
}

/** Entries (newest first) grouped by their day in `timeZone` (the site's), in the same order: [{ day: 'YYYY-MM-DD', entries }]. */
export function groupByDayIn<T extends Timed>(entries: readonly T[], timeZone: string): { day: string; entries: T[] }[] {
  const days: { day: string; entries: T[] }[] = [];
  for (const entry of entries) {
    const day = dayKeyIn(entry.at, timeZone);
    const last = days.at(-1);
    if (last?.day === day) last.entries.push(entry);
    else days.push({ day, entries: [entry] });
  }
  return days;
}

/** A cursor from the URL (?before=<ms since epoch>), or undefined for the newest page. */
export function cursorOf(raw: string | null): Date | undefined {
  if (!raw || !/^[0-9]{1,15}$/.test(raw)) return undefined;
  const at = new Date(Number(raw));
  return Number.isNaN(at.getTime()) ? undefined : at;
}

/** A day key (YYYY-MM-DD, a calendar day: no zone to apply) as a timeline heading or a follow-up day: "Wed, 25 Nov 2026". */
export const dayHeading = (day: string) => formatDay(day, 'weekday-date');

/** A follow-up day (a day key) beside today's in the site's time zone: due today, overdue, or still to come. */
export function followUpLabel(day: string, today: string): string {
  if (day === today) return 'Due today';
  return day < today ? `Overdue since ${dayHeading(day)}` : `Follow up on ${dayHeading(day)}`;
}

/** Kinds whose label is not their words. */
const MAIL_KIND_LABELS: Record<string, string> = { 'lead-mail': 'Written by the team', 'lead-sequence': 'Follow-up sequence' };

/** A mail's kind as a label: "audit-confirmation" → "Audit confirmation". */
export function mailKindLabel(kind: string): string {
  if (MAIL_KIND_LABELS[kind]) return MAIL_KIND_LABELS[kind];
  const words = kind.replace(/[-_]+/g, ' ').trim();
  return words ? words[0]!.toUpperCase() + words.slice(1) : 'Email';
}
