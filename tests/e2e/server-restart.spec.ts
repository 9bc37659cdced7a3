import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from './support/fixtures';
import { freePort } from './support/free-port';

// Staying up: under the real `npm run serve` (scripts/serve.mjs, with the supervisor `npm start` also uses;
// npm start itself would rebuild dist/ under the other specs' server) a server killed with SIGKILL comes
// back by itself, with a log line naming the signal and the wait; a second launcher on the same data folder
// could not start and ends with the lock's message instead of retrying; SIGTERM to npm stops the server
// cleanly (the data-folder lock released) and nothing restarts it.
const root = path.resolve(import.meta.dirname, '../..');
let port: number;
let dataDir: string;
let launcher: ChildProcess;
let stderr = '';

const envFor = (p: number): NodeJS.ProcessEnv => {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, PORT: String(p), HOST: '127.0.0.1', LOG_LEVEL: 'warn', SEED_DEMO_CONTENT: 'false' };
  delete env.DATABASE_URL;
  return env;
};
const readyz = async () => (await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => undefined))?.status;
const serverPid = (): number | undefined => {
  try {
    return (JSON.parse(fs.readFileSync(path.join(dataDir, 'db.lock'), 'utf8')) as { pid: number }).pid;
  } catch {
    return undefined;
  }
};
/** The parent of a process (Linux: field 4 of /proc/<pid>/stat, after the parenthesised name). */
const parentOf = (pid: number) => Number(fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[1]);
const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
const crashLines = () =>
  stderr
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, unknown>);

/** Runs a launcher to its end without blocking this process (fetch keeps working meanwhile). */
function runToEnd(args: string[], env: NodeJS.ProcessEnv): Promise<{ status: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: root, env, stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stderr: err }));
  });
}

test.beforeAll(async () => {
  test.setTimeout(180_000);
  port = await freePort();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agency-restart-'));
  // Created in its own process first, as `npm start` does (creating a database inside the server costs memory).
  expect(spawnSync(process.execPath, ['--import', 'tsx', 'scripts/migrate.ts'], { cwd: root, env: envFor(port) }).status).toBe(0);
  launcher = spawn('npm', ['run', 'serve'], { cwd: root, env: envFor(port), stdio: ['ignore', 'ignore', 'pipe'] });
  launcher.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  await expect.poll(readyz, { timeout: 90_000 }).toBe(200);
});

test.afterAll(async () => {
  if (launcher?.exitCode === null && launcher.signalCode === null) {
    launcher.kill('SIGTERM');
    await new Promise((resolve) => launcher.once('exit', resolve));
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
});

test('a server killed with SIGKILL comes back by itself; SIGTERM then stops it for good', async () => {
  test.setTimeout(150_000);
  const first = serverPid()!;
  expect(first).toBeGreaterThan(0);
  process.kill(first, 'SIGKILL');

  await expect.poll(() => crashLines().length, { timeout: 10_000 }).toBe(1);
  expect(crashLines()[0]).toMatchObject({
    level: 'error',
    msg: 'the server stopped unexpectedly (signal SIGKILL); restarting in 1 s',
    exitCode: null,
    signal: 'SIGKILL',
    restartInMs: 1000,
  });
  await expect.poll(readyz, { timeout: 90_000 }).toBe(200);
  const second = serverPid();
  expect(second).not.toBe(first);

  // A second launcher on the same data folder could not start: it ends with the lock's message, untried again.
  const other = await runToEnd(['scripts/serve.mjs'], envFor(await freePort()));
  expect(other.status).toBe(1);
  expect(other.stderr).toContain(`is in use by another process (PID ${second})`);
  expect(other.stderr).not.toContain('restarting');

  // SIGTERM to npm, as a process manager or `kill` sends it: npm hands it to its shell, which dies without
  // passing it on; the supervisor notices and stops the server cleanly.
  const supervisor = parentOf(second!);
  launcher.kill('SIGTERM');
  await new Promise((resolve) => launcher.once('exit', resolve));
  await expect.poll(() => isAlive(second!) || isAlive(supervisor), { timeout: 30_000 }).toBe(false);
  // Stopped cleanly (the database closed and its lock released) and not started again.
  expect(fs.existsSync(path.join(dataDir, 'db.lock'))).toBe(false);
  await new Promise((resolve) => setTimeout(resolve, 1500));
  expect(await readyz()).toBeUndefined();
  expect(crashLines()).toHaveLength(1);
});

test('a launcher killed with SIGKILL takes its server down cleanly instead of leaving it running', async () => {
  test.setTimeout(150_000);
  port = await freePort();
  const orphanable = spawn(process.execPath, ['scripts/serve.mjs'], { cwd: root, env: envFor(port), stdio: 'ignore' });
  await expect.poll(readyz, { timeout: 90_000 }).toBe(200);
  const server = serverPid()!;
  orphanable.kill('SIGKILL');
  // The server notices its launcher is gone (the IPC channel closes) and stops as on SIGTERM.
  await expect.poll(() => fs.existsSync(path.join(dataDir, 'db.lock')), { timeout: 30_000 }).toBe(false);
  await expect.poll(() => isAlive(server), { timeout: 10_000 }).toBe(false);
});
