/**
 * The audit browser's proxy (src/server/http/safe-proxy.ts): what a page's requests may reach through it is
 * what the safe fetch may reach. Driven here with plain http and CONNECT requests, as Chromium sends them;
 * DNS is a stand-in (site.test → 127.0.0.1, public.example public, the rest unknown), so nothing leaves the
 * machine.
 */
import dns from 'node:dns';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { useTestNetwork } from '../../src/server/http/safe-fetch';
import { startSafeProxy, type SafeProxy } from '../../src/server/http/safe-proxy';

const seen: { url: string; headers: http.IncomingHttpHeaders }[] = [];
let site: http.Server;
let sitePort: number;

beforeAll(async () => {
  site = http.createServer((req, res) => {
    seen.push({ url: req.url ?? '', headers: req.headers });
    if (req.url === '/big') {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      res.end(Buffer.alloc(2 * 1024 * 1024, 1));
      return;
    }
    res.writeHead(200, { 'content-type': 'text/plain', connection: 'keep-alive', 'keep-alive': 'timeout=5' }).end(`hello from ${req.headers.host}`);
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  sitePort = (site.address() as AddressInfo).port;
  useTestNetwork({ hosts: { 'site.test': '127.0.0.1' } });
  vi.spyOn(dns.promises, 'lookup').mockImplementation((async (host: string) => {
    if (host === 'public.example') return [{ address: '93.184.216.34', family: 4 }];
    if (host === 'inside.example') return [{ address: '93.184.216.34', family: 4 }, { address: '10.0.0.7', family: 4 }];
    throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
  }) as unknown as typeof dns.promises.lookup);
});
afterAll(async () => {
  vi.restoreAllMocks();
  useTestNetwork(undefined);
  await new Promise((resolve) => site.close(resolve));
});

let proxy: SafeProxy;
beforeEach(async () => {
  seen.length = 0;
  proxy = await startSafeProxy({ allowedPorts: [80, 443], maxBytes: 1024 * 1024, requestTimeoutMs: 5_000 });
});
afterEach(() => proxy.close());

const proxyPort = () => Number(new URL(proxy.url).port);

/** A plain-http request through the proxy, as a browser sends one (the whole address as the path). */
function viaProxy(target: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port: proxyPort(), path: target, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/** A CONNECT tunnel, as a browser opens one for https: the proxy's status, and the socket when it is 200. */
function tunnel(target: string): Promise<{ status: number; body: string; socket: Socket }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port: proxyPort(), method: 'CONNECT', path: target });
    req.on('connect', (res, socket, head: Buffer) => {
      let body = head.toString();
      if (res.statusCode !== 200) socket.on('data', (chunk: Buffer) => (body += chunk.toString()));
      const done = () => resolve({ status: res.statusCode ?? 0, body, socket });
      if (res.statusCode === 200) done();
      else socket.on('end', done);
    });
    req.on('error', reject);
    req.end();
  });
}

describe('plain http through the proxy', () => {
  it('forwards to an allowed host, without the proxy’s own headers', async () => {
    const answer = await viaProxy(`http://site.test:${sitePort}/page?x=1`, { 'proxy-authorization': 'Basic c2VjcmV0', 'x-kept': 'yes' });
    expect(answer).toEqual({ status: 200, body: `hello from site.test:${sitePort}` });
    expect(seen).toHaveLength(1);
    expect(seen[0]!.url).toBe('/page?x=1');
    expect(seen[0]!.headers['x-kept']).toBe('yes');
    expect(seen[0]!.headers['proxy-authorization']).toBeUndefined();
    expect(proxy.refused).toEqual([]);
  });

  it.each([
    [`http://127.0.0.1:PORT/`, '127.0.0.1 is a loopback address'],
    [`http://localhost:PORT/`, 'could not be resolved'],
    [`http://[::ffff:127.0.0.1]:PORT/`, 'loopback address'],
    ['http://169.254.169.254/latest/meta-data/', 'link-local (cloud metadata)'],
    ['http://inside.example/', 'inside.example (10.0.0.7) is a private address'],
    ['http://public.example:8080/', 'Port 8080 of public.example may not be asked'],
    ['http://user:pass@site.test/', 'must not contain a user name or password'],
  ])('refuses %s with a 403 and sends nothing', async (raw, reason) => {
    const target = raw.replace('PORT', String(sitePort));
    const answer = await viaProxy(target);
    expect(answer.status).toBe(403);
    expect(answer.body).toContain(reason);
    expect(seen).toEqual([]);
    expect(proxy.refused).toEqual([{ target, reason: answer.body }]);
  });

  it('refuses a request that is not for a proxy (a bare path)', async () => {
    const answer = await viaProxy('/');
    expect(answer.status).toBe(403);
    expect(seen).toEqual([]);
  });

  it('cuts the connection once the sites have sent more than its byte bound', async () => {
    await expect(viaProxy(`http://site.test:${sitePort}/big`)).rejects.toThrow();
    expect(proxy.bytes).toBeGreaterThan(1024 * 1024);
    expect(proxy.bytes).toBeLessThan(2 * 1024 * 1024);
  });
});

describe('CONNECT tunnels (https)', () => {
  it('opens a tunnel to the checked address of an allowed host', async () => {
    const { status, socket } = await tunnel(`site.test:${sitePort}`);
    expect(status).toBe(200);
    // Whatever goes through the tunnel is the browser's business; a plain request shows where it leads.
    const answer = await new Promise<string>((resolve) => {
      let text = '';
      socket.on('data', (chunk: Buffer) => (text += chunk.toString()));
      socket.on('end', () => resolve(text));
      socket.end(`GET /through HTTP/1.1\r\nHost: site.test\r\nConnection: close\r\n\r\n`);
    });
    expect(answer).toContain('hello from site.test');
    expect(seen.map((request) => request.url)).toEqual(['/through']);
  });

  it.each([
    ['10.0.0.5:443', '10.0.0.5 is a private address'],
    [`127.0.0.1:PORT`, 'loopback address'],
    ['[::1]:443', '::1 is a loopback address'],
    ['inside.example:443', 'private address'],
    ['public.example:22', 'Port 22 of public.example may not be asked'],
  ])('refuses CONNECT %s with a 403', async (raw, reason) => {
    const target = raw.replace('PORT', String(sitePort));
    const { status, body } = await tunnel(target);
    expect(status).toBe(403);
    expect(body).toContain(reason);
    expect(seen).toEqual([]);
    expect(proxy.refused.map((item) => item.target)).toEqual([target]);
  });
});
