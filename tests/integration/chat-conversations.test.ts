/**
 * The chat on the server (src/server/modules/chat, src/pages/api/chat): conversations per visitor and per
 * member, the assistant's answers, an admin taking over and handing back, contact leads with their lead
 * event and mails, rate limits, the off switch, markup kept as text, and live events published only after
 * the write commits.
 */
import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const assistant = vi.hoisted(() => {
  process.env.AUTH_SECRET ??= 'test-secret-that-is-long-enough-for-hs256-signing';
  /** Replaces the real assistant for one test (a slow or failing answer); reset after each. */
  return { override: undefined as undefined | ((question: string, ctx: import('../../src/server/modules/chat/assistant').AssistantContext) => Promise<import('../../src/server/modules/chat/assistant').AssistantReply>) };
});
vi.mock('../../src/server/modules/chat/assistant', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/server/modules/chat/assistant')>();
  return { ...real, assistantReply: (question: string, ctx: Parameters<typeof real.assistantReply>[1]) => (assistant.override ?? real.assistantReply)(question, ctx) };
});

import { GET as getInbox } from '../../src/pages/api/admin/chat/inbox';
import { POST as postContact } from '../../src/pages/api/chat/contact';
import { POST as postMessage } from '../../src/pages/api/chat/messages';
import { GET as getPoll } from '../../src/pages/api/chat/poll';
import { GET as getSession } from '../../src/pages/api/chat/session';
import { GET as getStream } from '../../src/pages/api/chat/stream';
import { invalidateMemos } from '../../src/server/cache/memo';
import { CACHE_TAGS } from '../../src/server/cache/tags';
import { activityLog, articles, chatConversations, chatMessages, faqs, leadEvents, mailQueue, users } from '../../src/server/db/schema';
import {
  conversationForAdmin,
  listInbox,
  markConversationRead,
  releaseConversation,
  replyToConversation,
  setConversationStatus,
  unreadTotal,
} from '../../src/server/modules/chat/admin';
import { subscribeToConversation, subscribeToInbox, type ConversationEvent, type InboxEvent } from '../../src/server/modules/chat/hub';
import { visitorKeyOf, type ChatIdentity } from '../../src/server/modules/chat/identity';
import { findMessage } from '../../src/server/modules/chat/repository';
import { chatSession, saveChatContact, sendVisitorMessage } from '../../src/server/modules/chat/service';
import { CHAT_SETTINGS_KEY } from '../../src/server/modules/chat/settings';
import { writeConfigDocument } from '../../src/server/modules/site/repository';
import { GENERAL_SETTINGS_KEY } from '../../src/shared/general-settings';
import InboxList from '../../src/features/admin-chat/InboxList';
import { composeSearchAnswer, personAnswer } from '../../src/shared/chat-answer';
import { CONTACT_NAME_NOT_CLEAN } from '../../src/shared/chat-rules';
import { searchSite } from '../../src/server/modules/chat-search/service';
import { CHAT_RATE_LIMITS, type ChatContactResponse, type ChatErrorBody, type ChatSendResponse, type ChatSessionResponse, type ChatStreamLine } from '../../src/shared/chat';
import { createAuthHarness, randomIp, type AuthHarness } from '../support/auth';

const SITE = 'http://localhost:4321';
const XSS = '<img src=x onerror=alert(1)>';

let h: AuthHarness;
let admin: string;
let member: string;
beforeEach(async () => {
  h = await createAuthHarness();
  ({ userId: admin } = await h.signUpVerified({ email: 'owner@example.com', firstName: 'Olivia' }));
  ({ userId: member } = await h.signUpVerified({ email: 'member@example.com', firstName: 'Max', lastName: 'Member' }));
  await h.handle.db.insert(faqs).values({
    id: 'free-audit',
    question: 'What is the free audit?',
    answer: '<p>We review your website, listings and reviews for free and send you a short report.</p>',
    order: 0,
  });
  invalidateMemos([CACHE_TAGS.chat]);
  assistant.override = fakeAssistant;
});
afterEach(async () => {
  assistant.override = undefined;
  await h.close();
});

/**
 * A predictable assistant for the conversation rules (the real one's wording belongs to its own tests):
 * it knows the free audit and nothing else.
 */
async function fakeAssistant(question: string) {
  return /free audit/i.test(question)
    ? { body: 'We review your website, listings and reviews for free.', sources: [{ title: 'What is the free audit?', href: '/#faq-free-audit' }], confident: true }
    : { body: "I couldn't find an answer to that on our site.", sources: [], confident: false };
}

const newVisitorId = () => randomBytes(16).toString('hex');
const visitor = (id = newVisitorId()): ChatIdentity & { raw: string } => ({ raw: id, visitorKey: visitorKeyOf(id), userId: null });
const send = (identity: ChatIdentity, body: string, extra: Record<string, unknown> = {}) => sendVisitorMessage({ body, ...extra }, { identity, clientIp: randomIp() });

async function saveSettings(value: Record<string, unknown>) {
  await writeConfigDocument(CHAT_SETTINGS_KEY, value);
  invalidateMemos([CACHE_TAGS.chat]);
}

