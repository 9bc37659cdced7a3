/**
 * The safe fetch against real https servers on this machine (tests/support/stand-in-https.ts): names
 * pinned to their checked address, every redirect checked again, credentials kept to their origin, and
 * the size and time bounds. Refusals happen before connecting, so nothing leaves 127.0.0.1.
 */
import type http from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { safeFetch, useTestNetwork } from '../../src/server/http/safe-fetch';
import { safeFetchFailure as failure, STAND_IN_HOSTS, startStandIn, useStandInNetwork, type StandInServer } from '../support/stand-in-https';

interface Seen {
  host: string | undefined;
  method: string | undefined;
  url: string | undefined;
  authorization: string | undefined;
  body: string;
}

let server: StandInServer;
const seen: Seen[] = [];

function route(req: http.IncomingMessage, res: http.ServerResponse, body: string) {
  const url = new URL(req.url ?? '/', 'https://stand-in');
  switch (url.pathname) {
    case '/echo':
      res.writeHead(200, { 'content-type': 'application/json', 'x-stand-in': 'yes' }).end(JSON.stringify({ method: req.method, body }));
      return;
    case '/redirect':
      res.writeHead(Number(url.searchParams.get('status') ?? 302), { location: url.searchParams.get('to') ?? '/' }).end();
      return;
    case '/loop':
      res.writeHead(302, { location: '/loop' }).end();
      return;
    case '/big':
      // 2 MiB in 64 KiB pieces, no length announced.
      for (let i = 0; i < 32; i++) res.write(Buffer.alloc(65_536, 0x61));
      res.end();
      return;
    case '/declared-big':
      res.writeHead(200, { 'content-length': '10000000' });
      res.write('a');
      return;
    case '/silent':
      return;
    case '/stall':
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('first part');
      return;
    case '/no-content':
      res.writeHead(204).end();
      return;
    default:
      res.writeHead(404).end();
  }
}

beforeAll(async () => {
  server = await startStandIn((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      seen.push({ host: req.headers.host, method: req.method, url: req.url, authorization: req.headers.authorization, body });
      route(req, res, body);
    });
  });
  await useStandInNetwork();
});
afterAll(async () => {
  useTestNetwork(undefined);
  await server.close();
});
beforeEach(() => {
  seen.length = 0;
});

const at = (path: string, host: (typeof STAND_IN_HOSTS)[number] = 'llm.test') => `${server.origin(host)}${path}`;
const redirectTo = (to: string, status = 302) => at(`/redirect?status=${status}&to=${encodeURIComponent(to)}`);

describe('a request', () => {
  it('reaches a named host over https and answers as a Response', async () => {
    const res = await safeFetch(at('/echo'), { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"hello":"world"}' });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-stand-in')).toBe('yes');
    expect(res.url).toBe(at('/echo'));
    expect(await res.json()).toEqual({ method: 'POST', body: '{"hello":"world"}' });
    expect(seen).toEqual([expect.objectContaining({ host: `llm.test:${server.port}`, method: 'POST' })]);
  });

  it('connects to the address it checked: the name is looked up once, never again by the socket', async () => {
    // llm.test is in no DNS: reaching the server at all shows the socket used the checked answer. An answer
    // that changes later (DNS rebinding) is never asked for.
    let lookups = 0;
    const { standInCertificate } = await import('../support/stand-in-https');
    useTestNetwork({
      hosts: {
        get 'llm.test'() {
          lookups++;
          return lookups <= 2 ? '127.0.0.1' : '127.0.0.2';
        },
      },
      ca: (await standInCertificate()).cert,
    });
    try {
      const before = lookups;
      const res = await safeFetch(at('/echo'));
      expect(res.status).toBe(200);
      await res.text();
      expect(lookups - before).toBe(1);
    } finally {
      await useStandInNetwork();
    }
  });

  it('has no body for a 204 or a HEAD', async () => {
    const res = await safeFetch(at('/no-content'));
    expect(res.status).toBe(204);
    expect(res.body).toBeNull();
    const head = await safeFetch(at('/echo'), { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.body).toBeNull();
  });

  it('fails as tls-failed when the certificate is not trusted', async () => {
    useTestNetwork({ hosts: { 'llm.test': '127.0.0.1' } });
    try {
      const err = await failure(safeFetch(at('/echo')));
      expect(err.code).toBe('tls-failed');
      expect(err.message).toBe('The secure connection to llm.test failed (its certificate is not trusted or does not match)');
    } finally {
      await useStandInNetwork();
    }
  });
});

