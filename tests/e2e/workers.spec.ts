/**
 * WORKERS=2 on PostgreSQL (issue 19): the built server runs as two worker processes sharing one port; pages
 * are served; a free-audit confirmation goes out once although both workers run the mail queue (the SMTP
 * server is slow, so the second worker's pass comes while the first is still sending); a worker killed
 * with SIGKILL is started again while the other serves; SIGTERM stops them all. Needs TEST_DATABASE_URL.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from './support/fixtures';
import { SERVER_ENV, SERVER_NODE_ARGS } from '../../scripts/server-process.mjs';
import { createPostgresDatabase, type ThrowawayDatabase } from '../support/postgres-database';
import { startSmtpServer, type TestSmtpServer } from '../support/smtp';
import { freePort } from './support/free-port';

const serverUrl = process.env.TEST_DATABASE_URL;
const root = path.resolve(import.meta.dirname, '../..');
/** Longer than a mail worker's poll (15 s): the other worker's pass falls inside the first one's send. */
const SLOW_SMTP_MS = 16_000;

test.skip(!serverUrl, 'needs PostgreSQL: set TEST_DATABASE_URL');
test.describe.configure({ mode: 'serial' });

let database: ThrowawayDatabase;
let smtp: TestSmtpServer;
let server: ChildProcess;
let output = '';
let base: string;
let dataDir: string;

/** The primary's children: its workers (ps exits 1 when there are none). */
function workerPids(): number[] {
  try {
    return execFileSync('ps', ['-o', 'pid=', '--ppid', String(server.pid)], { encoding: 'utf8' })
      .split('\n')
      .map((l) => Number(l.trim()))
      .filter(Boolean);
  } catch {
    return [];
  }
}

test.beforeAll(async () => {
  test.setTimeout(180_000);
  output = '';
  database = await createPostgresDatabase(serverUrl!, 'workers_e2e');
  smtp = await startSmtpServer({ acceptDelayMs: SLOW_SMTP_MS });
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'jobs-workers-'));
  const env = {
    ...process.env,
    DATABASE_URL: database.url,
    AUTH_SECRET: 'a-test-secret-that-is-long-enough-0123456789',
    SMTP_URL: smtp.url,
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    SITE_URL: base,
    LOG_LEVEL: 'warn',
    WORKERS: '2',
    ...SERVER_ENV,
  };
  await new Promise<void>((resolve, reject) => {
    const migrate = spawn(process.execPath, ['--import', 'tsx', 'scripts/migrate.ts'], { cwd: root, env, stdio: 'ignore' });
    migrate.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`migrate exited with ${code}`))));
  });
  server = spawn(process.execPath, SERVER_NODE_ARGS, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  server.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  server.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  await expect.poll(() => output, { timeout: 150_000 }).toContain('2 worker processes are serving');
});

test.afterAll(async () => {
  if (server && server.exitCode === null) {
    server.kill('SIGKILL');
    for (const pid of workerPids()) process.kill(pid, 'SIGKILL');
  }
  await smtp?.close();
  await database?.drop();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

test('two workers serve the pages; a free-audit confirmation is delivered once', async ({ browser }) => {
  test.setTimeout(120_000);
  expect(workerPids()).toHaveLength(2);
  for (const page of ['/', '/services', '/free-audit', '/articles', '/?utm_source=e2e']) {
    expect((await fetch(base + page)).status, page).toBe(200);
  }
  // The claim link is printed once for the site; the other worker says where it is.
  expect(output.match(/"adminClaimUrl"/g)).toHaveLength(1);
  expect(output).toContain('Its claim link was printed at');

  const email = `workers-${Date.now().toString(36)}@example.com`;
  const context = await browser.newContext({ javaScriptEnabled: false, baseURL: base });
  const page = await context.newPage();
  await page.goto('/free-audit');
  await page.getByLabel('Full name', { exact: true }).fill('Grace Hopper');
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Business name').fill('Bright Smile Clinic');
  await page.getByLabel('Clinic').check();
  await page.getByLabel('More leads').check();
  await page.getByLabel(/I agree to be contacted/).check();
  await page.getByRole('button', { name: 'Request my free audit' }).click();
  await expect(page).toHaveURL(/\/free-audit\?sent=1$/);
  await context.close();

  await smtp.nextMailTo(email, 20_000);
  // Both workers' queue passes run while the slow server holds the first send, and after it.
  await new Promise((resolve) => setTimeout(resolve, SLOW_SMTP_MS + 4_000));
  expect(smtp.messages.filter((m) => m.to.includes(email))).toHaveLength(1);
});

test('a killed worker is started again while the other serves; SIGTERM stops them all', async () => {
  test.setTimeout(120_000);
  const [victim, survivor] = workerPids();
  process.kill(victim!, 'SIGKILL');
  await expect.poll(() => output, { timeout: 10_000 }).toContain(`(pid ${victim}) stopped unexpectedly (signal SIGKILL)`);
  expect((await fetch(`${base}/services`)).status).toBe(200);
  await expect.poll(() => output, { timeout: 90_000 }).toMatch(/worker \d \(pid \d+\) is serving again/);
  const now = workerPids();
  expect(now).toHaveLength(2);
  expect(now).toContain(survivor);
  expect(now).not.toContain(victim);

  const exited = new Promise<number | null>((resolve) => server.once('exit', (code) => resolve(code)));
  server.kill('SIGTERM');
  expect(await exited).toBe(0);
  for (const pid of now) expect(() => process.kill(pid, 0)).toThrow();
});