/** A route handler called the way Astro calls it. */
function ctx(path: string, init: RequestInit & { visitorId?: string; ip?: string } = {}) {
  const headers = new Headers(init.headers);
  if (init.visitorId) headers.set('X-Chat-Visitor', init.visitorId);
  if (init.body) headers.set('Content-Type', 'application/json');
  const request = new Request(`${SITE}${path}`, { ...init, headers });
  return { request, url: new URL(request.url), clientAddress: init.ip ?? randomIp(), locals: {} } as never;
}
const json = async <T>(res: Response) => (await res.json()) as T;

describe('a visitor’s conversation', () => {
  it('is created by the first message, reused by the next, and answered from the site’s content', async () => {
    const v = visitor();
    expect(await chatSession(v)).toMatchObject({ conversation: null, messages: [], online: true });
    const first = await send(v, 'What is the free audit?', { attribution: { sourcePage: '/services', utmSource: 'news\nletter', referrer: 'javascript:alert(1)' } });
    expect(first.messages.map((m) => m.author)).toEqual(['visitor', 'assistant']);
    expect(first.messages[0]).toMatchObject({ authorName: 'You', body: 'What is the free audit?' });
    expect(first.messages[1]).toMatchObject({ authorName: 'Autoflow Assistant', sources: [{ title: 'What is the free audit?', href: '/#faq-free-audit' }] });
    expect(first.messages[1]!.body).toContain('We review your website');
    expect(first.askContact).toBe(false);
    expect(first.conversation).toMatchObject({ takenOver: false, agentName: '', hasContact: false });
    expect(first.conversation.streamToken).toMatch(/^[\w-]{43}$/);

    let seenHistory: unknown;
    assistant.override = async (question, context) => {
      seenHistory = context.history;
      return fakeAssistant(question);
    };
    const second = await send(v, 'And how long does it take?');
    expect(second.conversation.id).toBe(first.conversation.id);
    // The assistant sees the conversation so far, not the question twice.
    expect(seenHistory).toEqual([
      { author: 'visitor', body: 'What is the free audit?' },
      { author: 'assistant', body: first.messages[1]!.body },
    ]);
    const rows = await h.handle.db.select().from(chatConversations);
    expect(rows).toHaveLength(1);
    // Only the hash of the visitor id is stored; the attribution is cleaned (a UTM value with a line break is dropped).
    expect(rows[0]!.visitorKey).toBe(visitorKeyOf(v.raw));
    expect(JSON.stringify(rows[0])).not.toContain(v.raw);
    expect(rows[0]!.attribution).toEqual({ sourcePage: '/services' });
    expect(rows[0]!.unreadForAdmin).toBe(2);

    const session = await chatSession(v);
    expect(session.conversation?.id).toBe(first.conversation.id);
    expect(session.messages.map((m) => m.author)).toEqual(['visitor', 'assistant', 'visitor', 'assistant']);
  });

  it('answers with the real assistant from the site’s content, with links', async () => {
    assistant.override = undefined;
    const sent = await send(visitor(), 'What is the free audit?');
    expect(sent.messages[1]).toMatchObject({ author: 'assistant', authorName: 'Autoflow Assistant', body: expect.any(String) });
    expect(sent.messages[1]!.body.length).toBeGreaterThan(0);
    expect(sent.messages[1]!.sources.length).toBeGreaterThan(0);
    expect(sent.messages[1]!.sources.every((src) => src.href.startsWith('/'))).toBe(true);
  });

  it('offers a person when there is no good answer or one is asked for', async () => {
    const v = visitor();
    const unknown = await send(v, 'Do you repair bicycles?');
    expect(unknown.askContact).toBe(true);
    expect(unknown.messages[1]!.sources).toEqual([]);
    const person = await send(v, 'Can I talk to a human about the free audit?');
    expect(person.askContact).toBe(true);
  });

  it('refuses empty and oversize messages with a clear message, storing nothing', async () => {
    const v = visitor();
    await expect(send(v, '   ')).rejects.toMatchObject({ code: 'INVALID', fieldErrors: { body: 'Please write a message' } });
    await expect(send(v, 'x'.repeat(1001))).rejects.toMatchObject({ code: 'INVALID', fieldErrors: { body: expect.stringMatching(/at most 1000/) } });
    expect(await h.handle.db.select().from(chatMessages)).toEqual([]);
  });

  it('keeps markup verbatim and returns it only in text fields', async () => {
    const v = visitor();
    const res = await postMessage(ctx('/api/chat/messages', { method: 'POST', visitorId: v.raw, body: JSON.stringify({ body: `  ${XSS}  ` }) }));
    expect(res.status).toBe(200);
    const sent = await json<ChatSendResponse>(res);
    expect(sent.messages[0]!.body).toBe(XSS);
    const [row] = await h.handle.db.select().from(chatMessages).where(eq(chatMessages.author, 'visitor'));
    expect(row!.body).toBe(XSS);
    const detail = await conversationForAdmin(sent.conversation.id);
    expect(detail!.messages[0]).toMatchObject({ author: 'visitor', body: XSS });
  });
});

