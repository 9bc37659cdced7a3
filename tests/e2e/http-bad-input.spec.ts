/**
 * Bad input at the HTTP level: the server answers with a 4xx and a short message, never a 500 and never
 * a stack trace.
 */
import net from 'node:net';
import { expect, test } from './support/fixtures';
import { ADMIN_STATE } from './support/accounts';

const STACK = /at \S+ \(|node_modules|\.mjs:\d+|Error:/;

/** Raw HTTP, so the test controls exactly what goes on the wire (clients refuse to send some of it). */
function rawRequest(baseURL: string, head: string): Promise<string> {
  const { hostname, port } = new URL(baseURL);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => socket.write(head));
    let data = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk) => (data += chunk));
    socket.on('end', () => resolve(data));
    socket.on('error', (err) => (data ? resolve(data) : reject(err)));
    socket.setTimeout(10_000, () => socket.destroy(new Error('no answer within 10 s')));
  });
}

test('a malformed percent-encoding in the path is a 400, not a crash', async ({ request }) => {
  for (const path of ['/%E0%A4%A', '/article/%', '/service/%ZZ']) {
    const res = await request.get(path);
    expect(res.status(), path).toBe(400);
    expect(await res.text()).not.toMatch(STACK);
    expect(res.headers()['x-content-type-options']).toBe('nosniff');
  }
});

test('a NUL in a query or a path is a 400 everywhere, never a 500 or a download cut short', async ({ playwright, baseURL, request }) => {
  for (const path of ['/articles?tag=%00', '/article/a%00b', '/services?x=a%00']) {
    const res = await request.get(path);
    expect(res.status(), path).toBe(400);
    expect(await res.text()).not.toMatch(STACK);
  }
  const admin = await playwright.request.newContext({ baseURL, storageState: ADMIN_STATE });
  for (const path of ['/admin/users?q=%00', '/admin/users/a%00b', '/api/admin/users/export?q=a%00', '/admin/activity?q=%00']) {
    const res = await admin.get(path);
    expect(res.status(), path).toBe(400);
    expect(await res.text()).toContain('not text');
  }
  await admin.dispose();
});

test('oversize request headers are refused with 431', async ({ baseURL }) => {
  const answer = await rawRequest(baseURL!, `GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\nConnection: close\r\n\r\n`);
  expect(answer.split('\r\n')[0]).toBe('HTTP/1.1 431 Request Header Fields Too Large');
});

test('a garbage request line is a 400', async ({ baseURL }) => {
  const answer = await rawRequest(baseURL!, 'NOT HTTP AT ALL\r\n\r\n');
  expect(answer.split('\r\n')[0]).toBe('HTTP/1.1 400 Bad Request');
});

test('an unknown route answers the 404 page with status 404', async ({ request }) => {
  const res = await request.get(`/no-such-page-${Date.now()}`);
  expect(res.status()).toBe(404);
  expect(res.headers()['content-type']).toContain('text/html');
  expect(await res.text()).not.toMatch(STACK);
});

test('a body over the limit of the route it is sent to is refused with 413 before the route runs', async ({ request, baseURL }) => {
  const res = await request.post('/api/audit-requests', {
    headers: { 'Content-Type': 'application/json', Origin: baseURL! },
    data: Buffer.alloc(1_048_577, 'a'),
  });
  expect(res.status()).toBe(413);
});

test('posting to a page is refused, from this site or another', async ({ request, baseURL }) => {
  // Within a route's limit, so the body size alone does not refuse it.
  const body = Buffer.alloc(16 * 1024, 'a');
  const sameSite = await request.post('/services', { headers: { 'Content-Type': 'application/json', Origin: baseURL! }, data: body });
  expect(sameSite.status()).toBe(405);
  expect(sameSite.headers()['allow']).toBe('GET, HEAD, OPTIONS');
  const crossSite = await request.post('/services', {
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: 'https://evil.example' },
    data: body,
  });
  expect(crossSite.status()).toBe(403);
});

test('HEAD answers like GET without a body; OPTIONS lists the allowed methods', async ({ request }) => {
  const head = await request.head('/');
  expect(head.status()).toBe(200);
  expect(head.headers()['content-type']).toContain('text/html');
  expect((await head.body()).length).toBe(0);
  expect(head.headers()['x-content-type-options']).toBe('nosniff');
  const options = await request.fetch('/', { method: 'OPTIONS' });
  expect(options.status()).toBe(204);
  expect(options.headers()['allow']).toBe('GET, HEAD, OPTIONS');
});

test('the error page is generic: no stack, no error text, not cached', async ({ request }) => {
  const res = await request.get('/500');
  expect(res.status()).toBe(500);
  const html = await res.text();
  expect(html).toContain('Something went wrong');
  expect(html).not.toMatch(STACK);
  expect(res.headers()['cache-control']).toBe('no-store');
  expect(res.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
});
