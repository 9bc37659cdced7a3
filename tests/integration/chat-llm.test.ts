/**
 * LLM mode against a local fake endpoint (tests/support/fake-llm.ts: https on 127.0.0.1, reached as
 * https://llm.test:PORT through the safe fetch's test network): the Bearer key from LLM_API_KEY, only ever
 * sent to LLM_API_ORIGIN, the grounding, streamed pieces, amounts removed, and the fall back to the search
 * answer on every failure.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';

// The key and the one origin it may go to come from the environment before any module reads it; the
// origin carries the stand-in's random port, so the stand-in starts first.
const { KEY, fake } = await vi.hoisted(async () => {
  const key = 'sk-test-0123456789abcdef';
  process.env.LLM_API_KEY = key;
  const { startFakeLlm } = await import('../support/fake-llm');
  const started = await startFakeLlm();
  process.env.LLM_API_ORIGIN = started.origin;
  return { KEY: key, fake: started };
});

import { chatSettingsSchema, type ChatSettings } from '../../src/shared/chat';
import { personAnswer, PRICE_ANSWER, PRICE_REDACTED } from '../../src/shared/chat-answer';
import { db } from '../../src/server/db';
import type { DatabaseHandle } from '../../src/server/db/client';
import { packages } from '../../src/server/db/schema';
import { useTestNetwork } from '../../src/server/http/safe-fetch';
import { assistantReply, type AssistantReply } from '../../src/server/modules/chat/assistant';
import { llmTimeouts, LlmError, streamCompletion } from '../../src/server/modules/chat-llm/client';
import { llmAccess } from '../../src/server/modules/chat-llm/service';
import { freshDatabase } from '../support/db';
import { startFakeLlm, type FakeLlm } from '../support/fake-llm';
import { startStandIn, useStandInNetwork } from '../support/stand-in-https';

const SEARCH_SETUP_ANSWER =
  'Most systems go live in 10 to 14 days. Week one is mapping your lead flow and writing the messages with you; week two is building, testing and switching it on.';

let handle: DatabaseHandle;
/** Another origin that records whatever reaches it: the key must never. */
let other: FakeLlm;
const saved = { ...llmTimeouts };

beforeAll(async () => {
  handle = await freshDatabase();
  await useStandInNetwork();
  other = await startFakeLlm('stream', ['Stolen'], 'other.test');
  // Shorter limits keep the slow cases fast (the production values live in chat-llm/client.ts), but not
  // so short that a TLS handshake on a machine busy with the browser tests counts as a silent model.
  llmTimeouts.firstTokenMs = 1500;
  llmTimeouts.totalMs = 3000;
});
afterAll(async () => {
  Object.assign(llmTimeouts, saved);
  useTestNetwork(undefined);
  await fake.close();
  await other.close();
  await handle.close();
});
beforeEach(() => {
  fake.requests.length = 0;
  other.requests.length = 0;
  fake.mode = 'stream';
  fake.chunks = ['Setup takes ', 'ten to fourteen ', 'days.'];
});
afterEach(() => vi.restoreAllMocks());

/** Settings as stored; `endpoint` is taken as given (a document saved under other rules, or edited by hand). */
const settings = (endpoint = fake.url): ChatSettings => ({
  ...chatSettingsSchema.parse({ assistantName: 'Ava' }),
  llm: { enabled: true, endpoint, model: 'test-model' },
});

async function ask(question: string, endpoint?: string): Promise<{ reply: AssistantReply; deltas: string[] }> {
  const deltas: string[] = [];
  const reply = await assistantReply(question, {
    settings: settings(endpoint),
    history: [
      { author: 'visitor', body: 'Hello there' },
      { author: 'assistant', body: 'Hi! How can I help?' },
      { author: 'system', body: 'Ava joined' },
    ],
    onDelta: (t) => deltas.push(t),
  });
  return { reply, deltas };
}

