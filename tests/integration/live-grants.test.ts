/**
 * A grant ends everywhere (docs/decisions/017): the admin inbox's live stream and a member's conversation
 * stream end when the account is demoted or disabled, when the session they were opened with signs out or
 * is revoked, and after their lifetime; the browser's reconnect is then checked again. An admin holds at
 * most MAX_INBOX_STREAMS_PER_ADMIN inbox streams at once.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const lifetime = vi.hoisted(() => {
  process.env.AUTH_SECRET ??= 'test-secret-that-is-long-enough-for-hs256-signing';
  /** A stream lifetime for one test (milliseconds); the real one otherwise. */
  return { ms: undefined as number | undefined };
});
vi.mock('../../src/server/modules/live-grants', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/server/modules/live-grants')>();
  return { ...real, streamLifetimeMs: () => lifetime.ms ?? real.streamLifetimeMs() };
});
/** Holds the inbox stream's admin check just after it has read the role, for one test of the race. */
const checkGate = vi.hoisted(() => ({ next: undefined as undefined | { checked: () => void; proceed: Promise<void> } }));
vi.mock('../../src/server/modules/chat/admin-http', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/server/modules/chat/admin-http')>();
  return {
    ...real,
    requireInboxAdmin: async (actorId: string | undefined) => {
      await real.requireInboxAdmin(actorId);
      const gate = checkGate.next;
      checkGate.next = undefined;
      if (gate) {
        gate.checked();
        await gate.proceed;
      }
    },
  };
});

import { GET as getInboxStream } from '../../src/pages/api/admin/chat/stream';
import { GET as getPoll } from '../../src/pages/api/chat/poll';
import { GET as getConversationStream } from '../../src/pages/api/chat/stream';
import { readSession } from '../../src/server/guards/session';
import { publishToInbox, type InboxEvent } from '../../src/server/modules/chat/hub';
import { visitorKeyOf } from '../../src/server/modules/chat/identity';
import { sendVisitorMessage } from '../../src/server/modules/chat/service';
import { MAX_INBOX_STREAMS_PER_ADMIN } from '../../src/server/modules/chat/streams';
import { endStreamsOfUser, liveStreamCount } from '../../src/server/modules/live-grants';
import { disableUser, setRole } from '../../src/server/modules/users/service';
import type { ChatConversationState, ChatErrorBody } from '../../src/shared/chat';
import { Browser, createAuthHarness, PASSWORD, randomIp, SITE, type AuthHarness } from '../support/auth';

let h: AuthHarness;
let owner: { userId: string; browser: Browser };
let helper: { userId: string; browser: Browser };
let member: { userId: string; browser: Browser };
const open: AbortController[] = [];

beforeEach(async () => {
  h = await createAuthHarness();
  owner = await h.signUpVerified({ email: 'owner@example.com', firstName: 'Olivia' });
  helper = await h.signUpVerified({ email: 'helper@example.com', firstName: 'Hugo' });
  member = await h.signUpVerified({ email: 'member@example.com', firstName: 'Mia' });
  await setRole(owner.userId, helper.userId, 'admin');
});
afterEach(async () => {
  lifetime.ms = undefined;
  for (const a of open.splice(0)) a.abort();
  await h.close();
});

/** The route's context as the middleware leaves it: the session read from the browser's cookie. */
async function routeContext(path: string, browser?: Browser) {
  const headers = new Headers(browser?.cookies.size ? { cookie: browser.cookieHeader } : {});
  const found = await readSession(headers, (hs) => h.auth.api.getSession({ headers: hs }));
  const abort = new AbortController();
  open.push(abort);
  const request = new Request(`${SITE}${path}`, { headers, signal: abort.signal });
  return { request, url: new URL(request.url), clientAddress: randomIp(), locals: found ? { user: found.user, session: found.session } : {} } as never;
}

const openInbox = async (browser: Browser) => getInboxStream(await routeContext('/api/admin/chat/stream', browser));

/** Reads a server-sent event stream as text. */
function sse(res: Response) {
  expect(res.status).toBe(200);
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let done = false;
  const readOnce = async () => {
    const chunk = await reader.read();
    if (chunk.done) done = true;
    else text += decoder.decode(chunk.value);
  };
  const within = <T>(work: Promise<T>, what: string) =>
    Promise.race([work, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`timed out waiting for ${what}; got: ${text}`)), 5000))]);
  return {
    get text() {
      return text;
    },
    /** Resolves with everything sent once the server has closed the stream. */
    ended: () =>
      within(
        (async () => {
          while (!done) await readOnce();
          return text;
        })(),
        'the end of the stream',
      ),
    /** Resolves once `needle` has arrived (the stream is still open and listening). */
    receives: (needle: string) =>
      within(
        (async () => {
          while (!text.includes(needle) && !done) await readOnce();
          if (!text.includes(needle)) throw new Error(`the stream ended without ${needle}`);
        })(),
        needle,
      ),
  };
}

