import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { SERVER_NODE_ARGS } from '../../scripts/server-process.mjs';

// PGlite is single-process: a second `npm start` on the same data folder must stop with a clear message
// and leave the running server and its data alone.
const root = path.resolve(import.meta.dirname, '../..');
const port = 4393;
let dataDir: string;
let first: ChildProcess;

function envFor(dir: string) {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dir, PORT: String(port), HOST: '127.0.0.1', SITE_URL: `http://127.0.0.1:${port}`, LOG_LEVEL: 'warn' };
  delete env.DATABASE_URL;
  return env;
}

test.beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agency-second-start-'));
  const migrate = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/migrate.ts'], { cwd: root, env: envFor(dataDir) });
  expect(migrate.status).toBe(0);
  first = spawn(process.execPath, SERVER_NODE_ARGS, { cwd: root, env: envFor(dataDir), stdio: 'ignore' });
  await expect
    .poll(async () => (await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => undefined))?.status, { timeout: 60_000 })
    .toBe(200);
});

test.afterAll(async () => {
  first?.kill('SIGTERM');
  await new Promise((resolve) => first?.once('exit', resolve));
  fs.rmSync(dataDir, { recursive: true, force: true });
});

test('a second start on the same data folder exits with a clear message and the first keeps serving', async () => {
  const before = await (await fetch(`http://127.0.0.1:${port}/services`)).text();

  // npm start's first step (migrate) and the server itself both refuse the locked folder.
  const migrate = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/migrate.ts'], { cwd: root, env: envFor(dataDir), encoding: 'utf8' });
  expect(migrate.status).toBe(1);
  expect(migrate.stderr).toContain(`The data folder ${dataDir} is in use by another process (PID ${first.pid})`);

  const server = spawnSync(process.execPath, SERVER_NODE_ARGS, { cwd: root, env: { ...envFor(dataDir), PORT: String(port + 1) }, encoding: 'utf8', timeout: 60_000 });
  expect(server.status).toBe(1);
  expect(server.stderr).toContain('is in use by another process');

  const ready = await fetch(`http://127.0.0.1:${port}/readyz`);
  expect(ready.status).toBe(200);
  const after = await fetch(`http://127.0.0.1:${port}/services`);
  expect(after.status).toBe(200);
  expect(await after.text()).toBe(before);
  expect(JSON.parse(fs.readFileSync(path.join(dataDir, 'db.lock'), 'utf8'))).toMatchObject({ pid: first.pid });
});