describe('who may read a conversation', () => {
  it('gives another visitor nothing, and refuses a stream or poll without the conversation’s token', async () => {
    const owner = visitor();
    const { conversation } = await send(owner, 'What is the free audit?');
    const stranger = visitor();
    const session = await json<ChatSessionResponse>(await getSession(ctx('/api/chat/session', { visitorId: stranger.raw })));
    expect(session.conversation).toBeNull();

    const other = await send(stranger, 'Hello');
    const forged = await getPoll(ctx(`/api/chat/poll?c=${conversation.id}&t=${other.conversation.streamToken}&after=0`));
    expect(forged.status).toBe(403);
    expect((await json<ChatErrorBody>(forged)).error.code).toBe('FORBIDDEN');
    expect((await getStream(ctx(`/api/chat/stream?c=${conversation.id}&t=nope`))).status).toBe(403);

    const own = await getPoll(ctx(`/api/chat/poll?c=${conversation.id}&t=${conversation.streamToken}&after=0`));
    expect(own.status).toBe(200);
    const polled = await json<{ messages: { author: string }[] }>(own);
    expect(polled.messages.map((m) => m.author)).toEqual(['visitor', 'assistant']);
  });

  it('refuses a request without a (well-formed) visitor id', async () => {
    expect((await getSession(ctx('/api/chat/session'))).status).toBe(400);
    const bad = await getSession(ctx('/api/chat/session', { visitorId: 'not-hex' }));
    expect(bad.status).toBe(400);
    expect((await json<ChatErrorBody>(bad)).error.code).toBe('INVALID');
  });

  it('attaches the browser’s visitor conversation to the member on their next message', async () => {
    const v = visitor();
    const before = await send(v, 'What is the free audit?');
    const signedIn = { visitorKey: v.visitorKey, userId: member };
    expect((await chatSession(signedIn)).conversation?.id).toBe(before.conversation.id);
    const after = await send(signedIn, 'Thanks!');
    expect(after.conversation.id).toBe(before.conversation.id);
    const [row] = await h.handle.db.select().from(chatConversations);
    expect(row!.userId).toBe(member);
    // The member finds it from any browser; the signed-out browser no longer opens it.
    expect((await chatSession({ visitorKey: visitorKeyOf(newVisitorId()), userId: member })).conversation?.id).toBe(before.conversation.id);
    expect((await chatSession(v)).conversation).toBeNull();
    expect((await conversationForAdmin(before.conversation.id))!.member).toMatchObject({ email: 'member@example.com' });
  });
});