describe('redirects', () => {
  it.each([
    ['loopback by address', () => `https://127.0.0.1:${server.port}/echo`],
    ['loopback spelled as a number', () => `http://2130706433:${server.port}/echo`],
    ['cloud metadata', () => 'http://169.254.169.254/latest/meta-data/iam/security-credentials/'],
    ['a private address in IPv6 clothing', () => 'http://[::ffff:10.0.0.1]/'],
    ['a private network', () => 'http://192.168.1.1/admin'],
    ['localhost', () => `http://localhost:${server.port}/echo`],
  ])('to %s are refused, and nothing reaches it', async (_what, target) => {
    const err = await failure(safeFetch(redirectTo(target()), { headers: { authorization: 'Bearer secret' } }));
    expect(err.code).toBe('address-not-allowed');
    expect(seen).toHaveLength(1);
  });

  it('to another scheme are refused', async () => {
    expect((await failure(safeFetch(redirectTo('file:///etc/passwd')))).code).toBe('scheme-not-allowed');
  });

  it('are followed to a public host, without the credentials when the origin changes', async () => {
    const res = await safeFetch(redirectTo(at('/echo', 'other.test')), { headers: { authorization: 'Bearer secret', cookie: 'a=b', 'x-kept': '1' } });
    expect(res.status).toBe(200);
    expect(res.url).toBe(at('/echo', 'other.test'));
    await res.text();
    expect(seen.map((s) => [s.host, s.authorization])).toEqual([
      [`llm.test:${server.port}`, 'Bearer secret'],
      [`other.test:${server.port}`, undefined],
    ]);
  });

  it('keep the credentials on the same origin', async () => {
    await (await safeFetch(redirectTo('/echo'), { headers: { authorization: 'Bearer secret' } })).text();
    expect(seen.map((s) => s.authorization)).toEqual(['Bearer secret', 'Bearer secret']);
  });

  it('stay on the origins the caller allows', async () => {
    const err = await failure(safeFetch(redirectTo(at('/echo', 'other.test')), { allowedOrigins: [server.origin('llm.test')] }));
    expect(err.code).toBe('origin-not-allowed');
    expect(seen).toHaveLength(1);
  });

  it('are counted: a loop ends, and 0 refuses the first', async () => {
    const loop = await failure(safeFetch(at('/loop'), { maxRedirects: 2 }));
    expect(loop).toMatchObject({ code: 'too-many-redirects', message: 'More than 2 redirects' });
    expect(seen).toHaveLength(3);
    const none = await failure(safeFetch(redirectTo('/echo'), { maxRedirects: 0 }));
    expect(none).toMatchObject({ code: 'too-many-redirects', message: 'The server answered with a redirect, which this request does not follow' });
  });

  it('after a POST: 303 continues as a GET without the body, 307 repeats the POST', async () => {
    const asGet = await (await safeFetch(redirectTo('/echo', 303), { method: 'POST', body: 'payload', headers: { 'content-type': 'text/plain' } })).json();
    expect(asGet).toEqual({ method: 'GET', body: '' });
    const repeated = await (await safeFetch(redirectTo('/echo', 307), { method: 'POST', body: 'payload' })).json();
    expect(repeated).toEqual({ method: 'POST', body: 'payload' });
  });
});

describe('bounds', () => {
  it('refuses an announced body over the limit at once', async () => {
    expect((await failure(safeFetch(at('/declared-big'), { maxResponseBytes: 1024 }))).code).toBe('response-too-large');
  });

  it('ends a body that grows past the limit', async () => {
    const res = await safeFetch(at('/big'), { maxResponseBytes: 100_000 });
    expect(res.status).toBe(200);
    const err = await failure(res.arrayBuffer());
    expect(err).toMatchObject({ code: 'response-too-large', message: 'The answer from llm.test is larger than 100000 bytes' });
    // Within the limit it is read whole.
    expect((await (await safeFetch(at('/big'))).arrayBuffer()).byteLength).toBe(2 * 1024 * 1024);
  });

  it('gives up when no answer comes in time', async () => {
    const started = Date.now();
    expect(await failure(safeFetch(at('/silent'), { timeoutMs: 300 }))).toMatchObject({ code: 'timeout', message: 'No complete answer within 300 ms' });
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('counts the body in the time: a stalled body ends too', async () => {
    const res = await safeFetch(at('/stall'), { timeoutMs: 400 });
    expect(res.status).toBe(200);
    expect((await failure(res.text())).code).toBe('timeout');
  });

  it('stops when the caller aborts', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    expect((await failure(safeFetch(at('/silent'), { signal: controller.signal }))).code).toBe('aborted');
  });
});