describe('LLM mode', () => {
  it('streams a grounded answer with the key as a Bearer token', async () => {
    const { reply, deltas } = await ask('How long does setup take?');
    expect(reply).toEqual({
      body: 'Setup takes ten to fourteen days.',
      sources: [expect.objectContaining({ href: '/#faq-default-3' }), ...reply.sources.slice(1)],
      confident: true,
    });
    expect(deltas.length).toBeGreaterThanOrEqual(2);
    expect(deltas.join('')).toBe('Setup takes ten to fourteen');

    expect(fake.requests).toHaveLength(1);
    const [request] = fake.requests;
    expect(request!.authorization).toBe(`Bearer ${KEY}`);
    expect(request!.body.model).toBe('test-model');
    expect(request!.body.stream).toBe(true);
    const messages = request!.body.messages!;
    expect(messages[0]!.role).toBe('system');
    expect(messages[0]!.content).toContain('You are Ava');
    expect(messages[0]!.content).toContain('How long does setup take? (/#faq-default-3)');
    expect(messages[0]!.content).toContain('Most systems go live in 10 to 14 days');
    expect(messages[0]!.content).toMatch(/never state or estimate a price/i);
    // History without system notes, then the question.
    expect(messages.slice(1)).toEqual([
      { role: 'user', content: 'Hello there' },
      { role: 'assistant', content: 'Hi! How can I help?' },
      { role: 'user', content: 'How long does setup take?' },
    ]);
  });

  it('removes amounts from the model\'s answer and never sends one in a piece', async () => {
    await db().insert(packages).values({ id: 'starter', name: 'Starter', shortText: 'Everything to start for $2,000.' });
    fake.chunks = ['The Starter package ', 'costs $2,', '000 and ', 'includes reminders.'];
    const { reply, deltas } = await ask('Tell me about the Starter package');
    expect(reply.body).toBe(`The Starter package costs ${PRICE_REDACTED} and includes reminders.`);
    for (const d of deltas) expect(d).not.toMatch(/\d/);
    // The grounding never shows the model an amount either.
    expect(fake.requests[0]!.body.messages![0]!.content).not.toContain('2,000');
    expect(reply.sources.map((s) => s.href)).toContain('/package/starter');
  });

  it('does not ask the model about prices', async () => {
    const { reply } = await ask('How much does it cost?');
    expect(reply).toEqual(PRICE_ANSWER);
    expect(fake.requests).toHaveLength(0);
  });

  it.each([
    ['error', 'an HTTP 500'],
    ['malformed', 'a malformed stream'],
    ['truncated', 'a stream without [DONE]'],
    ['silent', 'no first token in time'],
    ['stall', 'no end in time'],
  ] as const)('falls back to the search answer on %s (%s)', async (mode, why) => {
    fake.mode = mode;
    const started = Date.now();
    const { reply } = await ask('How long does setup take?');
    expect(reply.body, why).toBe(SEARCH_SETUP_ANSWER);
    expect(reply.confident).toBe(true);
    expect(reply.sources[0]?.href).toBe('/#faq-default-3');
    expect(Date.now() - started).toBeLessThan(llmTimeouts.totalMs + 1500);
  });


  it('keeps the key and the question out of the failure log', async () => {
    const { logger } = await import('../../src/server/logger');
    const warn = vi.spyOn(logger, 'warn');
    fake.mode = 'error';
    await ask('How long does setup take? my-secret-question');
    expect(warn).toHaveBeenCalled();
    const logged = JSON.stringify(warn.mock.calls);
    expect(logged).toContain('http');
    expect(logged).not.toContain(KEY);
    expect(logged).not.toContain('my-secret-question');
  });

  it('leaves a request for a person to the person path: the model is not asked', async () => {
    const { reply } = await ask('Can I speak to a real person, please?');
    expect(reply).toEqual(personAnswer({ online: true, contactEmail: '' }));
    expect(fake.requests).toHaveLength(0);
  });
});

