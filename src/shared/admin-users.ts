/**
 * The admin's users list and a person's page: the list's URL state (?q=&role=&verified=&status=&sort=&page=),
 * parsed so that any query shows some list and nothing in it can break the page, and the words and
 * summaries the pages and the CSV export show for stored values.
 */

export const USER_ROLE_FILTERS = ['user', 'admin'] as const;
export const USER_VERIFIED_FILTERS = ['verified', 'unverified'] as const;
export const USER_STATUS_FILTERS = ['active', 'disabled'] as const;
/**
 * No "last seen" sort: a session row is only touched once a day (better-auth's updateAge), so it would be
 * wrong by up to a day, and ordering 10,000 users by an aggregate over their sessions costs a scan per page.
 */
export const USER_SORTS = ['newest', 'oldest', 'name', 'email'] as const;

export type UserRoleFilter = (typeof USER_ROLE_FILTERS)[number];
export type UserVerifiedFilter = (typeof USER_VERIFIED_FILTERS)[number];
export type UserStatusFilter = (typeof USER_STATUS_FILTERS)[number];
export type UserSort = (typeof USER_SORTS)[number];

export const USER_SORT_LABELS: Record<UserSort, string> = {
  newest: 'Newest first',
  oldest: 'Oldest first',
  name: 'Name A–Z',
  email: 'Email A–Z',
};

export const USERS_PER_PAGE = 50;
const MAX_QUERY = 100;
const MAX_PAGE = 100_000;

export interface UserListFilter {
  q: string;
  role: UserRoleFilter | '';
  verified: UserVerifiedFilter | '';
  status: UserStatusFilter | '';
  sort: UserSort;
}

export interface UserListQuery extends UserListFilter {
  page: number;
}

const oneOf = <T extends string>(values: readonly T[], raw: string | null): T | '' => (values.includes(raw as T) ? (raw as T) : '');

/** Unknown values fall back to "all" / the default sort / page 1: an edited URL still shows a list. */
export function parseUserListQuery(params: URLSearchParams): UserListQuery {
  const pageNumber = Number(params.get('page') ?? '1');
  return {
    q: (params.get('q') ?? '').trim().slice(0, MAX_QUERY),
    role: oneOf(USER_ROLE_FILTERS, params.get('role')),
    verified: oneOf(USER_VERIFIED_FILTERS, params.get('verified')),
    status: oneOf(USER_STATUS_FILTERS, params.get('status')),
    sort: oneOf(USER_SORTS, params.get('sort')) || 'newest',
    page: Number.isInteger(pageNumber) && pageNumber >= 1 && pageNumber <= MAX_PAGE ? pageNumber : 1,
  };
}

export const isFilteredUserList = (q: UserListFilter) => Boolean(q.q || q.role || q.verified || q.status);

/** `?q=…&role=…` for this list state (defaults left out, so every view has one short URL); '' for none. */
export function userListSearch(query: Partial<UserListQuery>): string {
  const params = new URLSearchParams();
  if (query.q) params.set('q', query.q);
  if (query.role) params.set('role', query.role);
  if (query.verified) params.set('verified', query.verified);
  if (query.status) params.set('status', query.status);
  if (query.sort && query.sort !== 'newest') params.set('sort', query.sort);
  if (query.page && query.page > 1) params.set('page', String(query.page));
  const qs = params.toString();
  return qs ? `?${qs}` : '';
}

/** "Ada Lovelace", or the email for an account without a name. */
export const displayNameOf = (user: { name: string; email: string }) => user.name.trim() || user.email;

/**
 * The author a new article starts with: the signed-in admin's name (never the email address, which would be
 * published under the title), within the article's author-name limit; '' when the account has no name.
 */
export function authorNameOf(user: { name: string; firstName?: string; lastName?: string } | undefined): string {
  if (!user) return '';
  const name = user.name.trim() || `${user.firstName ?? ''} ${user.lastName ?? ''}`.trim();
  return name.replace(/\s+/g, ' ').slice(0, 120);
}

/** A website the admin can open: only http(s) addresses become links, anything else stays text. */
export function safeWebsiteHref(website: string | null | undefined): string | undefined {
  if (!website) return undefined;
  try {
    const url = new URL(website);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A session's address with its host part hidden: "203.0.113.x", "2001:db8:85a3:x". Enough to tell one
 * network from another (home, office, a stranger's), not enough to single out a person's device; the full
 * address is personal data the admin does not need, and admin screens end up in screenshots.
 */
export function maskIp(ip: string | null | undefined): string {
  const address = (ip ?? '').trim().replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '');
  if (/^\d{1,3}(\.\d{1,3}){3}$/.test(address)) return `${address.split('.').slice(0, 3).join('.')}.x`;
  if (/^[0-9a-f:]+$/i.test(address) && address.includes(':')) {
    const groups = address.split('::')[0]!.split(':').filter(Boolean);
    return `${groups.slice(0, 3).join(':') || '0'}:x`;
  }
  return 'Unknown';
}

const BROWSERS: [RegExp, string][] = [
  [/Edg(e|A|iOS)?\//, 'Edge'],
  [/OPR\/|Opera/, 'Opera'],
  [/SamsungBrowser\//, 'Samsung Internet'],
  [/Firefox\/|FxiOS\//, 'Firefox'],
  [/Chrome\/|CriOS\/|Chromium\//, 'Chrome'],
  [/Safari\//, 'Safari'],
];

const SYSTEMS: [RegExp, string][] = [
  [/iPhone/, 'iPhone'],
  [/iPad/, 'iPad'],
  [/Android/, 'Android'],
  [/Windows/, 'Windows'],
  [/CrOS/, 'ChromeOS'],
  [/Mac OS X|Macintosh/, 'macOS'],
  [/Linux/, 'Linux'],
];

/** "Chrome on macOS" from a User-Agent header: what the admin needs to recognise a device, as text. */
export function summarizeUserAgent(ua: string | null | undefined): string {
  if (!ua?.trim()) return 'Unknown device';
  const browser = BROWSERS.find(([re]) => re.test(ua))?.[1];
  const system = SYSTEMS.find(([re]) => re.test(ua))?.[1];
  if (browser && system) return `${browser} on ${system}`;
  return browser ?? system ?? 'Other client';
}

export const USER_CSV_HEADER = [
  'Name',
  'Email',
  'Role',
  'Verified',
  'Disabled',
  'Disable reason',
  'Signed up (UTC)',
  'Signup source',
  'Phone',
  'Website',
  'Id',
] as const;

export interface UserCsvSource {
  id: string;
  name: string;
  email: string;
  role: string;
  emailVerified: boolean;
  banned: boolean;
  banReason: string | null;
  createdAt: Date;
  signupSource: string | null;
  phone: string | null;
  website: string | null;
}

/** One CSV row, in USER_CSV_HEADER's order (csvCell neutralizes formulas and quotes). */
export const userCsvRow = (u: UserCsvSource): unknown[] => [
  u.name,
  u.email,
  u.role,
  u.emailVerified ? 'yes' : 'no',
  u.banned ? 'yes' : 'no',
  u.banReason ?? '',
  u.createdAt,
  u.signupSource ?? '',
  u.phone ?? '',
  u.website ?? '',
  u.id,
];

/** The most characters a disable reason keeps (the service trims it to this). */
export const DISABLE_REASON_MAX = 500;
