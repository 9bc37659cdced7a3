/**
 * The launcher's supervisor (scripts/supervise.mjs) around a stand-in server (tests/support/fake-server.mjs):
 * a crash after serving is restarted with a growing, capped wait and one JSON log line; a healthy run
 * resets the wait; a server that could not start ends the launcher with its own exit code; failing
 * restarts are given up after a few; SIGTERM stops the server and never restarts it. The real server under
 * `npm run serve` is tests/e2e/server-restart.spec.ts.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_POLICY, restartDelayMs } from '../../scripts/supervise.mjs';

const root = path.resolve(import.meta.dirname, '../..');
const temps: string[] = [];
afterEach(() => temps.splice(0).forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

interface Launcher {
  exited: Promise<number | null>;
  stdout: () => string;
  logLines: () => Array<Record<string, unknown>>;
  starts: () => number;
  kill: (signal: NodeJS.Signals) => void;
}

function launch(plan: string, policy: Partial<typeof DEFAULT_POLICY>, env: Record<string, string> = {}): Launcher {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'supervise-'));
  temps.push(dir);
  const countFile = path.join(dir, 'count');
  const script = `import { supervise } from ${JSON.stringify(path.join(root, 'scripts/supervise.mjs'))};
supervise({ args: [${JSON.stringify(path.join(root, 'tests/support/fake-server.mjs'))}], policy: ${JSON.stringify(policy)} });`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
    env: { ...process.env, FAKE_PLAN: plan, FAKE_COUNT_FILE: countFile, ...env },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return {
    exited: new Promise((resolve) => child.on('exit', (code) => resolve(code))),
    stdout: () => stdout,
    logLines: () =>
      stderr
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as Record<string, unknown>),
    starts: () => (fs.existsSync(countFile) ? Number(fs.readFileSync(countFile, 'utf8')) + 1 : 0),
    kill: (signal) => child.kill(signal),
  };
}

const fast = { firstDelayMs: 100, maxDelayMs: 250, healthyMs: 60_000, maxFailedRestarts: 2 };

describe('restartDelayMs', () => {
  it('doubles from 1 s and stops growing at 30 s', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 20].map((n) => restartDelayMs(n))).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000]);
  });
});

describe('the supervisor', () => {
  it('restarts a server that crashed after serving, waiting longer each time, and logs each crash', async () => {
    const l = launch('crash,crash,crash,serve', fast);
    await expect.poll(() => l.stdout().includes('"run":3'), { timeout: 10_000 }).toBe(true);
    const crashes = l.logLines();
    expect(crashes).toHaveLength(3);
    expect(crashes.map((c) => c.restartInMs)).toEqual([100, 200, 250]);
    expect(crashes[0]).toMatchObject({ level: 'error', exitCode: 3, signal: null, restartsInARow: 1 });
    expect(crashes[0]!.msg).toBe('the server stopped unexpectedly (exit code 3); restarting in 0.1 s');

    // SIGTERM: the server stops cleanly and is not started again.
    l.kill('SIGTERM');
    expect(await l.exited).toBe(0);
    expect(l.stdout()).toContain('{"fake":"stopped","run":3}');
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(l.starts()).toBe(4);
    expect(l.logLines()).toHaveLength(3);
  });

  it('starts the wait over after a healthy run', async () => {
    const l = launch('crash,crash,serve', { ...fast, healthyMs: 100 }, { FAKE_SERVE_MS: '300' });
    await expect.poll(() => l.stdout().includes('"run":2'), { timeout: 10_000 }).toBe(true);
    expect(l.logLines().map((c) => c.restartInMs)).toEqual([100, 100]);
    l.kill('SIGINT');
    expect(await l.exited).toBe(0);
  });

  it('a server that could not start ends the launcher with its message and exit code, untried again', async () => {
    const l = launch('fail', fast);
    expect(await l.exited).toBe(2);
    expect(l.starts()).toBe(1);
    expect(l.logLines()).toEqual([]);
  });

  it('gives up when restarts after a crash keep failing to start', async () => {
    const l = launch('crash,fail', fast);
    expect(await l.exited).toBe(2);
    // The crash, then 1 + maxFailedRestarts failed starts.
    expect(l.starts()).toBe(4);
    const lines = l.logLines();
    expect(lines.at(-1)).toMatchObject({ level: 'fatal', msg: 'the server could not start again (exit code 2); giving up', exitCode: 2 });
  });

  it('SIGTERM while a restart is pending exits without starting the server again', async () => {
    const l = launch('crash,serve', { ...fast, firstDelayMs: 2_000, maxDelayMs: 2_000 });
    await expect.poll(() => l.logLines().length, { timeout: 10_000 }).toBe(1);
    l.kill('SIGTERM');
    expect(await l.exited).toBe(0);
    expect(l.starts()).toBe(1);
  });
});