describe('where the key goes', () => {
  it('never to an internal address an admin typed (the review\'s case: http on loopback)', async () => {
    const headers: unknown[] = [];
    const internal = await startStandIn((req, res) => {
      headers.push(req.headers);
      res.writeHead(500).end();
    }, { plain: true });
    try {
      const { reply } = await ask('How long does setup take?', `http://127.0.0.1:${internal.port}/v1/chat/completions`);
      expect(reply.body).toBe(SEARCH_SETUP_ANSWER);
    } finally {
      await internal.close();
    }
    expect(headers).toEqual([]);
  });

  it('never to an endpoint on another origin than LLM_API_ORIGIN', async () => {
    const { reply } = await ask('How long does setup take?', other.url);
    expect(reply.body).toBe(SEARCH_SETUP_ANSWER);
    expect(other.requests).toEqual([]);
    expect(fake.requests).toEqual([]);
  });

  it('never in clear text: not to http:// on the allowed host either', async () => {
    const plain = await startStandIn((req, res) => res.writeHead(200).end(JSON.stringify(req.headers)), { plain: true });
    const seen: unknown[] = [];
    // The allowed host name, in clear text on another port.
    try {
      const { reply } = await ask('How long does setup take?', `http://llm.test:${plain.port}/v1/chat/completions`);
      expect(reply.body).toBe(SEARCH_SETUP_ANSWER);
      await expect(
        streamCompletion({ endpoint: `http://llm.test:${plain.port}/v1/chat/completions`, allowedOrigin: `http://llm.test:${plain.port}`, model: 'm', apiKey: KEY, messages: [], onDelta: (t) => seen.push(t) }),
      ).rejects.toMatchObject({ reason: 'refused', detail: 'scheme-not-allowed' });
    } finally {
      await plain.close();
    }
    expect(seen).toEqual([]);
  });

  it('not along a redirect the endpoint answers with', async () => {
    fake.mode = 'redirect';
    fake.redirectTo = other.url;
    const { reply } = await ask('How long does setup take?');
    expect(reply.body).toBe(SEARCH_SETUP_ANSWER);
    expect(fake.requests).toHaveLength(1);
    expect(other.requests).toEqual([]);
  });

  it('not to a loopback or private address, even on the allowed origin', async () => {
    for (const host of ['127.0.0.1', '[::1]', '10.0.0.1', '169.254.169.254']) {
      const origin = `https://${host}:${fake.port}`;
      await expect(
        streamCompletion({ endpoint: `${origin}/v1/chat/completions`, allowedOrigin: origin, model: 'm', apiKey: KEY, messages: [], onDelta: () => undefined }),
      ).rejects.toMatchObject({ reason: 'refused', detail: 'address-not-allowed' });
    }
    expect(fake.requests).toEqual([]);
  });

  it('nowhere without LLM_API_ORIGIN or LLM_API_KEY (said once in the log)', async () => {
    const { logger } = await import('../../src/server/logger');
    const warn = vi.spyOn(logger, 'warn');
    expect(llmAccess(settings(), { LLM_API_KEY: KEY, LLM_API_ORIGIN: undefined })).toBeUndefined();
    expect(llmAccess(settings(), { LLM_API_KEY: KEY, LLM_API_ORIGIN: undefined })).toBeUndefined();
    expect(llmAccess(settings(), { LLM_API_KEY: undefined, LLM_API_ORIGIN: fake.origin })).toBeUndefined();
    expect(llmAccess(settings(`${other.origin}/v2/chat`), { LLM_API_KEY: KEY, LLM_API_ORIGIN: fake.origin })).toBeUndefined();
    expect(llmAccess(settings(), { LLM_API_KEY: KEY, LLM_API_ORIGIN: fake.origin })).toEqual({ apiKey: KEY, origin: fake.origin });
    const logged = warn.mock.calls.map((c) => JSON.stringify(c));
    expect(logged).toHaveLength(3);
    expect(logged[0]).toContain('LLM_API_ORIGIN is not set');
    expect(logged[1]).toContain('LLM_API_KEY is not set');
    expect(logged[2]).toContain('not on LLM_API_ORIGIN');
    expect(logged.join('')).not.toContain(KEY);
  });
});

describe('streamCompletion', () => {
  const request = (over: Partial<Parameters<typeof streamCompletion>[0]> = {}) =>
    streamCompletion({ endpoint: fake.url, allowedOrigin: fake.origin, model: 'm', apiKey: KEY, messages: [{ role: 'user', content: 'hi' }], onDelta: () => undefined, ...over });

  it('reports a refused connection as a network failure', async () => {
    await expect(request({ endpoint: 'https://llm.test:9/v1/chat/completions', allowedOrigin: 'https://llm.test:9' })).rejects.toMatchObject({ reason: 'network' });
  });

  it('reports why it failed', async () => {
    fake.mode = 'error';
    await expect(request()).rejects.toMatchObject({ reason: 'http', status: 500 });
    fake.mode = 'silent';
    await expect(request()).rejects.toMatchObject({ reason: 'timeout-first-token' });
    fake.mode = 'stall';
    await expect(request()).rejects.toMatchObject({ reason: 'timeout-total' });
    fake.mode = 'malformed';
    await expect(request()).rejects.toMatchObject({ reason: 'malformed' });
    fake.chunks = [];
    fake.mode = 'stream';
    await expect(request()).rejects.toBeInstanceOf(LlmError);
  });

  it('stops when the caller aborts', async () => {
    fake.mode = 'silent';
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const started = Date.now();
    await expect(request({ signal: controller.signal })).rejects.toMatchObject({ reason: 'aborted' });
    expect(Date.now() - started).toBeLessThan(llmTimeouts.firstTokenMs);
  });
});
