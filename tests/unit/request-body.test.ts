/** Reading a stranger's request body (src/server/http/request-body.ts): 400/413 for what would have been a 500. */
import { describe, expect, it } from 'vitest';
import { ADMIN_ACTION_BODY_BYTES, bodyPolicyFor, LARGEST_BODY_BYTES, MAX_FORM_FIELDS, MAX_URLENCODED_BYTES, MEMBER_ACTION_BODY_BYTES, UNDECLARED_BODY_BYTES } from '../../src/server/http/body-policy';
import { BodyError, checkRequestBody, forbiddenKeyIn, parseJsonBody, readBodyCapped, readFormCapped } from '../../src/server/http/request-body';

const LIMIT = 64 * 1024;

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
    expect((await checkRequestBody(form('email=a%00b', urlencoded), LIMIT))?.code).toBe('UNSTORABLE_TEXT');
    expect((await checkRequestBody(form('email=a%40b.c', urlencoded), LIMIT))?.code).toBeUndefined();
    const withFile = new FormData();
    withFile.set('alt', 'A photo');
    withFile.set('file', new Blob([Uint8Array.of(0, 1, 0, 2)]), 'a.png');
    expect(await checkRequestBody(form(withFile), LIMIT)).toBeUndefined();
    withFile.set('alt', 'A\u0000photo');
    expect((await checkRequestBody(form(withFile), LIMIT))?.status).toBe(400);
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

  it('each route and Action has its own limit: the large ones only where they are needed', () => {
    expect(bodyPolicyFor('/api/admin/content/import')).toEqual({ limit: 4 * 1024 * 1024 * 1024, reader: 'route' });
    expect(bodyPolicyFor('/api/admin/media')).toEqual({ limit: 12 * 1024 * 1024, reader: 'route' });
    expect(bodyPolicyFor('/api/admin/media/abc').limit).toBe(16 * 1024);
    expect(bodyPolicyFor('/api/lead-events')).toEqual({ limit: 8 * 1024, reader: 'route' });
    expect(bodyPolicyFor('/api/webhooks/booking')).toEqual({ limit: 64 * 1024, reader: 'route' });
    expect(bodyPolicyFor('/api/chat/messages')).toEqual({ limit: 16 * 1024, reader: 'middleware' });
    expect(bodyPolicyFor('/auth')).toEqual({ limit: MAX_URLENCODED_BYTES, reader: 'middleware' });
    // The Action that will run decides, not the page it was posted to.
    expect(bodyPolicyFor('/auth', 'admin.articles.update').limit).toBe(ADMIN_ACTION_BODY_BYTES);
    expect(bodyPolicyFor('/_actions/account.updateprofile', 'account.updateProfile').limit).toBe(MEMBER_ACTION_BODY_BYTES);
    for (const path of ['/api/admin/content/export', '/api/admin/content/importer', '/api/prices', '/nowhere']) {
      expect(bodyPolicyFor(path), path).toEqual({ limit: UNDECLARED_BODY_BYTES, reader: 'middleware' });
    }
    // The content file's ceiling: the route holds each site to its media quota (contentFileLimitBytes).
    expect(LARGEST_BODY_BYTES).toBe(4 * 1024 * 1024 * 1024);
  });

  it('caps url-encoded forms at 64 KB and every form at 200 fields, whatever the route allows', async () => {
    const post = (body: string | FormData, type?: string) =>
      new Request('http://x/api/admin/media', { method: 'POST', body, headers: type ? { 'content-type': type } : undefined });
    const urlencoded = 'application/x-www-form-urlencoded';
    // 12 MiB allowed for an upload, but not as a url-encoded form.
    const big = `a=${'x'.repeat(MAX_URLENCODED_BYTES)}`;
    expect((await checkRequestBody(post(big, urlencoded), 12 * 1024 * 1024))?.code).toBe('REQUEST_TOO_LARGE');
    expect(await codeOf(readFormCapped(post(big, urlencoded), 12 * 1024 * 1024))).toBe('413 REQUEST_TOO_LARGE');
    const fields = (n: number) => Array.from({ length: n }, (_, i) => `f${i}=1`).join('&');
    expect(await checkRequestBody(post(fields(MAX_FORM_FIELDS), urlencoded), LIMIT)).toBeUndefined();
    expect((await checkRequestBody(post(fields(MAX_FORM_FIELDS + 1), urlencoded), LIMIT))?.code).toBe('TOO_MANY_FIELDS');
    const multipart = new FormData();
    for (let i = 0; i <= MAX_FORM_FIELDS; i++) multipart.append(`f${i}`, '1');
    expect((await checkRequestBody(post(multipart), LIMIT))?.status).toBe(413);
    expect(await codeOf(readFormCapped(post(multipart), LIMIT))).toBe('413 TOO_MANY_FIELDS');
    const upload = new FormData();
    upload.set('file', new Blob([new Uint8Array(100_000)]), 'a.png');
    expect((await readFormCapped(post(upload), 12 * 1024 * 1024)).get('file')).toBeInstanceOf(File);
  });

});