const endEvent = (reason: string) => `event: end\ndata: {"reason":"${reason}"}\n\n`;
let probes = 0;
/** An inbox event every open inbox stream should pass on. */
function probeInbox(): string {
  const id = `probe-${(probes += 1)}`;
  publishToInbox({ event: 'conversation', data: { id } } as unknown as InboxEvent);
  return `"id":"${id}"`;
}

async function signInAgain(email: string) {
  const browser = new Browser();
  expect((await h.signIn(email, PASSWORD, browser)).status).toBe(200);
  return browser;
}

const sessionTokenOf = (browser: Browser) => decodeURIComponent(browser.sessionToken!).split('.')[0]!;

describe('the admin inbox stream', () => {
  it('ends on every session of an admin who is demoted, and their reconnect is refused; other admins stay live', async () => {
    const secondTab = await signInAgain('helper@example.com');
    const helperStreams = [sse(await openInbox(helper.browser)), sse(await openInbox(secondTab))];
    const ownerStream = sse(await openInbox(owner.browser));
    const probe = probeInbox();
    for (const s of [...helperStreams, ownerStream]) await s.receives(probe);

    await setRole(owner.userId, helper.userId, 'user');
    for (const s of helperStreams) expect(await s.ended()).toContain(endEvent('grant-ended'));
    expect(liveStreamCount(helper.userId, 'admin-inbox')).toBe(0);

    const reconnect = await openInbox(helper.browser);
    expect(reconnect.status).toBe(403);
    expect(await reconnect.json()).toMatchObject({ error: { code: 'FORBIDDEN', message: 'Only an admin can read the chat inbox.' } });
    await ownerStream.receives(probeInbox());
  });

  it('a demotion that commits after the opening stream read the role is not missed; an unrelated end there only means a second check', async () => {
    /** Opens a stream whose first check has read the role (an admin) and waits until `meanwhile` is done. */
    async function openWhile(browser: Browser, meanwhile: () => Promise<unknown>) {
      let checked!: () => void;
      let proceed!: () => void;
      const read = new Promise<void>((resolve) => (checked = resolve));
      checkGate.next = { checked, proceed: new Promise<void>((resolve) => (proceed = resolve)) };
      const opening = getInboxStream(await routeContext('/api/admin/chat/stream', browser));
      await read;
      await meanwhile();
      proceed();
      return opening;
    }

    const demoted = await openWhile(helper.browser, () => setRole(owner.userId, helper.userId, 'user'));
    expect(demoted.status).toBe(403);
    expect(liveStreamCount(helper.userId, 'admin-inbox')).toBe(0);

    const stillAdmin = await openWhile(owner.browser, () => endStreamsOfUser(owner.userId));
    await sse(stillAdmin).receives(probeInbox());
  });

  it('ends when the admin is disabled', async () => {
    const stream = sse(await openInbox(helper.browser));
    await disableUser(owner.userId, helper.userId, 'left the company');
    expect(await stream.ended()).toContain(endEvent('grant-ended'));
  });

  it('ends on sign-out for that session only; the admin’s other sessions stay live', async () => {
    const secondTab = await signInAgain('helper@example.com');
    const signingOut = sse(await openInbox(helper.browser));
    const staying = sse(await openInbox(secondTab));
    expect((await h.call('/sign-out', { browser: helper.browser, body: {} })).status).toBe(200);
    expect(await signingOut.ended()).toContain(endEvent('grant-ended'));
    await staying.receives(probeInbox());
  });

  it('ends when its session is revoked from another one', async () => {
    const secondTab = await signInAgain('helper@example.com');
    const revoked = sse(await openInbox(helper.browser));
    const staying = sse(await openInbox(secondTab));
    await h.auth.api.revokeSession({ headers: new Headers({ cookie: secondTab.cookieHeader }), body: { token: sessionTokenOf(helper.browser) } });
    expect(await revoked.ended()).toContain(endEvent('grant-ended'));
    await staying.receives(probeInbox());
  });

  it('ends on every session when the password is changed (which signs the other sessions out)', async () => {
    const other = await signInAgain('helper@example.com');
    const here = await signInAgain('helper@example.com');
    const elsewhere = sse(await openInbox(other));
    const res = await h.call('/account/change-password', { browser: here, body: { newPassword: 'a new horse battery', confirmPassword: 'a new horse battery' } });
    expect(res.status).toBe(200);
    expect(await elsewhere.ended()).toContain(endEvent('grant-ended'));
    // The browser that changed it got a fresh session and opens the inbox again.
    expect((await openInbox(here)).status).toBe(200);
    expect((await openInbox(other)).status).toBe(403);
  });

  it('ends by itself when its lifetime is up, and the reconnect is checked and allowed again', async () => {
    lifetime.ms = 200;
    const stream = sse(await openInbox(owner.browser));
    expect(await stream.ended()).toContain(endEvent('lifetime'));
    expect(liveStreamCount(owner.userId, 'admin-inbox')).toBe(0);
    lifetime.ms = undefined;
    await sse(await openInbox(owner.browser)).receives(probeInbox());
  });

  it(`allows ${MAX_INBOX_STREAMS_PER_ADMIN} open streams per admin account, then answers 429 with Retry-After`, async () => {
    const streams = [];
    for (let i = 0; i < MAX_INBOX_STREAMS_PER_ADMIN; i++) streams.push(await openInbox(owner.browser));
    expect(streams.map((r) => r.status)).toEqual(Array(MAX_INBOX_STREAMS_PER_ADMIN).fill(200));

    const refused = await openInbox(owner.browser);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('Retry-After')).toBe('30');
    expect(((await refused.json()) as ChatErrorBody).error).toMatchObject({
      code: 'RATE_LIMITED',
      message: `The chat inbox is already open in ${MAX_INBOX_STREAMS_PER_ADMIN} windows or tabs on your account. Close one of them and reload this page.`,
      retryAfterSeconds: 30,
    });
    // Per account: another admin is not affected.
    expect((await openInbox(helper.browser)).status).toBe(200);
    // A closed one makes room.
    await streams[0]!.body!.cancel();
    expect((await openInbox(owner.browser)).status).toBe(200);
  });
});

