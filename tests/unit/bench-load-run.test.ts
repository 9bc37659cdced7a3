// The bench's fixed-rate latency (bench/load-run.mjs, decision 052): rows compare p99s within 20 %, so each
// response must count once at its own latency, and only a response that held up its connection's next send
// may add samples.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loadRun, withHeldSends } from '../../bench/load-run.mjs';

describe('withHeldSends', () => {
  test('a response within its send interval counts once', () => {
    expect(withHeldSends([3, 40, 99.9], 100)).toEqual([3, 40, 99.9]);
  });

  test('a response later than the next send adds each send it held up, one interval less each', () => {
    expect(withHeldSends([450], 100)).toEqual([450, 350, 250, 150]);
  });

  test('without a fixed rate nothing is added', () => {
    expect(withHeldSends([450], undefined)).toEqual([450]);
  });
});

describe('loadRun at a fixed rate', () => {
  // Every answer takes 10 ms: no percentile of what a visitor waits can be less.
  const server = http.createServer((_req, res) => setTimeout(() => res.end('ok'), 10));
  let base = '';
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  test('reports the latency each response had', async () => {
    const run = await loadRun({ base, pid: process.pid, path: '/', connections: 10, duration: 2, overallRate: 100 });
    // autocannon's own correction (1 ms interval) reported a p50 of about 6 ms for this server.
    expect(run.p50).toBeGreaterThanOrEqual(10);
    expect(run.p50).toBeLessThan(50);
    expect(run.p99).toBeGreaterThanOrEqual(run.p50);
    expect(run.requests).toBeGreaterThan(100);
  });
});
