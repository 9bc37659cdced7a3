/**
 * The admin area's sidebar: the seed's admin menu (src/shared/navigation.ts, the same links the navbar
 * shows admins) with Content opened into its content types, plus the overview, the leads, the activity log
 * and the general settings.
 */
import { ADMIN_NAV_LINKS, type NavLink } from './navigation';

export interface AdminNavItem extends NavLink {
  children?: readonly NavLink[];
}

export const CONTENT_TYPE_LINKS: readonly NavLink[] = [
  { href: '/admin/services', label: 'Services' },
  { href: '/admin/packages', label: 'Packages' },
  { href: '/admin/demos', label: 'Demos' },
  { href: '/admin/articles', label: 'Articles' },
  { href: '/admin/faqs', label: 'FAQs' },
];

/** The pictures every content type uses: listed under Content, after the types. */
export const MEDIA_LIBRARY_LINK: NavLink = { href: '/admin/media', label: 'Media library' };

/** Tools for all content at once, listed under the content types. */
export const CONTENT_TOOL_LINKS: readonly NavLink[] = [MEDIA_LIBRARY_LINK, { href: '/admin/content/transfer', label: 'Backup and move' }];

/**
 * The chat's two pages (decision 031): the inbox on the seed's route "/admin/chat-settings", what an owner
 * opens every day, and the widget's settings one tab away.
 */
export const CHAT_INBOX_HREF = '/admin/chat-settings';
/** The audit requests' list (the seed's route): its badge counts the requests waiting for a report. */
export const AUDIT_HREF = '/admin/audit';
export const CHAT_SETTINGS_HREF = '/admin/chat-settings/settings';
export const CHAT_TABS: readonly NavLink[] = [
  { href: CHAT_INBOX_HREF, label: 'Inbox' },
  { href: CHAT_SETTINGS_HREF, label: 'Settings' },
];

/** The general settings (decision 055): the site's time zone and where prospects' replies go. */
export const GENERAL_SETTINGS_HREF = '/admin/settings';
/** The time zone's field there: where every "change zone" link goes. */
export const TIME_ZONE_SETTING_HREF = `${GENERAL_SETTINGS_HREF}#time-zone`;
/** The reply address's field there. */
export const REPLY_TO_SETTING_HREF = `${GENERAL_SETTINGS_HREF}#replies`;

export const ADMIN_SIDEBAR: readonly AdminNavItem[] = [
  { href: '/admin', label: 'Overview' },
  // The page the owner opens every morning: every person who became a lead, with their timeline.
  { href: '/admin/leads', label: 'Leads' },
  ...ADMIN_NAV_LINKS.map((link) => (link.href === '/admin/content' ? { ...link, children: [...CONTENT_TYPE_LINKS, ...CONTENT_TOOL_LINKS] } : link)),
  { href: '/admin/activity', label: 'Activity' },
  { href: GENERAL_SETTINGS_HREF, label: 'Settings' },
];

/** Whether a sidebar link is the current page or one of its sub-pages (the overview matches itself only). */
export function isCurrentAdminLink(href: string, pathname: string): boolean {
  const path = pathname.replace(/\/+$/, '') || '/';
  return href === '/admin' ? path === '/admin' : path === href || path.startsWith(`${href}/`);
}
