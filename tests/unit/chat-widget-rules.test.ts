import { describe, expect, it } from 'vitest';
import { contactErrors, errorText, hexId, lastSeq, mergeMessages, MESSAGE_LIMIT, safeHref, showCounter, splitLines, statusOf } from '../../src/features/chat/rules';
import type { ChatMessageDto } from '../../src/shared/chat';
import { CHAT_LIMITS } from '../../src/shared/chat';

const msg = (seq: number, body = `m${seq}`): ChatMessageDto => ({ seq, author: 'assistant', authorName: 'A', body, sources: [], createdAt: '2026-01-01T00:00:00Z' });

describe('chat widget rules', () => {
  it('uses the contract limit and shows the counter only near it', () => {
    expect(MESSAGE_LIMIT).toBe(CHAT_LIMITS.message);
    expect(showCounter(799)).toBe(false);
    expect(showCounter(800)).toBe(true);
  });

  it('follows only site paths and https addresses', () => {
    expect(safeHref('/service/lead-outreach')).toBe('/service/lead-outreach');
    expect(safeHref('/#faq-default-3')).toBe('/#faq-default-3');
    expect(safeHref('https://example.com/x')).toBe('https://example.com/x');
    for (const bad of ['javascript:alert(1)', '//evil.example', '/\\evil.example/x', '/\t/evil.example', 'http://example.com', 'data:text/html,x', ' /x', 'JAVASCRIPT:1']) expect(safeHref(bad)).toBeUndefined();
  });

  it('merges messages by seq, oldest first, without duplicates', () => {
    const merged = mergeMessages([msg(1), msg(3)], [msg(2), msg(3, 'newer')]);
    expect(merged.map((m) => [m.seq, m.body])).toEqual([[1, 'm1'], [2, 'm2'], [3, 'newer']]);
    expect(lastSeq(merged)).toBe(3);
    expect(lastSeq([])).toBe(0);
  });

  it('says what went wrong in plain words, with the retry time on 429', () => {
    expect(errorText(429, { code: 'RATE_LIMITED', message: 'x', retryAfterSeconds: 42 })).toContain('try again in 42 seconds');
    expect(errorText(429, undefined, 1)).toContain('in 1 second.');
    expect(errorText(429, undefined, 60)).toContain('in 60 seconds');
    expect(errorText(429, undefined, 150)).toContain('in 3 minutes');
    expect(errorText(429, undefined)).toContain('wait a moment');
    expect(errorText(0, undefined)).toContain('could not reach the server');
    expect(errorText(400, { code: 'INVALID', message: 'Your message is empty.' })).toBe('Your message is empty.');
    expect(errorText(404, { code: 'DISABLED', message: 'off' })).toContain('switched off');
    expect(errorText(500, undefined)).toContain('Something went wrong');
    expect(statusOf('RATE_LIMITED')).toBe(429);
  });

  it('splits ndjson into whole lines and keeps the unfinished rest', () => {
    expect(splitLines('{"a":1}\n\n{"b":2}\n{"c"')).toEqual({ lines: ['{"a":1}', '{"b":2}'], rest: '{"c"' });
    expect(splitLines('')).toEqual({ lines: [], rest: '' });
  });

  it('checks the contact fields before sending', () => {
    expect(contactErrors({ name: '', email: '', message: '' })).toEqual({ name: 'Enter your name.', email: 'Enter your email address.' });
    expect(contactErrors({ name: 'Ada', email: 'ada@', message: '' }).email).toMatch(/like name@example.com/);
    expect(contactErrors({ name: 'Ada', email: 'ada@example.com', message: '' })).toEqual({});
  });

  it('makes a 32-hex visitor id', () => {
    expect(hexId(new Uint8Array(16).fill(171))).toBe('ab'.repeat(16));
    expect(hexId(crypto.getRandomValues(new Uint8Array(16)))).toMatch(/^[0-9a-f]{32}$/);
  });
});
