/**
 * Who may call comes before what was sent (docs/decisions/020). A review crashed the server with one
 * anonymous 60 MB JSON body to an admin route (read and parsed before the 401), and froze it with large
 * url-encoded forms. This spec runs its own server, so it can watch that server's memory.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from './support/fixtures';
import { SERVER_NODE_ARGS } from '../../scripts/server-process.mjs';
import { newAccount, signUpViaApi, verificationLink } from './support/accounts';
import { freePort } from './support/free-port';
import { prepareData } from './support/own-server';

const root = path.resolve(import.meta.dirname, '../..');
const MB = 1024 * 1024;
let port: number;
let base: string;
let dataDir: string;
let server: ChildProcess;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(180_000);
  port = await freePort();
  base = `http://127.0.0.1:${port}`;
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agency-bodies-'));
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', SITE_URL: base, LOG_LEVEL: 'warn', BOOKING_WEBHOOK_SECRET_CALCOM: 'calcom-test-secret-0123456789' };
  delete env.DATABASE_URL;
  delete env.TRUSTED_PROXY_IP_HEADER;
  prepareData(env);
  server = spawn(process.execPath, SERVER_NODE_ARGS, { cwd: root, env, stdio: 'ignore' });
  await expect.poll(async () => (await fetch(`${base}/readyz`).catch(() => undefined))?.status, { timeout: 90_000 }).toBe(200);
});

test.afterAll(async () => {
  server?.kill('SIGTERM');
  await new Promise((resolve) => (server?.exitCode !== null ? resolve(undefined) : server.once('exit', resolve)));
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** The server's resident memory in MB (Linux). */
const rssMb = () => Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${server.pid}/status`, 'utf8'))?.[1] ?? NaN) / 1024;

/**
 * Streams `size` bytes of `piece` repeated as a request body (chunked unless `declare`), stopping as soon as
 * the server answers: the status, or 'closed' when it hung up first.
 */
function stream(pathname: string, size: number, piece: string, headers: Record<string, string>, declare = false): Promise<number | 'closed'> {
  const chunk = Buffer.from(piece.repeat(Math.ceil(64 * 1024 / piece.length)));
  return new Promise((resolve) => {
    let sent = 0;
    let answered = false;
    const req = http.request(`${base}${pathname}`, {
      method: 'POST',
      headers: { Origin: base, ...headers, ...(declare ? { 'Content-Length': String(size) } : {}) },
    });
    req.on('response', (res) => {
      answered = true;
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
      req.destroy();
    });
    req.on('error', () => !answered && resolve('closed'));
    const pump = () => {
      while (!answered && sent < size) {
        const part = chunk.subarray(0, Math.min(chunk.length, size - sent));
        sent += part.length;
        if (!req.write(part)) return void req.once('drain', pump);
      }
      if (!answered) req.end();
    };
    pump();
  });
}

test('six anonymous 62 MB bodies to the content import are refused before they are read; the server stays up and small', async () => {
  test.setTimeout(120_000);
  const small = '{"a":1},';
  // The baseline after the route has answered once: a fresh server loads the route's modules and its first
  // request's buffers on that request (tens of MB), which is not what the bodies cost.
  expect(await stream('/api/admin/content/import', 64 * 1024, small, { 'Content-Type': 'application/json' }, true)).toBe(401);
  const before = rssMb();
  const results = await Promise.all(
    Array.from({ length: 6 }, (_, i) => stream('/api/admin/content/import', 62 * MB, small, { 'Content-Type': 'application/json' }, i % 2 === 0)),
  );
  // 401, or the connection closed by the server as soon as it said so (the client was still sending).
  for (const result of results) expect([401, 'closed']).toContain(result);
  expect(rssMb() - before).toBeLessThan(100);
  expect((await fetch(`${base}/readyz`)).status).toBe(200);
});

test('a 12 MiB url-encoded form to the media API, and forms beyond any form of the site, are refused unread', async () => {
  test.setTimeout(60_000);
  for (const declare of [true, false]) {
    const result = await stream('/api/admin/media', 12 * MB, 'a=b&', { 'Content-Type': 'application/x-www-form-urlencoded' }, declare);
    expect([401, 'closed']).toContain(result);
  }
  // A declared form larger than any form of the site is refused on the spot, on a public route too.
  const res = await fetch(`${base}/auth`, {
    method: 'POST',
    headers: { Origin: base, 'Content-Type': 'application/x-www-form-urlencoded' },
    body: `intent=login&email=${'a'.repeat(70 * 1024)}`,
  });
  expect(res.status).toBe(413);
  // So is a form with more fields than any form of the site has.
  const fields = await fetch(`${base}/auth`, {
    method: 'POST',
    headers: { Origin: base, 'Content-Type': 'application/x-www-form-urlencoded' },
    body: Array.from({ length: 201 }, (_, i) => `f${i}=1`).join('&'),
  });
  expect(fields.status).toBe(413);
  expect(await fields.text()).toContain('too many fields');
});

test("a beacon route's own limit holds while the body streams in: a 1 MiB chunked body to the 8 KB lead-event route is a 413", async () => {
  const result = await stream('/api/lead-events', MB, 'x', { 'Content-Type': 'application/json' });
  expect([413, 'closed']).toContain(result);
});

test('the booking webhook: an unsigned 1 MiB body is refused unread (401), a signed-looking one at its 64 KB limit (413)', async () => {
  const unsigned = await stream('/api/webhooks/booking', MB, 'x', { 'Content-Type': 'application/json' });
  expect([401, 'closed']).toContain(unsigned);
  for (const declare of [true, false]) {
    const signed = await stream('/api/webhooks/booking', MB, 'x', { 'Content-Type': 'application/json', 'X-Cal-Signature-256': 'ab'.repeat(32) }, declare);
    expect([413, 'closed']).toContain(signed);
  }
  expect((await fetch(`${base}/readyz`)).status).toBe(200);
});

test("an admin's content file of seven million tiny objects is refused before parsing; the server stays up", async ({ playwright }) => {
  test.setTimeout(120_000);
  const request = await playwright.request.newContext({ baseURL: base });
  const admin = newAccount('owner');
  expect((await signUpViaApi(request, base, admin)).status()).toBe(200);
  // The only account, verified: the admin by the seed's rule.
  expect((await request.get(await verificationLink(admin.email, undefined, dataDir), { maxRedirects: 0 })).status()).toBe(302);
  const cookie = (await request.storageState()).cookies.map((c) => `${c.name}=${c.value}`).join('; ');

  const before = rssMb();
  const body = Buffer.from(`[${'{"a":1},'.repeat(7 * 1024 * 1024)}{}]`);
  const res = await fetch(`${base}/api/admin/content/import`, {
    method: 'POST',
    headers: { Origin: base, Cookie: cookie, 'Content-Type': 'application/json', 'X-File-Name': 'huge.json' },
    body,
  });
  expect(res.status).toBe(400);
  expect(await res.json()).toMatchObject({ code: 'INVALID_FILE', message: expect.stringContaining('more than 1,000,000 values') });
  expect(rssMb() - before).toBeLessThan(300);
  expect((await fetch(`${base}/readyz`)).status).toBe(200);
  await request.dispose();
});
