/**
 * The activity log page's URL state (?type=&action=&admin=&q=&page=, or ?entry= for one entry) and the
 * words it shows for stored codes. Parsed the same way on every request, so a link always shows the same
 * entries and nothing typed into the address bar can break the page.
 */
import { personHref } from './lead-people';
import { CHAT_SETTINGS_HREF, GENERAL_SETTINGS_HREF } from './admin-nav';

export interface ActivityQuery {
  /** Content type ('service', 'article', …) or '' for all. */
  type: string;
  /** 'create', 'update', … or '' for all. */
  action: string;
  /** The acting admin's email, or '' for everyone. */
  admin: string;
  /** Words in the summary or the record's id. */
  q: string;
  page: number;
  /** One entry by id (a revert links to the entry it undid); '' for the list. */
  entry: string;
}

const CODE = /^[a-z][a-z0-9_-]{0,39}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const MAX_Q = 100;
const MAX_EMAIL = 254;
const MAX_PAGE = 100_000;

export function parseActivityQuery(params: URLSearchParams): ActivityQuery {
  const code = (name: string) => {
    const v = (params.get(name) ?? '').trim();
    return CODE.test(v) ? v : '';
  };
  const admin = (params.get('admin') ?? '').trim();
  const pageNumber = Number(params.get('page') ?? '1');
  const entry = (params.get('entry') ?? '').trim();
  return {
    type: code('type'),
    action: code('action'),
    admin: admin.length <= MAX_EMAIL && admin.includes('@') ? admin : '',
    q: (params.get('q') ?? '').trim().slice(0, MAX_Q),
    page: Number.isInteger(pageNumber) && pageNumber >= 1 && pageNumber <= MAX_PAGE ? pageNumber : 1,
    entry: UUID.test(entry) ? entry.toLowerCase() : '',
  };
}

export const EMPTY_ACTIVITY_QUERY: ActivityQuery = { type: '', action: '', admin: '', q: '', page: 1, entry: '' };

export const isFiltered = (q: ActivityQuery) => Boolean(q.type || q.action || q.admin || q.q || q.entry);

/** The page's URL for another page or filter, keeping the rest (defaults left out, so links stay short). */
export function activityHref(query: ActivityQuery, change: Partial<ActivityQuery> = {}, path = '/admin/activity'): string {
  const next = { ...query, ...change };
  const params = new URLSearchParams();
  if (next.entry) params.set('entry', next.entry);
  if (next.type) params.set('type', next.type);
  if (next.action) params.set('action', next.action);
  if (next.admin) params.set('admin', next.admin);
  if (next.q) params.set('q', next.q);
  if (next.page > 1) params.set('page', String(next.page));
  const qs = params.toString();
  return qs ? `${path}?${qs}` : path;
}

// ---- Words for stored codes --------------------------------------------------------------------------

const ACTION_LABELS: Record<string, string> = {
  create: 'Created',
  update: 'Updated',
  delete: 'Deleted',
  reorder: 'Reordered',
  revert: 'Reverted',
  import: 'Imported',
  upload: 'Uploaded',
  status: 'Status changed',
  note: 'Note added',
  assign: 'Assigned',
  stage: 'Stage changed',
  owner: 'Owner changed',
  'follow-up': 'Follow-up set',
  role: 'Role changed',
  disable: 'Disabled',
  enable: 'Enabled',
  'verification-email': 'Verification email sent',
  'site-audit': 'Website check run',
  'report-draft': 'Report draft saved',
  'report-sent': 'Report sent',
};

const TYPE_LABELS: Record<string, string> = {
  service: 'Services',
  package: 'Packages',
  demo: 'Demos',
  article: 'Articles',
  faq: 'FAQs',
  content: 'Content files',
  media: 'Images',
  'site-content': 'Site texts',
  seo: 'SEO',
  landing: 'Landing page',
  policy: 'Policies',
  page: 'Pages',
  audit: 'Audit requests',
  lead: 'Leads',
  'lead-mail-template': 'Email templates',
  'lead-sequence': 'Follow-up sequences',
  'chat-settings': 'Chat settings',
  'general-settings': 'Settings',
  user: 'Users',
};

const capitalized = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** "Updated" for 'update'; a code nobody named yet is shown as it is, capitalized. */
export const actionLabel = (action: string) => ACTION_LABELS[action] ?? capitalized(action);
/** "Services" for 'service'. */
export const typeLabel = (type: string) => TYPE_LABELS[type] ?? capitalized(type);

/** Where a content type's records are edited (the entry links there while the record may exist). */
const ADMIN_RECORD_PAGES: Record<string, string> = {
  service: '/admin/services',
  package: '/admin/packages',
  demo: '/admin/demos',
  article: '/admin/articles',
  faq: '/admin/faqs',
  audit: '/admin/audit',
  user: '/admin/users',
};

/** Where each site-wide document and policy is edited (it always exists: at worst as its defaults). */
const ADMIN_DOCUMENT_PAGES: Record<string, (id: string) => string> = {
  'site-content': () => '/admin/content',
  landing: () => '/admin/landing-page-config',
  seo: (path) => `/admin/seo?page=${encodeURIComponent(path)}`,
  'chat-settings': () => CHAT_SETTINGS_HREF,
  'general-settings': () => GENERAL_SETTINGS_HREF,
  policy: (kind) => `/admin/content/${encodeURIComponent(kind)}`,
  // A person (entity id: their lower-cased email) has a page for as long as any lead has that email.
  lead: (email) => personHref(email),
  // The templates are edited on one page.
  'lead-mail-template': () => '/admin/leads/templates',
  // The sequences and their quiet hours are edited on one page.
  'lead-sequence': () => '/admin/leads/sequences',
};

/**
 * The admin page of the record or document an entry is about; undefined when the change removed the
 * record (a deletion, or the revert of a creation), for bulk changes ('*') and for kinds without a page.
 */
export function recordAdminHref(entry: { entityType: string; entityId: string; removed: boolean }): string | undefined {
  const documentPage = Object.hasOwn(ADMIN_DOCUMENT_PAGES, entry.entityType) ? ADMIN_DOCUMENT_PAGES[entry.entityType] : undefined;
  if (documentPage) return entry.entityId ? documentPage(entry.entityId) : undefined;
  const base = ADMIN_RECORD_PAGES[entry.entityType];
  if (!base || entry.removed || entry.entityId === '*' || entry.entityId === '') return undefined;
  return `${base}/${encodeURIComponent(entry.entityId)}`;
}
