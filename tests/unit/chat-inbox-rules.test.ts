import { describe, expect, it } from 'vitest';
import type { InboxConversationDto } from '../../src/shared/chat';
import { applyInboxChange, fresherConversation, inboxAnnouncement, inboxQueryOf, inboxSearch, replyReachText, unreadLabel } from '../../src/shared/chat-inbox';
import { isSitePath } from '../../src/shared/site-path';

const row = (id: string, at: string, patch: Partial<InboxConversationDto> = {}): InboxConversationDto => ({
  id,
  status: 'open',
  contactName: '',
  contactEmail: '',
  displayName: `Visitor ${id}…`,
  unread: 0,
  takenOverBy: null,
  lastMessageAt: `2026-01-01T${at}:00.000Z`,
  preview: 'Hi',
  ...patch,
});

describe('the inbox URL', () => {
  it('reads the filter and page, defaulting anything unreadable', () => {
    expect(inboxQueryOf(new URLSearchParams(''))).toEqual({ status: 'open', page: 1 });
    expect(inboxQueryOf(new URLSearchParams('status=handled&page=3'))).toEqual({ status: 'handled', page: 3 });
    expect(inboxQueryOf(new URLSearchParams('status=<b>&page=-2'))).toEqual({ status: 'open', page: 1 });
    expect(inboxQueryOf(new URLSearchParams('status=all&page=1.5'))).toEqual({ status: 'all', page: 1 });
    expect(inboxQueryOf(new URLSearchParams('page=99999999'))).toEqual({ status: 'open', page: 1 });
  });
  it('writes one URL per view', () => {
    expect(inboxSearch({ status: 'open', page: 1 })).toBe('');
    expect(inboxSearch({ status: 'all', page: 2 })).toBe('?status=all&page=2');
    expect(inboxSearch({ status: 'open', page: 4 })).toBe('?page=4');
  });
});

describe('a live change', () => {
  const a = row('a', '10:00');
  const b = row('b', '09:00');
  const c = row('c', '08:00');
  const first = { status: 'open' as const, page: 1, perPage: 3 };

  it('brings a conversation with a new message to the top of the first page', () => {
    expect(applyInboxChange([a, b, c], { ...c, lastMessageAt: '2026-01-01T11:00:00.000Z', unread: 1 }, first).map((r) => r.id)).toEqual(['c', 'a', 'b']);
  });
  it('adds a new conversation on the first page and keeps the page size', () => {
    expect(applyInboxChange([a, b, c], row('d', '12:00'), first).map((r) => r.id)).toEqual(['d', 'a', 'b']);
  });
  it('removes one that no longer matches the filter, and ignores one that never did', () => {
    expect(applyInboxChange([a, b, c], { ...b, status: 'handled' }, first).map((r) => r.id)).toEqual(['a', 'c']);
    expect(applyInboxChange([a, c], row('x', '13:00', { status: 'handled' }), first).map((r) => r.id)).toEqual(['a', 'c']);
    expect(applyInboxChange([a], { ...b, status: 'handled' }, { ...first, status: 'all' }).map((r) => r.id)).toEqual(['a', 'b']);
  });
  it('keeps a row when a copy read before its last change arrives late', () => {
    const withContact = { ...b, contactEmail: 'ada@example.com', lastMessageAt: '2026-01-01T11:00:00.000Z' };
    expect(applyInboxChange([a, withContact, c], b, first).find((r) => r.id === 'b')?.contactEmail).toBe('ada@example.com');
  });
  it('on a later page updates a known row in place and leaves new ones to the first page', () => {
    const later = { ...first, page: 2 };
    const updated = applyInboxChange([a, b], { ...b, unread: 2, lastMessageAt: '2026-01-01T23:00:00.000Z' }, later);
    expect(updated.map((r) => [r.id, r.unread])).toEqual([
      ['a', 0],
      ['b', 2],
    ]);
    expect(applyInboxChange([a, b], row('z', '23:00'), later).map((r) => r.id)).toEqual(['a', 'b']);
  });
});

describe('words', () => {
  it('announces new visitor messages only', () => {
    expect(inboxAnnouncement(row('a', '10:00'), row('a', '10:01', { unread: 1, displayName: 'Ada', preview: 'Hello?' }))).toBe('New message from Ada: Hello?');
    expect(inboxAnnouncement(undefined, row('n', '10:01', { unread: 1 }))).toBe('New message from Visitor n…: Hi');
    expect(inboxAnnouncement(row('a', '10:00', { unread: 2 }), row('a', '10:00', { unread: 0 }))).toBeUndefined();
    expect(unreadLabel(0)).toBe('');
    expect(unreadLabel(3)).toBe('3 unread');
  });
  it('links sources only into this site', () => {
    expect(isSitePath('/services/lead-outreach')).toBe(true);
    expect(isSitePath('/#faq-3')).toBe(true);
    expect(isSitePath('//evil.example')).toBe(false);
    expect(isSitePath('javascript:alert(1)')).toBe(false);
    expect(isSitePath('https://example.com')).toBe(false);
  });
});

describe('the conversation an admin has open', () => {
  const shown = row('a', '10:05', { contactEmail: 'ada@example.com', unread: 1 });

  it('keeps what the live feed brought when an action answers with a copy read before it', () => {
    // "Mark read" was read at 10:00; the visitor's contact details (10:05) came by the feed meanwhile.
    expect(fresherConversation(shown, row('a', '10:00'))).toBe(shown);
  });
  it('takes a copy as new as the one shown (the admin’s own hand-back or status change) or newer', () => {
    const handled = { ...shown, status: 'handled' as const, unread: 0 };
    expect(fresherConversation(shown, handled)).toBe(handled);
    const later = row('a', '10:06', { contactEmail: 'ada@example.com' });
    expect(fresherConversation(shown, later)).toBe(later);
  });
  it('takes the first copy there is', () => {
    expect(fresherConversation(undefined, shown)).toBe(shown);
  });
});

describe('replyReachText', () => {
  it('says where a reply goes: the open chat, else the email after the wait, else the next visit', () => {
    expect(replyReachText('ada@example.com', 60)).toBe('The visitor sees it at once if their chat is open; if they do not see it within a minute, it is emailed to ada@example.com.');
    expect(replyReachText('ada@example.com', 2)).toContain('within 2 seconds');
    expect(replyReachText('ada@example.com', 300)).toContain('within 5 minutes');
    expect(replyReachText('', 60)).toBe('The visitor sees it in their chat when it is open, or when they come back (they left no email).');
  });
});
