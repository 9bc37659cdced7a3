import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from './support/fixtures';
import { SERVER_NODE_ARGS } from '../../scripts/server-process.mjs';
import { freePort } from './support/free-port';

// PGlite is single-process: a second `npm start` on the same data folder must stop with a clear message
// and leave the running server and its data alone.
const root = path.resolve(import.meta.dirname, '../..');
let port: number;
let dataDir: string;
let first: ChildProcess;

function envFor(dir: string) {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dir, PORT: String(port), HOST: '127.0.0.1', SITE_URL: `http://127.0.0.1:${port}`, LOG_LEVEL: 'warn' };
  delete env.DATABASE_URL;
  return env;
}

test.beforeAll(async () => {
  // Creating the database and starting the server take well over the default 30 s on a busy machine.
  test.setTimeout(180_000);
  port = await freePort();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agency-second-start-'));
  const migrate = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/migrate.ts'], { cwd: root, env: envFor(dataDir) });
  expect(migrate.status).toBe(0);
  first = spawn(process.execPath, SERVER_NODE_ARGS, { cwd: root, env: envFor(dataDir), stdio: 'ignore' });
  await expect
    .poll(async () => (await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => undefined))?.status, { timeout: 60_000 })
    .toBe(200);
});

/**
 * Runs a second process to its end without blocking this one: during a spawnSync, fetch cannot notice
 * that the server closed an idle keep-alive connection, and the next request would be sent on it and fail.
 */
function runToEnd(args: string[], env: NodeJS.ProcessEnv): Promise<{ status: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: root, env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stderr }));
  });
}

test.afterAll(async () => {
  first?.kill('SIGTERM');
  await new Promise((resolve) => first?.once('exit', resolve));
  fs.rmSync(dataDir, { recursive: true, force: true });
});

test('a second start on the same data folder exits with a clear message and the first keeps serving', async () => {
  test.setTimeout(120_000);
  const before = await (await fetch(`http://127.0.0.1:${port}/services`)).text();

  // npm start's first step (migrate) and the server itself both refuse the locked folder.
  const migrate = await runToEnd(['--import', 'tsx', 'scripts/migrate.ts'], envFor(dataDir));
  expect(migrate.status).toBe(1);
  expect(migrate.stderr).toContain(`The data folder ${dataDir} is in use by another process (PID ${first.pid})`);

  const server = await runToEnd(SERVER_NODE_ARGS, { ...envFor(dataDir), PORT: String(await freePort()) });
  expect(server.status).toBe(1);
  expect(server.stderr).toContain('is in use by another process');

  const ready = await fetch(`http://127.0.0.1:${port}/readyz`);
  expect(ready.status).toBe(200);
  const after = await fetch(`http://127.0.0.1:${port}/services`);
  expect(after.status).toBe(200);
  expect(await after.text()).toBe(before);
  expect(JSON.parse(fs.readFileSync(path.join(dataDir, 'db.lock'), 'utf8'))).toMatchObject({ pid: first.pid });
});