describe('a member’s conversation stream', () => {
  /** The member's conversation, created by a message sent while signed in. */
  async function memberConversation(): Promise<ChatConversationState> {
    const identity = { visitorKey: visitorKeyOf('a'.repeat(32)), userId: member.userId };
    return (await sendVisitorMessage({ body: 'Hello from my account' }, { identity, clientIp: randomIp() })).conversation;
  }
  const streamPath = (c: ChatConversationState) => `/api/chat/stream?c=${c.id}&t=${c.streamToken}`;
  const pollPath = (c: ChatConversationState) => `/api/chat/poll?c=${c.id}&t=${c.streamToken}&after=0`;

  it('opens only with the member’s session (or an admin’s), and ends when the member signs out', async () => {
    const conversation = await memberConversation();

    // The token alone is not enough for a member's conversation: not for the stream, not for the poll.
    const anonymous = await getConversationStream(await routeContext(streamPath(conversation)));
    expect(anonymous.status).toBe(403);
    expect(((await anonymous.json()) as ChatErrorBody).error.code).toBe('FORBIDDEN');
    expect((await getPoll(await routeContext(pollPath(conversation)))).status).toBe(403);
    const stranger = await h.signUpVerified({ email: 'stranger@example.com' });
    expect((await getConversationStream(await routeContext(streamPath(conversation), stranger.browser))).status).toBe(403);
    // The inbox's polling fallback reads it as an admin.
    expect((await getPoll(await routeContext(pollPath(conversation), owner.browser))).status).toBe(200);

    const stream = sse(await getConversationStream(await routeContext(streamPath(conversation), member.browser)));
    await stream.receives('event: state');
    expect((await h.call('/sign-out', { browser: member.browser, body: {} })).status).toBe(200);
    expect(await stream.ended()).toContain(endEvent('grant-ended'));
    expect(liveStreamCount(member.userId, 'chat-conversation')).toBe(0);
    // The reconnect, now signed out, is refused.
    expect((await getConversationStream(await routeContext(streamPath(conversation), member.browser))).status).toBe(403);
  });

  it('a visitor’s own conversation still opens with its token alone', async () => {
    const identity = { visitorKey: visitorKeyOf('b'.repeat(32)), userId: null };
    const { conversation } = await sendVisitorMessage({ body: 'Hello' }, { identity, clientIp: randomIp() });
    await sse(await getConversationStream(await routeContext(streamPath(conversation)))).receives('event: state');
  });
});
