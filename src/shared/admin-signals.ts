/**
 * What waits for the owner, as every admin page shows it live (issue 35): the counts in the tab title and
 * the sidebar badges, and the alerts an admin may have shown as desktop notifications with a sound. The
 * server sends them on the admin live feed (/api/admin/chat/stream, its polling fallback); these are the
 * rules the pages and the browser share. Pure and browser-safe.
 */

/** The numbers behind the title, the badges and the inbox's count, read in one query. */
export interface AdminSignals {
  /** Conversations with visitor messages nobody on the team has read (the title's count, the Chat badge). */
  unreadChats: number;
  /** Open conversations (the inbox's "N open conversations"). */
  openChats: number;
  /** Every conversation. */
  allChats: number;
  /** Audit requests with no report sent, of people who are no client and not a fit (the Audit badge). */
  waitingRequests: number;
}

export const NO_SIGNALS: AdminSignals = { unreadChats: 0, openChats: 0, allChats: 0, waitingRequests: 0 };

const COUNT_PREFIX = /^\(\d+\+?\) /;
/** Past this the title says "99+": a tab is narrow. */
const TITLE_COUNT_MAX = 99;

/** "(2) Overview · Admin · Site": the unread chats before the page's title; the title alone at zero. */
export function titleWithCount(title: string, unread: number): string {
  const base = title.replace(COUNT_PREFIX, '');
  if (!Number.isFinite(unread) || unread <= 0) return base;
  return `(${unread > TITLE_COUNT_MAX ? `${TITLE_COUNT_MAX}+` : Math.floor(unread)}) ${base}`;
}

/** The signals as a JSON value sent them: a count that is missing or not a count reads as 0. */
export function signalsOf(raw: unknown): AdminSignals | undefined {
  if (!raw || typeof raw !== 'object') return undefined;
  const r = raw as Record<string, unknown>;
  const n = (v: unknown) => (typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : 0);
  return { unreadChats: n(r.unreadChats), openChats: n(r.openChats), allChats: n(r.allChats), waitingRequests: n(r.waitingRequests) };
}

// ---------------------------------------------------------------------------------------------------------
// Alerts: a new chat message, a new audit request, a new chat lead.

export const ALERT_KINDS = ['chat-message', 'audit-request', 'chat-lead'] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];

export interface AdminAlert {
  /** Unique per event ("chat-message:812"): the same alert is never shown twice, in one tab or several. */
  id: string;
  kind: AlertKind;
  /** The notification's title ("New audit request"). */
  title: string;
  /** Who and what, as text (never markup: a notification shows it as typed). */
  body: string;
  /** Where clicking it goes (an admin page). */
  href: string;
  /** A chat message's conversation: a notification of the same chat replaces the one before. */
  conversationId?: string;
}

const isAlertKind = (v: unknown): v is AlertKind => typeof v === 'string' && (ALERT_KINDS as readonly string[]).includes(v);

/** An alert as the feed sent it, or undefined when it is not one (the page ignores it). */
export function alertOf(raw: unknown): AdminAlert | undefined {
  if (!raw || typeof raw !== 'object') return undefined;
  const r = raw as Record<string, unknown>;
  if (typeof r.id !== 'string' || !r.id || !isAlertKind(r.kind) || typeof r.title !== 'string' || typeof r.body !== 'string') return undefined;
  if (typeof r.href !== 'string' || !r.href.startsWith('/admin')) return undefined;
  return { id: r.id, kind: r.kind, title: r.title, body: r.body, href: r.href, ...(typeof r.conversationId === 'string' ? { conversationId: r.conversationId } : {}) };
}

/** The admin's choice in this browser (localStorage): both off until they turn them on. */
export interface AlertSettings {
  desktop: boolean;
  sound: boolean;
}

export const ALERT_SETTINGS_KEY = 'admin-alerts';
export const ALERTS_OFF: AlertSettings = { desktop: false, sound: false };

export function alertSettingsOf(stored: string | null): AlertSettings {
  if (!stored) return ALERTS_OFF;
  try {
    const v = JSON.parse(stored) as Partial<AlertSettings>;
    return { desktop: v.desktop === true, sound: v.sound === true };
  } catch {
    return ALERTS_OFF;
  }
}

export interface AlertContext {
  settings: AlertSettings;
  /** Notification.permission ('unsupported' where the browser has none). */
  permission: NotificationPermission | 'unsupported';
  /** Alert ids already shown (in any of this browser's admin tabs). */
  seen: readonly string[];
  /** The conversation this tab shows, when the tab is in front: its new messages are read there already. */
  readingConversationId?: string | undefined;
}

/** What one alert does here: a desktop notification, a sound, both or nothing. */
export interface AlertEffects {
  notify: boolean;
  sound: boolean;
}

/**
 * Whether `alert` is shown: never twice (`seen`), never for the chat the admin is reading in front of
 * them, and each effect only when turned on (a notification also needs the browser's permission). The
 * admin's own actions never reach here: the server leaves them out of that admin's feed.
 */
export function alertEffects(alert: AdminAlert, ctx: AlertContext): AlertEffects {
  const none = { notify: false, sound: false };
  if (ctx.seen.includes(alert.id)) return none;
  if (alert.kind === 'chat-message' && alert.conversationId !== undefined && alert.conversationId === ctx.readingConversationId) return none;
  return { notify: ctx.settings.desktop && ctx.permission === 'granted', sound: ctx.settings.sound };
}

/** The alert ids kept as seen: the newest `max`, so the list stays small. */
export const SEEN_ALERTS_KEY = 'admin-alerts-seen';
export const SEEN_ALERTS_MAX = 200;

export function withSeen(seen: readonly string[], id: string, max = SEEN_ALERTS_MAX): string[] {
  return [...seen.filter((s) => s !== id), id].slice(-max);
}

export function seenListOf(stored: string | null): string[] {
  if (!stored) return [];
  try {
    const v: unknown = JSON.parse(stored);
    return Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string').slice(-SEEN_ALERTS_MAX) : [];
  } catch {
    return [];
  }
}

/** What the settings control says about the browser's answer (undefined: nothing to say). */
export function permissionNote(permission: NotificationPermission | 'unsupported', desktopOn: boolean): string | undefined {
  if (permission === 'unsupported') return 'This browser cannot show desktop notifications.';
  if (permission === 'denied') return 'Your browser blocks notifications from this site. Allow them in the browser’s site settings, then turn them on here again.';
  if (desktopOn && permission === 'default') return 'Your browser has not allowed notifications yet.';
  return undefined;
}