describe('a person taking over', () => {
  it('silences the assistant until released', async () => {
    const v = visitor();
    const { conversation } = await send(v, 'What is the free audit?');
    const reply = await replyToConversation(admin, conversation.id, `Hi, Olivia here. ${XSS}`);
    expect(reply.state).toMatchObject({ takenOver: true, agentName: 'Olivia' });
    expect(reply.message).toMatchObject({ author: 'admin', authorName: 'Olivia', body: `Hi, Olivia here. ${XSS}` });
    expect(reply.conversation).toMatchObject({ takenOverBy: 'Olivia', unread: 0 });

    const quiet = await send(v, 'Great, when can we talk?');
    expect(quiet.messages.map((m) => m.author)).toEqual(['visitor']);
    expect(quiet.askContact).toBe(false);
    expect(quiet.conversation).toMatchObject({ takenOver: true, agentName: 'Olivia' });
    const authors = (await chatSession(v)).messages.map((m) => `${m.author}:${m.authorName}`);
    expect(authors).toEqual(['visitor:You', 'assistant:Autoflow Assistant', 'admin:Olivia', 'visitor:You']);

    const released = await releaseConversation(admin, conversation.id);
    expect(released).toMatchObject({ changed: true, state: { takenOver: false, agentName: '' } });
    expect((await send(v, 'What is the free audit?')).messages.map((m) => m.author)).toEqual(['visitor', 'assistant']);
  });

  it('drops the assistant’s answer when an admin took over while it was thinking', async () => {
    const v = visitor();
    const { conversation } = await send(v, 'Hello');
    let release!: () => void;
    const thinking = new Promise<void>((resolve) => (release = resolve));
    assistant.override = async () => {
      await thinking;
      return { body: 'A late answer', sources: [], confident: true };
    };
    const pending = send(v, 'Anyone there?');
    await vi.waitFor(async () => expect(await h.handle.db.select().from(chatMessages).where(eq(chatMessages.body, 'Anyone there?'))).toHaveLength(1));
    await replyToConversation(admin, conversation.id, 'Yes, Olivia here.');
    release();
    const answered = await pending;
    expect(answered.messages.map((m) => m.author)).toEqual(['visitor']);
    expect(answered.conversation.takenOver).toBe(true);
    expect(await h.handle.db.select().from(chatMessages).where(eq(chatMessages.body, 'A late answer'))).toEqual([]);
  });

  it('answers without the assistant when it fails, offering a person', async () => {
    assistant.override = async () => {
      throw new Error('search index unavailable');
    };
    const sent = await send(visitor(), 'What is the free audit?');
    expect(sent.messages[1]).toMatchObject({ author: 'assistant', body: expect.stringMatching(/can't look that up/) });
    expect(sent.askContact).toBe(true);
  });

  it('is for admins only', async () => {
    const { conversation } = await send(visitor(), 'Hello');
    await expect(replyToConversation(member, conversation.id, 'Hi')).rejects.toMatchObject({ code: 'NOT_ADMIN' });
    await expect(setConversationStatus(undefined, conversation.id, 'handled')).rejects.toMatchObject({ code: 'NO_USER_LOGGED_IN' });
    await expect(replyToConversation(admin, conversation.id, '  ')).rejects.toMatchObject({ code: 'INVALID' });
    await expect(replyToConversation(admin, crypto.randomUUID(), 'Hi')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(await h.handle.db.select().from(chatMessages).where(eq(chatMessages.author, 'admin'))).toEqual([]);
  });
});

describe('the inbox', () => {
  it('lists by status and activity, counts unread, records status changes, reopens on a new visitor message', async () => {
    const a = visitor();
    const b = visitor();
    const first = await send(a, 'What is the free audit?');
    const second = await send(b, 'Hello there');
    expect(await unreadTotal()).toBe(2);
    // Newest activity first; the preview is the visitor's last words, not the assistant's answer after them.
    const listed = (await listInbox({ status: 'all', page: 1 })).rows;
    expect(listed.map((r) => r.id)).toEqual([second.conversation.id, first.conversation.id]);
    expect(listed[0]!.preview).toBe('Hello there');
    expect(listed[1]!.preview).toBe('What is the free audit?');

    expect((await markConversationRead(admin, first.conversation.id)).conversation.unread).toBe(0);
    expect(await unreadTotal()).toBe(1);
    await setConversationStatus(admin, first.conversation.id, 'handled');
    expect((await listInbox({ status: 'open', page: 1 })).rows).toHaveLength(1);
    expect((await listInbox({ status: 'handled', page: 1 })).rows.map((r) => r.id)).toEqual([first.conversation.id]);
    const [entry] = await h.handle.db.select().from(activityLog).where(eq(activityLog.entityType, 'chat-conversation'));
    expect(entry).toMatchObject({ action: 'status', entityId: first.conversation.id, before: { status: 'open' }, after: { status: 'handled' } });

    await send(a, 'One more question');
    expect((await listInbox({ status: 'handled', page: 1 })).rows).toEqual([]);
    const page = await listInbox({ status: 'all', page: 1 });
    expect(page).toMatchObject({ total: 2, pages: 1 });
    expect(page.rows[0]).toMatchObject({ id: first.conversation.id, status: 'open', unread: 1, displayName: expect.stringMatching(/^Visitor /) });
  });

  it('answers the polling fallback with what changed since a time', async () => {
    const { conversation } = await send(visitor(), 'Hello');
    const since = new Date(Date.now() - 60_000).toISOString();
    const res = await getInbox({ ...(ctx(`/api/admin/chat/inbox?after=${since}`) as object), locals: { user: { id: admin } } } as never);
    expect(res.status).toBe(200);
    expect((await json<{ conversations: { id: string }[] }>(res)).conversations.map((c) => c.id)).toEqual([conversation.id]);
    const later = await getInbox({ ...(ctx(`/api/admin/chat/inbox?after=${new Date(Date.now() + 60_000).toISOString()}`) as object), locals: { user: { id: admin } } } as never);
    expect((await json<{ conversations: unknown[] }>(later)).conversations).toEqual([]);
    const refused = await getInbox({ ...(ctx('/api/admin/chat/inbox') as object), locals: { user: { id: member } } } as never);
    expect(refused.status).toBe(403);
  });
});

describe('contact details', () => {
  it('refuses bad input by field', async () => {
    const v = visitor();
    const res = await postContact(ctx('/api/chat/contact', { method: 'POST', visitorId: v.raw, body: JSON.stringify({ name: ' ', email: 'nope', message: 'x'.repeat(1001) }) }));
    expect(res.status).toBe(400);
    const { error } = await json<ChatErrorBody>(res);
    expect(error).toMatchObject({ code: 'INVALID', fieldErrors: { name: 'Please enter your name', email: 'Please enter a valid email address', message: expect.stringMatching(/at most 1000/) } });
    expect(await h.handle.db.select().from(leadEvents).where(eq(leadEvents.kind, 'chat-lead'))).toEqual([]);
  });

  it('stores the lead with the conversation’s attribution, one mail per admin, and thanks the visitor', async () => {
    // A second admin: both are notified.
    const { userId: second } = await h.signUpVerified({ email: 'second@example.com', firstName: 'Sam' });
    await h.handle.db.update(users).set({ role: 'admin' }).where(eq(users.id, second));
    const v = visitor();
    const { conversation } = await send(v, 'Do you repair bicycles?', { attribution: { sourcePage: '/packages', utmCampaign: 'spring' } });
    const res = await postContact(
      ctx('/api/chat/contact', { method: 'POST', visitorId: v.raw, body: JSON.stringify({ name: `Ada ${XSS}`.slice(0, 100), email: ' Ada@Example.com ', message: `Call me ${XSS}` }) }),
    );
    expect(res.status).toBe(200);
    const thanks = await json<ChatContactResponse>(res);
    expect(thanks.conversation).toMatchObject({ id: conversation.id, hasContact: true });
    expect(thanks.messages).toEqual([expect.objectContaining({ author: 'system', authorName: '', body: expect.stringContaining('ada@example.com') })]);

    const [event] = await h.handle.db.select().from(leadEvents).where(eq(leadEvents.kind, 'chat-lead'));
    expect(event).toMatchObject({ kind: 'chat-lead', refId: conversation.id, email: 'ada@example.com', sourcePage: '/packages', utmCampaign: 'spring' });
    const mail = await h.handle.db.select().from(mailQueue).where(eq(mailQueue.kind, 'chat-lead'));
    expect(mail.map((m) => m.to).sort()).toEqual(['owner@example.com', 'second@example.com']);
    // The visitor's address is unconfirmed: nothing is mailed to it, least of all their own words.
    expect((await h.handle.db.select().from(mailQueue)).filter((m) => m.to.toLowerCase() === 'ada@example.com')).toEqual([]);
    expect(mail[0]!.text).toContain(`/admin/chat-settings/${conversation.id}`);
    expect(mail[0]!.html).not.toContain('<img');
    expect(mail[0]!.html).toContain('&lt;img src=x onerror=alert(1)&gt;');

    const detail = await conversationForAdmin(conversation.id);
    expect(detail!.contact).toMatchObject({ email: 'ada@example.com', message: `Call me ${XSS}` });
    // The same details again are not a second lead.
    await saveChatContact({ name: 'Ada', email: 'ada@example.com' }, { identity: v, clientIp: randomIp() });
    expect(await h.handle.db.select().from(leadEvents).where(eq(leadEvents.kind, 'chat-lead'))).toHaveLength(1);
    // Once known, the widget does not ask again.
    expect((await send(v, 'Do you repair bicycles?')).askContact).toBe(false);
  });

  it('creates the conversation when the details come first (at-start)', async () => {
    await saveSettings({ askContact: 'at-start' });
    const v = visitor();
    const saved = await saveChatContact({ name: 'Ada', email: 'ada@example.com', attribution: { sourcePage: '/free-audit' } }, { identity: v, clientIp: randomIp() });
    expect(saved.conversation.hasContact).toBe(true);
    const [event] = await h.handle.db.select().from(leadEvents).where(eq(leadEvents.kind, 'chat-lead'));
    expect(event).toMatchObject({ refId: saved.conversation.id, sourcePage: '/free-audit' });
  });
});

describe('text-direction characters', () => {
  /** Bidi embeddings, overrides and isolates: what reorders the text around them on screen. */
  const BIDI = /[\u202A-\u202E\u2066-\u2069]/;

  it('are refused in a contact name with a clear field message (400), and nothing is stored', async () => {
    const v = visitor();
    for (const name of ['Ada\u202Egnp.exe', '\u2067Ada', 'Ada \u2066Lovelace\u2069', 'Ada\u200F']) {
      const res = await postContact(ctx('/api/chat/contact', { method: 'POST', visitorId: v.raw, body: JSON.stringify({ name, email: 'ada@example.com' }) }));
      expect(res.status, JSON.stringify(name)).toBe(400);
      expect((await json<ChatErrorBody>(res)).error).toMatchObject({ code: 'INVALID', fieldErrors: { name: CONTACT_NAME_NOT_CLEAN } });
    }
    expect(await h.handle.db.select().from(leadEvents).where(eq(leadEvents.kind, 'chat-lead'))).toEqual([]);
    expect(await h.handle.db.select().from(mailQueue)).toEqual([]);
  });

  it('previews the visitor’s last words: their message, or the contact form’s message after it — never an answer or the thank-you', async () => {
    const v = visitor();
    const { conversation } = await send(v, 'Do you work with physiotherapists?');
    const preview = async () => (await listInbox({ status: 'all', page: 1 })).rows.find((r) => r.id === conversation.id)!.preview;
    expect(await preview()).toBe('Do you work with physiotherapists?');
    await replyToConversation(admin, conversation.id, 'Yes, several. Olivia here.');
    expect(await preview()).toBe('Do you work with physiotherapists?');
    // The contact form without a message: the thank-you follows, the visitor's last words stay.
    await saveChatContact({ name: 'Ada', email: 'ada@example.com' }, { identity: v, clientIp: randomIp() });
    expect(await preview()).toBe('Do you work with physiotherapists?');
    // With a message: that is what they said last.
    await saveChatContact({ name: 'Ada', email: 'ada@example.com', message: 'Three clinics,\n  call after 3pm' }, { identity: v, clientIp: randomIp() });
    expect(await preview()).toBe('Three clinics, call after 3pm');
    await send(v, 'Thanks!');
    expect(await preview()).toBe('Thanks!');
    // Details left before any message ("at-start"): the form's message, or nothing.
    const early = visitor();
    await saveChatContact({ name: 'Bo', email: 'bo@example.com' }, { identity: early, clientIp: randomIp() });
    expect((await listInbox({ status: 'all', page: 1 })).rows[0]).toMatchObject({ displayName: 'Bo', preview: '' });
  });

  it('are kept as typed in a message but never shown: the inbox and the conversation page neutralise and isolate them', async () => {
    assistant.override = async (question) => ({ body: `You asked: ${question}`, sources: [], confident: true });
    const v = visitor();
    const typed = 'Pay \u202Efdp.exe\u2069 today';
    const { conversation } = await send(v, typed);
    // A name saved before names were checked.
    await h.handle.db.update(chatConversations).set({ contactName: 'Ada\u202Elin\u2066x', contactEmail: 'ada@example.com', contactMessage: 'Hi \u2067there' }).where(eq(chatConversations.id, conversation.id));
    const stored = await h.handle.db.select().from(chatMessages).where(eq(chatMessages.conversationId, conversation.id));
    expect(stored.find((m) => m.author === 'visitor')!.body).toBe(typed);

    const { rows } = await listInbox({ status: 'all', page: 1 });
    expect(rows[0]).toMatchObject({ displayName: 'Adalinx', contactName: 'Adalinx', preview: 'Pay fdp.exe today' });
    const detail = (await conversationForAdmin(conversation.id))!;
    expect(detail.conversation.displayName).toBe('Adalinx');
    expect(detail.contact).toMatchObject({ name: 'Adalinx', message: 'Hi there' });
    expect(detail.messages.map((m) => [m.authorName, m.body])).toEqual([
      ['Adalinx', 'Pay fdp.exe today'],
      ['Autoflow Assistant', 'You asked: Pay fdp.exe today'],
    ]);
    expect(JSON.stringify(detail)).not.toMatch(BIDI);

    // The inbox as the admin page renders it: the name in <bdi>, the preview in its own direction.
    const html = renderToStaticMarkup(createElement(InboxList, { rows, query: { status: 'all', page: 1 }, perPage: 20, unreadTotal: 2, total: 1, timeZone: 'UTC' }));
    expect(html).toMatch(/<bdi class="[^"]*" data-display-name="true">Adalinx<\/bdi>/);
    expect(html).toMatch(/<p dir="auto" class="[^"]*" data-preview="true">Pay fdp\.exe today<\/p>/);
    expect(html).not.toMatch(BIDI);
  });
});

describe('limits and the off switch', () => {
  it('refuses a visitor past the limit with 429, Retry-After and the wait in words, keeping what it accepted', async () => {
    const v = visitor();
    const ip = '203.0.113.60';
    for (let i = 0; i < CHAT_RATE_LIMITS.perVisitor.max; i++) {
      const ok = await postMessage(ctx('/api/chat/messages', { method: 'POST', visitorId: v.raw, ip, body: JSON.stringify({ body: `Question ${i}` }) }));
      expect(ok.status).toBe(200);
    }
    const refused = await postMessage(ctx('/api/chat/messages', { method: 'POST', visitorId: v.raw, ip, body: JSON.stringify({ body: 'One more' }) }));
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('Retry-After'))).toBeGreaterThan(0);
    const { error } = await json<ChatErrorBody>(refused);
    expect(error).toMatchObject({ code: 'RATE_LIMITED', message: expect.stringMatching(/try again in \d+ (seconds?|minutes?)\.$/) });
    expect(await h.handle.db.select().from(chatMessages).where(eq(chatMessages.author, 'visitor'))).toHaveLength(CHAT_RATE_LIMITS.perVisitor.max);
  });

  it('answers DISABLED when the chat is switched off', async () => {
    const v = visitor();
    await saveSettings({ enabled: false });
    for (const res of [
      await getSession(ctx('/api/chat/session', { visitorId: v.raw })),
      await postMessage(ctx('/api/chat/messages', { method: 'POST', visitorId: v.raw, body: JSON.stringify({ body: 'Hi' }) })),
      await postContact(ctx('/api/chat/contact', { method: 'POST', visitorId: v.raw, body: JSON.stringify({ name: 'Ada', email: 'ada@example.com' }) })),
    ]) {
      expect(res.status).toBe(404);
      expect((await json<ChatErrorBody>(res)).error.code).toBe('DISABLED');
    }
    expect(await h.handle.db.select().from(chatConversations)).toEqual([]);
  });

  it('reads the business hours in the site’s time zone, a general setting', async () => {
    // Open on Monday 09:00–10:00; Monday 00:30 UTC is 09:30 in Tokyo.
    const mondayMorning = Object.fromEntries(['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((d) => [d, { open: d === 'monday', from: '09:00', to: '10:00' }]));
    await saveSettings({ businessHours: { enabled: true, days: mondayMorning } });
    const at = new Date('2026-03-23T00:30:00Z');
    const v = visitor();
    expect((await chatSession(v, at)).online).toBe(false);
    await writeConfigDocument(GENERAL_SETTINGS_KEY, { timeZone: 'Asia/Tokyo' });
    invalidateMemos([CACHE_TAGS.chat]);
    expect((await chatSession(v, at)).online).toBe(true);
  });

  it('asks for contact details outside business hours', async () => {
    const closed = Object.fromEntries(['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((d) => [d, { open: false }]));
    await saveSettings({ businessHours: { enabled: true, days: closed } });
    const v = visitor();
    const sent = await send(v, 'What is the free audit?');
    expect(sent.askContact).toBe(true);
    expect(await chatSession(v)).toMatchObject({ online: false, offlineMessage: expect.stringMatching(/away/) });
  });
});

describe('a person asked for', () => {
  const REAL_PERSON = 'Can I talk to a real person?';
  const allClosed = Object.fromEntries(['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((d) => [d, { open: false }]));

  beforeEach(async () => {
    assistant.override = undefined;
    // Two articles the site search finds for the words of the question: before decision 031 the visitor
    // got their excerpts ("Here is what I found") before the contact form.
    await h.handle.db.insert(articles).values([
      { id: 'talk-real', slug: 'talk-like-a-real-person', title: 'Talk like a real person', content: '<p>Follow-ups that read as if a real person wrote them get replies.</p>', published: true },
      { id: 'person-review', slug: 'a-person-reviews-it', title: 'A real person reviews every automation', content: '<p>Talk to your clients as a person would.</p>', published: true },
    ]);
  });

  it('goes straight to the person path: no search answer, the contact form at once', async () => {
    expect(composeSearchAnswer(await searchSite(REAL_PERSON)), 'the search alone would answer with article excerpts').toMatchObject({ confident: true, body: expect.stringMatching(/^Here is what I found/) });
    const v = visitor();
    const res = await postMessage(ctx('/api/chat/messages', { method: 'POST', visitorId: v.raw, body: JSON.stringify({ body: REAL_PERSON }) }));
    expect(res.status).toBe(200);
    const sent = await json<ChatSendResponse>(res);
    expect(sent.messages.map((m) => m.author)).toEqual(['visitor', 'assistant']);
    expect(sent.messages[1]).toMatchObject({ body: personAnswer({ online: true, contactEmail: '' }).body, sources: [] });
    expect(sent.messages[1]!.body).toMatch(/Someone from our team will answer here/);
    expect(sent.askContact).toBe(true);
    // Stored as said: the admin sees the same answer in the conversation.
    const stored = await h.handle.db.select().from(chatMessages).where(eq(chatMessages.author, 'assistant'));
    expect(stored.map((m) => m.body)).toEqual([sent.messages[1]!.body]);
  });

  it.each(['a human please', 'speak to an agent', 'Thanks! But can I call you about a custom project?', 'OPERATOR'])('takes the person path for %j', async (text) => {
    const sent = await send(visitor(), text);
    expect(sent.messages[1]!.body).toBe(personAnswer({ online: true, contactEmail: '' }).body);
    expect(sent.askContact).toBe(true);
  });

  it('answers an ordinary question with the same words from the site, as before', async () => {
    const sent = await send(visitor(), 'How do your agents work?');
    expect(sent.messages[1]!.body).not.toBe(personAnswer({ online: true, contactEmail: '' }).body);
  });

  it('outside business hours promises no answer here, and asks for the details', async () => {
    await saveSettings({ businessHours: { enabled: true, days: allClosed } });
    const sent = await send(visitor(), REAL_PERSON);
    expect(sent.messages[1]!.body).toBe(personAnswer({ online: false, contactEmail: '' }).body);
    expect(sent.askContact).toBe(true);
  });

  it('once the email is known, says where the answer goes and does not ask again', async () => {
    const v = visitor();
    await saveChatContact({ name: 'Ada', email: 'ada@example.com' }, { identity: v, clientIp: randomIp() });
    const sent = await send(v, 'a human please');
    expect(sent.messages[1]!.body).toBe(personAnswer({ online: true, contactEmail: 'ada@example.com' }).body);
    expect(sent.askContact).toBe(false);
  });
});

describe('live events', () => {
  it('publishes messages and state to the conversation and the inbox after the write commits', async () => {
    const v = visitor();
    const { conversation } = await send(v, 'Hello');
    const seen: ConversationEvent[] = [];
    const inbox: InboxEvent[] = [];
    const committed: Promise<boolean>[] = [];
    const stopConversation = subscribeToConversation(conversation.id, (e) => {
      seen.push(e);
      // The listener can read what it is told about: the transaction has committed.
      if (e.event === 'message') committed.push(findMessage(e.data.seq).then(Boolean));
    });
    const stopInbox = subscribeToInbox((e) => inbox.push(e));
    await replyToConversation(admin, conversation.id, 'Hi, a person here.');
    await send(v, 'Thanks');
    stopConversation();
    stopInbox();
    expect(seen.map((e) => e.event)).toEqual(['message', 'state', 'message', 'state']);
    expect(seen[0]).toMatchObject({ data: { author: 'admin', authorName: 'Olivia', body: 'Hi, a person here.' } });
    expect(seen[1]).toMatchObject({ data: { takenOver: true, agentName: 'Olivia' } });
    expect(seen[2]).toMatchObject({ data: { author: 'visitor', authorName: 'You', body: 'Thanks' } });
    expect(await Promise.all(committed)).toEqual([true, true]);
    // The inbox's own events (the feed also carries the counts and alerts: tests/integration/admin-today.test.ts).
    const rows = inbox.filter((e) => e.event === 'message' || e.event === 'conversation');
    expect(rows.map((e) => e.event)).toEqual(['message', 'conversation', 'message', 'conversation']);
    expect(rows[2]).toMatchObject({ data: { conversationId: conversation.id, author: 'visitor', authorName: expect.stringMatching(/^Visitor /) } });
    expect(rows[3]).toMatchObject({ data: { id: conversation.id, unread: 1, preview: 'Thanks' } });
    // Only the visitor's message alerts, after it was stored.
    expect(inbox.filter((e) => e.event === 'alert').map((e) => e.data.id)).toEqual([`chat-message:${(rows[2]!.data as { seq: number }).seq}`]);
  });

  it('streams events over SSE with a replay after Last-Event-ID, and stops listening when the client leaves', async () => {
    const v = visitor();
    const { conversation, messages } = await send(v, 'What is the free audit?');
    const abort = new AbortController();
    const res = await getStream(
      ctx(`/api/chat/stream?c=${conversation.id}&t=${conversation.streamToken}`, { headers: { 'Last-Event-ID': String(messages[0]!.seq) }, signal: abort.signal }),
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Type')).toMatch(/^text\/event-stream/);
    expect(res.headers.get('X-Accel-Buffering')).toBe('no');
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    const readUntil = async (needle: string) => {
      while (!text.includes(needle)) {
        const { value, done } = await reader.read();
        if (done) break;
        text += decoder.decode(value);
      }
    };
    await readUntil('event: state');
    expect(text).toContain(`id: ${messages[1]!.seq}\nevent: message`);
    expect(text).not.toContain(`id: ${messages[0]!.seq}\n`);
    await replyToConversation(admin, conversation.id, 'Live reply');
    await readUntil('Live reply');
    expect(text).toMatch(/event: message\ndata: \{[^\n]*"body":"Live reply"/);
    abort.abort();
    await reader.cancel();
    const { conversationListenerCount } = await import('../../src/server/modules/chat/hub');
    expect(conversationListenerCount(conversation.id)).toBe(0);
  });

  it('caps the open streams of one client address', async () => {
    const { MAX_STREAMS_PER_CLIENT } = await import('../../src/server/modules/chat/streams');
    const { conversation } = await send(visitor(), 'Hello');
    const path = `/api/chat/stream?c=${conversation.id}&t=${conversation.streamToken}`;
    const ip = '203.0.113.77';
    const aborts = Array.from({ length: MAX_STREAMS_PER_CLIENT }, () => new AbortController());
    const open = await Promise.all(aborts.map((a) => getStream(ctx(path, { ip, signal: a.signal }))));
    expect(open.every((r) => r.status === 200)).toBe(true);
    const refused = await getStream(ctx(path, { ip }));
    expect(refused.status).toBe(429);
    expect(refused.headers.get('Retry-After')).toBe('30');
    expect((await getStream(ctx(path, { ip: '203.0.113.78' }))).status).toBe(200);
    aborts[0]!.abort();
    expect((await getStream(ctx(path, { ip }))).status).toBe(200);
    for (const a of aborts) a.abort();
  });

  it('streams an LLM-mode answer as ndjson lines ending with the whole response', async () => {
    assistant.override = async (_question, { onDelta }) => {
      for (const part of ['We review ', 'your website ', 'for free.']) onDelta?.(part);
      return { body: 'We review your website for free.', sources: [{ title: 'What is the free audit?', href: '/#faq-free-audit' }], confident: true };
    };
    await saveSettings({ llm: { enabled: true, endpoint: 'https://llm.test/v1/chat/completions', model: 'test' } });
    const v = visitor();
    const res = await postMessage(ctx('/api/chat/messages', { method: 'POST', visitorId: v.raw, body: JSON.stringify({ body: 'What is the free audit?' }) }));
    expect(res.headers.get('Content-Type')).toMatch(/^application\/x-ndjson/);
    const lines = (await res.text())
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as ChatStreamLine);
    expect(lines.at(-1)).toMatchObject({ type: 'done', response: { messages: [{ author: 'visitor' }, { author: 'assistant' }] } });
    expect(lines.filter((l) => l.type === 'delta')).toEqual([
      { type: 'delta', text: 'We review ' },
      { type: 'delta', text: 'your website ' },
      { type: 'delta', text: 'for free.' },
    ]);
    const done = lines.at(-1) as Extract<ChatStreamLine, { type: 'done' }>;
    expect(done.response.messages[1]).toMatchObject({ body: 'We review your website for free.', sources: [{ href: '/#faq-free-audit' }] });
  });
});
