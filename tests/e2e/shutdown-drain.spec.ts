/**
 * SIGTERM drains (docs/decisions/025): the server stops taking connections, a request in flight still gets
 * its answer, an open chat stream gets `end` {reason: 'restart'} after a `retry:` hint, and the process
 * exits 0 well within SHUTDOWN_TIMEOUT_MS.
 */
import http from 'node:http';
import { expect, test } from './support/fixtures';
import { ownPort, startOwnServer, type OwnServer } from './support/own-server';

let server: OwnServer;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  server = await startOwnServer(await ownPort(12), { SHUTDOWN_TIMEOUT_MS: '10000' });
});

test.afterAll(async () => {
  await server?.stop();
});

/** A page view whose body arrives in two parts: the request is in flight until `finish` is called. */
function slowBeacon(url: string) {
  const body = JSON.stringify({ p: '/services', r: '', w: 1280 });
  const req = http.request(`${url}/api/visits`, {
    method: 'POST',
    headers: { origin: url, 'content-type': 'text/plain;charset=UTF-8', 'content-length': Buffer.byteLength(body), 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0' },
  });
  const answer = new Promise<number>((resolve, reject) => {
    req.on('response', (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
  });
  req.write(body.slice(0, 10));
  return { answer, finish: () => req.end(body.slice(10)) };
}

/** Opens a visitor's chat stream and reads it to its end. */
async function openChatStream(url: string) {
  const visitor = { origin: url, 'x-chat-visitor': 'c'.repeat(32), 'content-type': 'application/json' };
  const started = await fetch(`${url}/api/chat/messages`, { method: 'POST', headers: visitor, body: JSON.stringify({ body: 'Hello, is anyone there?' }) });
  expect(started.status).toBe(200);
  const { conversation } = (await started.json()) as { conversation: { id: string; streamToken: string } };
  const res = await fetch(`${url}/api/chat/stream?c=${conversation.id}&t=${encodeURIComponent(conversation.streamToken)}&after=0`);
  expect(res.headers.get('content-type')).toContain('text/event-stream');
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let text = '';
  const opened = (async () => {
    while (!text.includes('event: state')) {
      const { value, done } = await reader.read();
      if (done) break;
      text += value;
    }
  })();
  await opened;
  const ended = (async () => {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return text;
      text += value;
    }
  })();
  return { ended };
}

test('SIGTERM: a request in flight is answered, a chat stream is told to reconnect, the process exits 0 in time', async () => {
  test.setTimeout(60_000);
  const stream = await openChatStream(server.url);
  const beacon = slowBeacon(server.url);
  await new Promise((r) => setTimeout(r, 300)); // the request has reached the server

  const signalledAt = Date.now();
  server.child.kill('SIGTERM');

  // The stream ends at once, with the restart hint the widget and the inbox read.
  const streamText = await stream.ended;
  expect(streamText).toContain('retry: 2000');
  expect(streamText).toMatch(/event: end\ndata: \{"reason":"restart","retryMs":2000\}/);

  // No new connections are taken…
  await expect.poll(async () => (await fetch(`${server.url}/healthz`).then(() => 'answered', () => 'refused'))).toBe('refused');
  expect(server.child.exitCode).toBeNull();

  // …but the request that was in flight gets its answer.
  await new Promise((r) => setTimeout(r, 1_000));
  beacon.finish();
  expect(await beacon.answer).toBe(204);

  const { code, signal } = await server.exited;
  expect({ code, signal }).toEqual({ code: 0, signal: null });
  expect(Date.now() - signalledAt).toBeLessThan(10_000);
});
