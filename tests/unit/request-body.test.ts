/** Reading a stranger's request body (src/server/http/request-body.ts): 400/413 for what would have been a 500. */
import { describe, expect, it } from 'vitest';
import { BodyError, bodyLimitFor, checkRequestBody, forbiddenKeyIn, LARGEST_BODY_BYTES, MAX_BODY_BYTES, parseJsonBody, readBodyCapped } from '../../src/server/http/request-body';

const streamed = (chunks: string[]) =>
  new Request('http://x/_actions/a', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: new ReadableStream({
      start(c) {
        for (const s of chunks) c.enqueue(new TextEncoder().encode(s));
        c.close();
      },
    }),
    duplex: 'half',
  } as RequestInit);

const codeOf = async (p: Promise<unknown> | (() => unknown)) => {
  try {
    await (typeof p === 'function' ? p() : p);
  } catch (e) {
    return e instanceof BodyError ? `${e.status} ${e.code}` : String(e);
  }
  return 'ok';
};

describe('request bodies', () => {
  it('counts a chunked body as it arrives: over the limit is a 413, whatever Content-Length says', async () => {
    expect(await codeOf(readBodyCapped(streamed(['a'.repeat(600), 'a'.repeat(600)]), 1000))).toBe('413 REQUEST_TOO_LARGE');
    expect((await readBodyCapped(streamed(['{"a":', '1}']), 1000)).byteLength).toBe(7);
    const declared = new Request('http://x/', { method: 'POST', headers: { 'content-length': '5000' }, body: 'x' });
    expect(await codeOf(readBodyCapped(declared, 1000))).toBe('413 REQUEST_TOO_LARGE');
  });

  it('JSON must parse and must not name Object.prototype members at any depth', () => {
    const enc = (s: string) => new TextEncoder().encode(s);
    expect(parseJsonBody(enc('{"firstName":"Ada"}'))).toEqual({ firstName: 'Ada' });
    expect(parseJsonBody(enc(''))).toBeUndefined();
    for (const bad of ['{"a":', 'nul', '\u00ff']) expect(() => parseJsonBody(enc(bad))).toThrow('not valid JSON');
    expect(() => parseJsonBody(Uint8Array.of(0xc3, 0x28))).toThrow('not valid JSON'); // invalid UTF-8
    for (const key of ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'prototype']) {
      expect(() => parseJsonBody(enc(`{"${key}":1}`))).toThrow('cannot be set');
      expect(forbiddenKeyIn(JSON.parse(`{"a":[{"b":{"${key}":{}}}]}`))).toBe(key);
    }
    expect(forbiddenKeyIn({ name: 'constructor', list: ['toString'] })).toBeUndefined(); // values are fine
  });

  it('refuses text no database column can hold (NUL, a lone surrogate) in JSON keys and values and in form fields, not in files', async () => {
    const enc = (s: string) => new TextEncoder().encode(s);
    for (const bad of ['{"userId":"\\u0000"}', '{"a":["x\\u0000y"]}', '{"userId":"\\ud800"}', '{"a":{"\\udfff":1}}']) {
      expect(() => parseJsonBody(enc(bad)), bad).toThrow('not text');
    }
    expect(parseJsonBody(enc('{"name":"Zoë 😀 \\ud83d\\ude00"}'))).toEqual({ name: 'Zoë 😀 😀' });

    const form = (body: FormData | string, type?: string) =>
      new Request('http://x/auth', { method: 'POST', body, headers: type ? { 'content-type': type } : undefined });
    const urlencoded = 'application/x-www-form-urlencoded';
    expect((await checkRequestBody(form('email=a%00b', urlencoded)))?.code).toBe('UNSTORABLE_TEXT');
    expect((await checkRequestBody(form('email=a%40b.c', urlencoded)))?.code).toBeUndefined();
    const withFile = new FormData();
    withFile.set('alt', 'A photo');
    withFile.set('file', new Blob([Uint8Array.of(0, 1, 0, 2)]), 'a.png');
    expect(await checkRequestBody(form(withFile))).toBeUndefined();
    withFile.set('alt', 'A\u0000photo');
    expect((await checkRequestBody(form(withFile)))?.status).toBe(400);
  });

  it('checks without consuming: the route still reads the body as sent', async () => {
    const req = streamed(['{"firstName":', '"Ada"}']);
    expect(await checkRequestBody(req, 1000)).toBeUndefined();
    expect(await req.json()).toEqual({ firstName: 'Ada' });
    expect((await checkRequestBody(streamed(['{"x":']), 1000))?.code).toBe('INVALID_JSON');
  });

  it('answers an oversize streamed body at once although the route keeps its unread copy (no hang)', async () => {
    // checkRequestBody reads a clone: cancelling one branch of a tee waits for the other branch forever.
    // A client still sending: two chunks arrived, the stream stays open.
    const stillSending = new Request('http://x/_actions/a', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: new ReadableStream({
        start(c) {
          c.enqueue(new TextEncoder().encode('a'.repeat(700)));
          c.enqueue(new TextEncoder().encode('a'.repeat(700)));
        },
      }),
      duplex: 'half',
    } as RequestInit);
    const outcome = await Promise.race([
      checkRequestBody(stillSending, 1000).then((e) => e?.code),
      new Promise((resolve) => setTimeout(() => resolve('hung'), 2000)),
    ]);
    expect(outcome).toBe('REQUEST_TOO_LARGE');
  });

  it('the content import takes a 64 MiB file; every other route stays at 1 MiB', () => {
    expect(bodyLimitFor('/api/admin/content/import')).toBe(64 * 1024 * 1024);
    expect(LARGEST_BODY_BYTES).toBeGreaterThanOrEqual(64 * 1024 * 1024);
    for (const path of ['/api/admin/content/export', '/api/admin/content/importer', '/_actions/admin.services.create', '/api/prices']) {
      expect(bodyLimitFor(path), path).toBe(MAX_BODY_BYTES);
    }
  });
});
