/**
 * The WORKERS primary (scripts/workers.mjs) around stand-in workers (tests/support/fake-cluster-server.mjs):
 * it reports ready once every worker is; a worker that dies after serving is started again after the wait,
 * with a log line naming it, while the other keeps running; a worker that cannot start at first start stops
 * the server with its exit code; SIGTERM reaches every worker and the primary exits when all have stopped.
 * The real server with WORKERS=2 on PostgreSQL is tests/e2e/workers.spec.ts.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { READY_MESSAGE } from '../../scripts/supervise.mjs';

const root = path.resolve(import.meta.dirname, '../..');
const temps: string[] = [];
afterEach(() => temps.splice(0).forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

function primary(workers: Record<string, string>) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'jobs-workers-'));
  temps.push(dir);
  const env: NodeJS.ProcessEnv = { ...process.env, FAKE_DIR: dir, FAKE_POLICY: JSON.stringify({ firstDelayMs: 100, maxDelayMs: 250 }) };
  for (const [n, step] of Object.entries(workers)) env[`FAKE_WORKER_${n}`] = step;
  const child = spawn(process.execPath, [path.join(root, 'tests/support/fake-cluster-server.mjs')], { env, stdio: ['ignore', 'pipe', 'pipe', 'ipc'] });
  let out = '';
  const messages: unknown[] = [];
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  child.on('message', (m) => messages.push(m));
  return {
    child,
    output: () => out,
    messages,
    exited: new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code))),
  };
}

describe('the WORKERS primary', () => {
  it('restarts a worker that died while the other serves, then stops both on SIGTERM', async () => {
    const p = primary({ 1: 'crash-once', 2: 'serve' });
    await expect.poll(() => p.output(), { timeout: 10_000 }).toMatch(/worker 1 \(pid \d+\) is serving again/);
    expect(p.messages).toEqual([READY_MESSAGE]);
    expect(p.output()).toContain('2 worker processes are serving');
    expect(p.output()).toMatch(/"msg":"worker 1 \(pid \d+\) stopped unexpectedly \(exit code 3\); the other workers go on serving; restarting it in 0.1 s"/);
    p.child.kill('SIGTERM');
    expect(await p.exited).toBe(0);
    expect(p.output()).toContain('{"fake":"stopped","worker":"1"}');
    expect(p.output()).toContain('{"fake":"stopped","worker":"2"}');
  });

  it('a worker that cannot start at first start stops the server with its exit code', async () => {
    const p = primary({ 1: 'serve', 2: 'fail' });
    expect(await p.exited).toBe(2);
    expect(p.output()).toContain('worker 2 could not start');
    expect(p.messages).toEqual([]);
  });
});
