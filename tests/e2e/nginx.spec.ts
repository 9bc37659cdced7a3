/**
 * nginx (Debian's package) with docs/deploy/nginx.conf, started here with a self-signed certificate made
 * by openssl (docs/decisions/024): TLS termination, load balancing over two upstreams, the next upstream
 * for an idempotent request when one fails (never for a write), and the client address header the site
 * trusts. First with two stand-in upstreams that echo what nginx sent them, then in front of two built
 * site instances over https. Skipped with a message where nginx or openssl is not installed; .ci/run
 * installs them.
 */
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { expect, test } from './support/fixtures';
import { findProgram, freePort, startNginx, startSite } from '../support/front-proxy.mjs';

test.skip(!findProgram('nginx') || !findProgram('openssl'), 'nginx or openssl is not installed here (apt-get install nginx openssl); CI installs them and runs this spec');
test.describe.configure({ mode: 'serial' });

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A request over TLS that trusts only the test's own certificate (and checks the name in it). */
function request(base: string, cert: string, path: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = https.request(new URL(path, base), { method: init.method ?? 'GET', headers: init.headers, ca: fs.readFileSync(cert), agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end(init.body);
  });
}

test.describe('what nginx sends upstream', () => {
  const seen: { upstream: number; method: string; url: string; headers: http.IncomingHttpHeaders }[] = [];
  const upstreams: http.Server[] = [];
  let nginx: Awaited<ReturnType<typeof startNginx>>;

  test.beforeAll(async () => {
    test.setTimeout(60_000);
    for (const index of [1, 2]) {
      const server = http.createServer((req, res) => {
        seen.push({ upstream: index, method: req.method ?? '', url: req.url ?? '', headers: req.headers });
        // Upstream 1 drops every request on /flaky without an answer, as a killed instance would.
        if (index === 1 && req.url === '/flaky') {
          req.socket.destroy();
          return;
        }
        req.resume();
        req.on('end', () => {
          res.writeHead(200, { 'Content-Type': 'application/json' });
          res.end(JSON.stringify({ upstream: index }));
        });
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      upstreams.push(server);
    }
    nginx = await startNginx({ backendPorts: upstreams.map((s) => (s.address() as AddressInfo).port) });
  });

  test.afterAll(async () => {
    await nginx?.stop();
    for (const server of upstreams) {
      server.closeAllConnections();
      server.close();
    }
  });

  test('terminates TLS and passes the visitor’s address, the host and the scheme, whatever the visitor claims', async () => {
    seen.length = 0;
    const res = await request(nginx.base, nginx.cert, '/services', { headers: { 'X-Real-IP': '203.0.113.9', 'X-Forwarded-Proto': 'http' } });
    expect(res.status).toBe(200);
    expect(seen).toHaveLength(1);
    expect(seen[0]!.headers['x-real-ip']).toBe('127.0.0.1');
    expect(seen[0]!.headers['x-forwarded-proto']).toBe('https');
    // $host: the name the visitor asked for, without the port.
    expect(seen[0]!.headers.host).toBe('127.0.0.1');
  });

  test('balances requests over both upstreams', async () => {
    seen.length = 0;
    for (let i = 0; i < 10; i++) expect((await request(nginx.base, nginx.cert, `/page-${i}`)).status).toBe(200);
    const counts = [1, 2].map((u) => seen.filter((s) => s.upstream === u).length);
    expect(counts[0]).toBeGreaterThanOrEqual(3);
    expect(counts[1]).toBeGreaterThanOrEqual(3);
  });

  test('retries an idempotent request on the other upstream, and never repeats a write', async () => {
    // GET: whichever upstream gets it first, the visitor gets an answer.
    for (let i = 0; i < 4; i++) {
      seen.length = 0;
      const res = await request(nginx.base, nginx.cert, '/flaky');
      expect(res.status).toBe(200);
      expect(JSON.parse(res.body)).toEqual({ upstream: 2 });
    }
    // POST: sent once. Once upstream 1 is back after its 5 s out (max_fails=1 fail_timeout=5s), round robin
    // hands it a post, which fails there and is answered 502: never sent to upstream 2 as well.
    await new Promise((resolve) => setTimeout(resolve, 5_500));
    const statuses: number[] = [];
    for (let i = 0; i < 12 && !statuses.includes(502); i++) {
      seen.length = 0;
      const res = await request(nginx.base, nginx.cert, '/flaky', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"n":1}' });
      statuses.push(res.status);
      expect(seen.filter((s) => s.method === 'POST'), 'a POST reaches one upstream only').toHaveLength(1);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    expect(statuses).toContain(502);
  });
});

test.describe('in front of two site instances, over https', () => {
  const sites: Awaited<ReturnType<typeof startSite>>[] = [];
  let nginx: Awaited<ReturnType<typeof startNginx>>;

  test.beforeAll(async () => {
    test.setTimeout(240_000);
    const port = await freePort();
    // Two embedded-database instances: enough to see TLS, balancing and retries (several instances on one
    // database need PostgreSQL; the Varnish spec and the README cover that setup).
    for (let i = 0; i < 2; i++) {
      sites.push(await startSite({ env: { SITE_URL: `https://127.0.0.1:${port}`, TRUSTED_PROXY_IP_HEADER: 'x-real-ip' } }));
    }
    nginx = await startNginx({ backendPorts: sites.map((s) => s.port), port });
  });

  test.afterAll(async () => {
    await nginx?.stop();
    for (const site of sites) await site.stop();
  });

  test('serves the site over https with HSTS, from both instances', async () => {
    for (let i = 0; i < 6; i++) {
      const res = await request(nginx.base, nginx.cert, '/services');
      expect(res.status).toBe(200);
      expect(res.headers['strict-transport-security']).toContain('max-age=');
      expect(res.body).toContain('</html>');
    }
    const used = new Set([...nginx.accessLog().matchAll(/127\.0\.0\.1:(\d+)$/gm)].map((m) => Number(m[1])));
    expect([...used].sort()).toEqual(sites.map((s) => s.port).sort());
  });

  test('accepts a write from its https origin (the site sees the public origin, not nginx’s http)', async () => {
    const res = await request(nginx.base, nginx.cert, '/api/auth/sign-up/email', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: nginx.base },
      body: JSON.stringify({ email: `nginx-${Date.now()}@example.com`, password: 'nginx-password-1', firstName: 'Nginx', lastName: 'Test' }),
    });
    expect(res.status).toBe(200);
  });

  test('keeps answering page requests when one instance is killed', async () => {
    const victim = sites[1]!;
    await victim.kill();
    for (let i = 0; i < 8; i++) {
      const res = await request(nginx.base, nginx.cert, i % 2 ? '/' : '/articles');
      expect(res.status, `request ${i}`).toBe(200);
    }
  });
});
