import net from 'node:net';
import { expect, test } from './support/fixtures';

// Slow-loris: a client that sends its headers a byte at a time must lose the connection once the
// documented 15 s header timeout has passed, not at Node's next 30 s sweep (server.mjs).
test('a connection that never finishes its headers is closed within 16 s', async ({ baseURL }) => {
  test.setTimeout(25_000);
  const { hostname, port } = new URL(baseURL!);
  const started = Date.now();
  const { answer, closedAfterMs } = await new Promise<{ answer: string; closedAfterMs: number }>((resolve, reject) => {
    let answer = '';
    const socket = net.connect(Number(port), hostname, () => socket.write(`GET / HTTP/1.1\r\nHost: ${hostname}\r\nX-Slow: `));
    // A byte every few seconds keeps the socket busy, as a slow-loris client does.
    const drip = setInterval(() => socket.writable && socket.write('a'), 3_000);
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (answer += chunk));
    socket.on('error', () => {}); // a reset after the answer is a close like any other
    socket.on('close', () => {
      clearInterval(drip);
      resolve({ answer, closedAfterMs: Date.now() - started });
    });
    setTimeout(() => {
      clearInterval(drip);
      socket.destroy();
      reject(new Error(`still open after ${Date.now() - started} ms`));
    }, 22_000);
  });
  expect(closedAfterMs).toBeGreaterThanOrEqual(14_500);
  expect(closedAfterMs).toBeLessThanOrEqual(16_500);
  expect(answer).toMatch(/^HTTP\/1\.1 408 /);
});
