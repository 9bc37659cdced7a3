/**
 * What every server process must see goes through PostgreSQL LISTEN/NOTIFY (docs/decisions/022). Two
 * listeners on one database stand for two processes: this test process's bus (with its route cache,
 * memos, chat hub and live grants) and a second transport that plays "the other process", sending
 * envelopes under its own instance id and recording what it receives.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
process.env.AUTH_SECRET ??= 'test-secret-that-is-long-enough-for-hs256-signing';

import pg from 'pg';
import createProvider, { type createByteLimitedProvider } from '../../src/server/cache/byte-limited-provider';
import { tagMemo } from '../../src/server/cache/memo';
import { CACHE_TAGS, invalidateTags } from '../../src/server/cache/tags';
import type { DatabaseHandle } from '../../src/server/db/client';
import { closeTransport, encodeEnvelope, instanceId, MAX_PAYLOAD_BYTES, onEvent, publish, receive, resync, useTransport } from '../../src/server/events/bus';
import { announce } from '../../src/server/events';
import { startPostgresTransport, type PostgresTransport } from '../../src/server/events/postgres';
import { mediaCache } from '../../src/server/media/cache';
import { subscribeToConversation, subscribeToInbox, type ConversationEvent, type InboxEvent } from '../../src/server/modules/chat/hub';
import { visitorKeyOf } from '../../src/server/modules/chat/identity';
import { sendVisitorMessage } from '../../src/server/modules/chat/service';
import { sseResponse } from '../../src/server/modules/chat/sse';
import { holdGrant } from '../../src/server/modules/live-grants';
import { freshDatabase, onPostgres } from '../support/db';

const OTHER = 'the-other-process';

it('refuses a payload PostgreSQL could not NOTIFY: big things travel by reference', () => {
  expect(() => encodeEnvelope('chat.change', { text: 'x'.repeat(MAX_PAYLOAD_BYTES) })).toThrow(/send a reference/);
  expect(encodeEnvelope('cache.tags', { tags: ['faqs'] }).length).toBeLessThan(200);
});

describe.skipIf(!onPostgres)('events between processes on PostgreSQL', () => {
  let handle: DatabaseHandle;
  let here: PostgresTransport;
  let other: PostgresTransport;
  const otherReceived: { t: string; d: unknown; i: string }[] = [];
  let resyncs = 0;
  // Created the way Astro creates it, so it registers itself where other processes' events find it.
  const provider = createProvider({ maxBytes: 4 * 1024 * 1024 }) as ReturnType<typeof createByteLimitedProvider>;

  const transportFor = (onPayload: (p: string) => void, onReconnected: () => void) =>
    startPostgresTransport({
      url: handle.postgres!.url,
      query: (text, values) => handle.postgres!.pool.query(text, values),
      onPayload,
      onReconnected,
      minDelayMs: 50,
      maxDelayMs: 200,
    });
  /** A page in this process's route cache, stored under `tags`. */
  const cachePage = (path: string, tags: string[]) =>
    provider.store.set(path, { body: new ArrayBuffer(8), status: 200, headers: [], storedAt: Date.now(), maxAgeSeconds: 300, tags });
  /** What "the other process" sends: an envelope under its own id. */
  const fromOther = (topic: string, data: unknown) => other.send(encodeEnvelope(topic, data, OTHER));

  beforeAll(async () => {
    handle = await freshDatabase();
    here = transportFor(receive, () => {
      resyncs += 1;
      resync();
    });
    other = transportFor((p) => otherReceived.push(JSON.parse(p) as (typeof otherReceived)[number]), () => {});
    await Promise.all([here.listening, other.listening]);
    useTransport(here);
  });

  afterAll(async () => {
    await closeTransport();
    await other?.close();
    await handle?.close();
  });

  beforeEach(() => {
    otherReceived.length = 0;
  });

  it('a tag invalidation on this process reaches the other one, and this one does not handle its own echo twice', async () => {
    cachePage('/', [CACHE_TAGS.faqs]);
    // This process's part goes through the request's cache (Astro's API), as in a real Action.
    await invalidateTags({ cache: { enabled: true, invalidate: (o: { tags: string[] }) => provider.invalidate(o) } } as never, [CACHE_TAGS.faqs]);
    await expect.poll(() => otherReceived.map((e) => [e.t, e.d, e.i])).toEqual([['cache.tags', { tags: ['faqs'] }, instanceId()]]);
    expect(provider.store.get('/')).toBeUndefined();
  });

  it('a publish is handled here at once, and its echo from PostgreSQL is not handled a second time', async () => {
    const handled: unknown[] = [];
    onEvent('test.echo', (d) => handled.push(d));
    const published = publish('test.echo', { n: 1 });
    // Delivered in this process before any round trip.
    expect(handled).toEqual([{ n: 1 }]);
    await published;
    await expect.poll(() => otherReceived.length).toBe(1);
    // The same NOTIFY reached this process's own listener by now (sent before the other's was read).
    await new Promise((r) => setTimeout(r, 200));
    expect(handled).toEqual([{ n: 1 }]);
    await fromOther('test.echo', { n: 2 });
    await expect.poll(() => handled).toEqual([{ n: 1 }, { n: 2 }]);
  });

  it('another process’s invalidation drops the tagged pages and memos here within a second, and nothing else', async () => {
    let reads = 0;
    const memo = tagMemo([CACHE_TAGS.faqs], 300_000, async () => ++reads);
    await memo.get('k');
    cachePage('/', [CACHE_TAGS.faqs, CACHE_TAGS.site]);
    cachePage('/services', [CACHE_TAGS.services]);
    const started = Date.now();
    await fromOther('cache.tags', { tags: [CACHE_TAGS.faqs] });
    await expect.poll(() => provider.store.get('/'), { timeout: 1000, interval: 10 }).toBeUndefined();
    expect(Date.now() - started).toBeLessThan(1000);
    expect(provider.store.get('/services')).toBeDefined();
    expect(await memo.get('k')).toBe(2);
  });

  it('a grant ended on another process ends this process’s stream of that account', async () => {
    const grant = holdGrant({ userId: 'admin-1', sessionId: 's-1', kind: 'admin-inbox' });
    const kept = holdGrant({ userId: 'admin-2', sessionId: 's-2', kind: 'admin-inbox' });
    await fromOther('grants.ended', { userId: 'admin-1' });
    await expect.poll(() => grant.signal.aborted, { timeout: 1000 }).toBe(true);
    expect(kept.signal.aborted).toBe(false);
    kept.release();
  });

  it('a deleted image leaves this process’s media cache when another process deletes it', async () => {
    const cache = mediaCache();
    await cache.load('img-1', async () => ({ bytes: new Uint8Array([1, 2, 3]), keep: true }));
    expect(cache.get('img-1')).toBeDefined();
    await fromOther('media.forget', { id: 'img-1' });
    await expect.poll(() => cache.get('img-1'), { timeout: 1000 }).toBeUndefined();
  });

  it('a chat change on another process reaches this process’s widget and inbox listeners, read from the database', async () => {
    const identity = { visitorKey: visitorKeyOf('b'.repeat(32)), userId: null };
    const { conversation, messages } = await sendVisitorMessage({ body: 'Hello from process A' }, { identity, clientIp: '10.0.0.9' });
    const widget: ConversationEvent[] = [];
    const inbox: InboxEvent[] = [];
    const stopWidget = subscribeToConversation(conversation.id, (e) => widget.push(e));
    const stopInbox = subscribeToInbox((e) => inbox.push(e));
    try {
      await fromOther('chat.change', { conversationId: conversation.id, seqs: [messages[0]!.seq], state: true });
      await expect.poll(() => widget.map((e) => e.event), { timeout: 1000 }).toEqual(['message', 'state']);
      expect(widget[0]!.data).toMatchObject({ body: 'Hello from process A', authorName: 'You' });
      // The visitor's message alerts this process's admins too; their counts follow (read a moment later).
      expect(inbox.filter((e) => e.event !== 'signals').map((e) => e.event)).toEqual(['message', 'alert', 'conversation']);
      expect(inbox[0]!.data).toMatchObject({ body: 'Hello from process A', conversationId: conversation.id });
      await expect.poll(() => inbox.some((e) => e.event === 'signals' && e.data.unreadChats === 1), { timeout: 1000 }).toBe(true);
    } finally {
      stopWidget();
      stopInbox();
    }
  });

  it('a CLI script that writes to the database tells the running servers (content:import)', async () => {
    // This test process plays the script here; "the other process" is the running server.
    await announce(handle, 'cache.tags', { tags: Object.values(CACHE_TAGS) });
    await expect.poll(() => otherReceived.map((e) => [e.t, e.d]), { timeout: 1000 }).toEqual([['cache.tags', { tags: Object.values(CACHE_TAGS) }]]);
  });

  it('a publish while the database refuses it is logged, not thrown: the write it announces is committed', async () => {
    useTransport({ send: () => Promise.reject(new Error('down')), close: async () => {} });
    try {
      await expect(publish('cache.tags', { tags: ['faqs'] }, { here: false })).resolves.toBeUndefined();
    } finally {
      useTransport(here);
    }
  });

  it('after its listener is terminated, a process reconnects, drops every cache and tells live streams to resync; events flow again', async () => {
    let reads = 0;
    const memo = tagMemo([CACHE_TAGS.packages], 300_000, async () => ++reads);
    await memo.get('k');
    cachePage('/pricing', [CACHE_TAGS.packages]);
    await mediaCache().load('img-2', async () => ({ bytes: new Uint8Array([4]), keep: true }));
    const stream = sseResponse({ subscribe: () => () => {}, initial: async () => [] }, new AbortController().signal);
    const reader = stream.body!.getReader();
    const before = here.reconnects;
    const pid = here.backendPid;

    const admin = new pg.Client({ connectionString: handle.postgres!.url });
    await admin.connect();
    try {
      await admin.query('select pg_terminate_backend($1)', [pid]);
    } finally {
      await admin.end();
    }

    await expect.poll(() => here.reconnects, { timeout: 5000 }).toBe(before + 1);
    expect(here.backendPid).not.toBe(pid);
    expect(resyncs).toBeGreaterThan(0);
    expect(provider.store.get('/pricing')).toBeUndefined();
    expect(mediaCache().get('img-2')).toBeUndefined();
    expect(await memo.get('k')).toBe(2);
    let text = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      text += new TextDecoder().decode(value);
    }
    expect(text).toContain('event: end\ndata: {"reason":"resync"}');

    // The new LISTEN receives what the other process sends.
    cachePage('/pricing', [CACHE_TAGS.packages]);
    await fromOther('cache.tags', { tags: [CACHE_TAGS.packages] });
    await expect.poll(() => provider.store.get('/pricing'), { timeout: 1000 }).toBeUndefined();
  });
});
