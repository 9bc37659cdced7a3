/**
 * LLM mode against a local fake endpoint (tests/support/fake-llm.ts): the Bearer key from LLM_API_KEY,
 * the grounding, streamed pieces, amounts removed, and the fall back to the search answer on every failure.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';

const KEY = vi.hoisted(() => {
  const key = 'sk-test-0123456789abcdef';
  process.env.LLM_API_KEY = key;
  return key;
});

import { chatSettingsSchema, type ChatSettings } from '../../src/shared/chat';
import { PRICE_ANSWER, PRICE_REDACTED } from '../../src/shared/chat-answer';
import { db } from '../../src/server/db';
import type { DatabaseHandle } from '../../src/server/db/client';
import { packages } from '../../src/server/db/schema';
import { assistantReply, type AssistantReply } from '../../src/server/modules/chat/assistant';
import { llmTimeouts, LlmError, streamCompletion } from '../../src/server/modules/chat-llm/client';
import { freshDatabase } from '../support/db';
import { startFakeLlm, type FakeLlm } from '../support/fake-llm';

const SEARCH_SETUP_ANSWER =
  'Most systems go live in 10 to 14 days. Week one is mapping your lead flow and writing the messages with you; week two is building, testing and switching it on.';

let handle: DatabaseHandle;
let fake: FakeLlm;
const saved = { ...llmTimeouts };

beforeAll(async () => {
  handle = await freshDatabase();
  fake = await startFakeLlm();
  // Short limits keep the slow cases fast; the production values live in chat-llm/client.ts.
  llmTimeouts.firstTokenMs = 400;
  llmTimeouts.totalMs = 1200;
});
afterAll(async () => {
  Object.assign(llmTimeouts, saved);
  await fake.close();
  await handle.close();
});
beforeEach(() => {
  fake.requests.length = 0;
  fake.mode = 'stream';
  fake.chunks = ['Setup takes ', 'ten to fourteen ', 'days.'];
});
afterEach(() => vi.restoreAllMocks());

const settings = (endpoint = fake.url): ChatSettings => chatSettingsSchema.parse({ assistantName: 'Ava', llm: { enabled: true, endpoint, model: 'test-model' } });

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

  it('falls back when the endpoint refuses the connection', async () => {
    const { reply } = await ask('How long does setup take?', 'http://127.0.0.1:9/v1/chat/completions');
    expect(reply.body).toBe(SEARCH_SETUP_ANSWER);
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
});

describe('streamCompletion', () => {
  const request = (over: Partial<Parameters<typeof streamCompletion>[0]> = {}) =>
    streamCompletion({ endpoint: fake.url, model: 'm', apiKey: KEY, messages: [{ role: 'user', content: 'hi' }], onDelta: () => undefined, ...over });

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
