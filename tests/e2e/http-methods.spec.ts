/**
 * Methods the site does not serve (TRACE, TRACK, WebDAV's PROPFIND, CONNECT, unknown or lowercase ones)
 * are refused with 405 and an Allow header on every kind of path — never a 500 from deeper layers.
 * fetch refuses to send these methods, so requests go through node:http, or raw sockets where even
 * node:http would correct the method.
 */
import http from 'node:http';
import net from 'node:net';
import { expect, test } from './support/fixtures';

const PATHS = ['/', '/services', '/api/prices', '/_actions/account.updateProfile', '/favicon.svg'];

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

function viaNodeHttp(baseURL: string, method: string, path: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(new URL(path, baseURL), { method, headers: { Connection: 'close' } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers as Record<string, string>, body }));
    });
    req.on('error', reject);
    req.setTimeout(10_000, () => req.destroy(new Error('no answer within 10 s')));
    req.end();
  });
}

/** Writes the request line exactly as given and parses the answer's head. */
function viaRawSocket(baseURL: string, requestLine: string): Promise<Answer> {
  const { hostname, port } = new URL(baseURL);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => socket.write(`${requestLine}\r\nHost: ${hostname}\r\nConnection: close\r\n\r\n`));
    let data = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk) => (data += chunk));
    socket.on('end', () => {
      const [head = '', body = ''] = data.split('\r\n\r\n');
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body });
    });
    socket.on('error', reject);
    socket.setTimeout(10_000, () => socket.destroy(new Error('no answer within 10 s')));
  });
}

function expectRefused(answer: Answer, label: string) {
  expect(answer.status, label).toBe(405);
  expect(answer.headers['allow'], label).toBe('GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS');
  expect(answer.headers['content-type'], label).toBe('text/plain; charset=utf-8');
  expect(answer.headers['cache-control'], label).toBe('no-store');
  expect(answer.headers['x-content-type-options'], label).toBe('nosniff');
  expect(answer.headers['x-frame-options'], label).toBe('DENY');
  expect(answer.body, label).toBe('Method not allowed.');
}

test('methods the site does not serve are refused with 405 on pages, APIs, actions and files', async ({ baseURL }) => {
  for (const path of PATHS) {
    // Twice each, so a route-cache entry made by the first answer could not change the second.
    for (const method of ['TRACE', 'TRACK', 'PROPFIND', 'BREW', 'TRACE']) {
      expectRefused(await viaNodeHttp(baseURL!, method, path), `${method} ${path}`);
    }
    for (const method of ['trace', 'get', 'Propfind']) {
      expectRefused(await viaRawSocket(baseURL!, `${method} ${path} HTTP/1.1`), `${method} ${path}`);
    }
  }
  expectRefused(await viaRawSocket(baseURL!, `CONNECT ${new URL(baseURL!).host} HTTP/1.1`), 'CONNECT');
});

test('the methods the site serves still reach their routes', async ({ baseURL }) => {
  expect((await viaNodeHttp(baseURL!, 'GET', '/services')).status).toBe(200);
  expect((await viaNodeHttp(baseURL!, 'HEAD', '/favicon.svg')).status).toBe(200);
  const options = await viaNodeHttp(baseURL!, 'OPTIONS', '/services');
  expect(options.status).toBe(204);
  expect(options.headers['allow']).toBe('GET, HEAD, OPTIONS');
});
