/**
 * The admin pages' live signals (src/shared/admin-signals.ts, issue 35): the tab title's count, which alert
 * notifies or sounds (never twice, never for the chat being read, each only when turned on), what a stored
 * setting or a feed event reads as; and the inbox's and Today's words built from the counts.
 */
import { describe, expect, it } from 'vitest';
import {
  ALERTS_OFF,
  alertEffects,
  alertOf,
  alertSettingsOf,
  permissionNote,
  seenListOf,
  signalsOf,
  titleWithCount,
  withSeen,
  type AdminAlert,
  type AlertContext,
} from '../../src/shared/admin-signals';
import { inboxSummary, inboxTotalOf } from '../../src/shared/chat-inbox';
import { checkBadge, moreLabel } from '../../src/shared/today';

describe('the tab title', () => {
  it('carries the unread chats before the page’s title, nothing at zero', () => {
    expect(titleWithCount('Overview · Admin · Acme', 2)).toBe('(2) Overview · Admin · Acme');
    expect(titleWithCount('Overview · Admin · Acme', 0)).toBe('Overview · Admin · Acme');
    expect(titleWithCount('Overview · Admin · Acme', -1)).toBe('Overview · Admin · Acme');
    expect(titleWithCount('Overview · Admin · Acme', 250)).toBe('(99+) Overview · Admin · Acme');
  });

  it('replaces the count it had, never stacking them', () => {
    expect(titleWithCount('(3) Overview · Admin · Acme', 4)).toBe('(4) Overview · Admin · Acme');
    expect(titleWithCount('(99+) Overview · Admin · Acme', 0)).toBe('Overview · Admin · Acme');
    // A page whose own title starts with a number in brackets keeps it.
    expect(titleWithCount('(Draft) Services · Admin · Acme', 1)).toBe('(1) (Draft) Services · Admin · Acme');
  });
});

const chat: AdminAlert = { id: 'chat-message:7', kind: 'chat-message', title: 'New chat message', body: 'Ada: hi', href: '/admin/chat-settings/c1', conversationId: 'c1' };
const request: AdminAlert = { id: 'audit-request:r1', kind: 'audit-request', title: 'New audit request', body: 'Ada (Clinic)', href: '/admin/audit/r1' };
const both: AlertContext = { settings: { desktop: true, sound: true }, permission: 'granted', seen: [] };

describe('which alert notifies', () => {
  it('notifies and sounds a new chat or lead when both are turned on and the browser allows it', () => {
    expect(alertEffects(chat, both)).toEqual({ notify: true, sound: true });
    expect(alertEffects(request, both)).toEqual({ notify: true, sound: true });
  });

  it('does nothing until the admin turns it on (the default), each effect on its own', () => {
    expect(alertEffects(request, { ...both, settings: ALERTS_OFF })).toEqual({ notify: false, sound: false });
    expect(alertEffects(request, { ...both, settings: { desktop: false, sound: true } })).toEqual({ notify: false, sound: true });
    expect(alertEffects(request, { ...both, settings: { desktop: true, sound: false } })).toEqual({ notify: true, sound: false });
  });

  it('shows no notification the browser has not allowed (refused, not asked yet, unsupported)', () => {
    for (const permission of ['denied', 'default', 'unsupported'] as const) expect(alertEffects(request, { ...both, permission })).toEqual({ notify: false, sound: true });
  });

  it('never shows an alert already seen (another tab showed it, or it came twice)', () => {
    expect(alertEffects(request, { ...both, seen: ['x', request.id] })).toEqual({ notify: false, sound: false });
  });

  it('says nothing of a message in the chat the admin is reading; other chats and leads still alert', () => {
    expect(alertEffects(chat, { ...both, readingConversationId: 'c1' })).toEqual({ notify: false, sound: false });
    expect(alertEffects(chat, { ...both, readingConversationId: 'c2' })).toEqual({ notify: true, sound: true });
    expect(alertEffects({ ...request, conversationId: 'c1' }, { ...both, readingConversationId: 'c1' })).toEqual({ notify: true, sound: true });
  });
});

describe('what the browser keeps and reads', () => {
  it('settings are off unless stored as on', () => {
    expect(alertSettingsOf(null)).toEqual(ALERTS_OFF);
    expect(alertSettingsOf('not json')).toEqual(ALERTS_OFF);
    expect(alertSettingsOf('{"desktop":"yes","sound":true}')).toEqual({ desktop: false, sound: true });
  });

  it('keeps the newest seen ids, each once', () => {
    expect(withSeen(['a', 'b'], 'a')).toEqual(['b', 'a']);
    expect(withSeen(['a', 'b', 'c'], 'd', 3)).toEqual(['b', 'c', 'd']);
    expect(seenListOf('["a",1,"b"]')).toEqual(['a', 'b']);
    expect(seenListOf('{}')).toEqual([]);
    expect(seenListOf('broken')).toEqual([]);
  });

  it('reads a feed event only when it is one: an alert must link inside the admin', () => {
    expect(alertOf({ ...request, extra: 1 })).toEqual(request);
    expect(alertOf({ ...request, href: 'https://evil.example/' })).toBeUndefined();
    expect(alertOf({ ...request, kind: 'sign-up' })).toBeUndefined();
    expect(alertOf({ ...request, id: '' })).toBeUndefined();
    expect(alertOf(null)).toBeUndefined();
    expect(signalsOf({ unreadChats: 2, openChats: -1, allChats: '3' })).toEqual({ unreadChats: 2, openChats: 0, allChats: 0, waitingRequests: 0 });
    expect(signalsOf('x')).toBeUndefined();
  });

  it('says why notifications cannot be on', () => {
    expect(permissionNote('denied', false)).toMatch(/blocks notifications/);
    expect(permissionNote('unsupported', false)).toMatch(/cannot show/);
    expect(permissionNote('default', true)).toMatch(/not allowed notifications yet/);
    expect(permissionNote('default', false)).toBeUndefined();
    expect(permissionNote('granted', true)).toBeUndefined();
  });
});

describe('words from the counts', () => {
  it('the inbox’s summary follows the live counts of its filter', () => {
    const counts = { openChats: 3, allChats: 45 };
    expect(inboxTotalOf(counts, 'open')).toBe(3);
    expect(inboxTotalOf(counts, 'handled')).toBe(42);
    expect(inboxTotalOf(counts, 'all')).toBe(45);
    expect(inboxSummary(1, { status: 'open', page: 1, perPage: 20 })).toBe('1 open conversation');
    expect(inboxSummary(42, { status: 'handled', page: 2, perPage: 20 })).toBe('42 handled conversations · page 2 of 3');
    expect(inboxSummary(0, { status: 'all', page: 1, perPage: 20 })).toBe('0 conversations');
  });

  it('a request’s website check and a list’s remainder', () => {
    expect(checkBadge({ website: 'a.example', checkStatus: 'done', score: 82 }).label).toBe('Website check 82/100');
    expect(checkBadge({ website: 'a.example', checkStatus: 'running', score: null }).label).toBe('Website check running');
    expect(checkBadge({ website: '', checkStatus: null, score: null }).label).toBe('No website to check');
    expect(checkBadge({ website: 'a.example', checkStatus: 'failed', score: null }).label).toBe('Website check failed');
    expect(moreLabel({ total: 8, items: [1, 2, 3, 4, 5] as never })).toBe('and 3 more');
    expect(moreLabel({ total: 2, items: [1, 2] as never })).toBe('');
  });
});
