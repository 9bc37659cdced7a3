/**
 * The e2e specs' `test`: Playwright's, with a built server of each worker's own (issue 37). Every worker
 * process starts `start-server.mjs` on a free port with a data folder of its own (migrated, the demo
 * content), signs up its admin (the first verified account) and a member through the API and the outbox,
 * and saves their sessions where ADMIN_STATE and MEMBER_STATE point for this worker's slot. Specs that write
 * never meet another worker's data, and the workers run side by side. The server starts with the worker's
 * first test that asks for `baseURL` (every context does) and stops with the worker. Specs import `test`
 * and `expect` from here; everything else of '@playwright/test' is re-exported as it is.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test as base, expect, request as requests } from '@playwright/test';
import { ACCOUNTS_FILE, ADMIN_STATE, AUTH_DIR, MEMBER_STATE, freshClientIp, newAccount, signUpViaApi, verificationLink, type TestAccount } from './accounts';
import { freePort } from './free-port';

export * from '@playwright/test';

const root = path.resolve(import.meta.dirname, '../../..');

export interface WorkerServer {
  url: string;
  dataDir: string;
}

/** Starts the built site on `port` with its own data folder; resolves once it answers /readyz. */
async function startWorkerServer(port: number, dataDir: string): Promise<{ child: ChildProcess; url: string }> {
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ['tests/e2e/support/start-server.mjs'], {
    cwd: root,
    env: { ...process.env, E2E_PORT: String(port), E2E_DATA_DIR: dataDir },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const deadline = Date.now() + 180_000;
  for (;;) {
    const status = await fetch(`${url}/readyz`).then((r) => r.status).catch(() => 0);
    if (status === 200) return { child, url };
    const code = await Promise.race([exited, new Promise<'waiting'>((r) => setTimeout(() => r('waiting'), 250))]);
    if (code !== 'waiting') throw new Error(`the e2e server on port ${port} exited (${code}) before it was ready`);
    if (Date.now() > deadline) throw new Error(`the e2e server on port ${port} was not ready within 180 s`);
  }
}

/** Signs up and verifies `account` through the API; its session is saved to `statePath`. */
async function signUpVerified(url: string, account: TestAccount, statePath: string): Promise<Record<string, unknown>> {
  const context = await requests.newContext({ baseURL: url });
  try {
    const signedUp = await signUpViaApi(context, url, account);
    expect(signedUp.status(), await signedUp.text()).toBe(200);
    const link = await verificationLink(account.email);
    expect((await context.get(link, { maxRedirects: 0, headers: { 'x-real-ip': freshClientIp() } })).status()).toBe(302);
    const session = (await (await context.get('/api/auth/get-session')).json()) as { user: Record<string, unknown> };
    await context.storageState({ path: statePath });
    return session.user;
  } finally {
    await context.dispose();
  }
}

export const test = base.extend<object, { workerServer: WorkerServer }>({
  workerServer: [
    async ({}, use) => {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agency-e2e-'));
      const { child, url } = await startWorkerServer(await freePort(), dataDir);
      // The helpers that read the mail outbox and the saved accounts find this worker's.
      process.env.E2E_DATA_DIR = dataDir;
      fs.mkdirSync(AUTH_DIR, { recursive: true });
      const admin = { ...newAccount('admin'), firstName: 'Ada', lastName: 'Admin' };
      const member = { ...newAccount('member'), firstName: 'Mia', lastName: 'Member' };
      // The first account to verify its email becomes the admin (the seed's rule); the second stays a member.
      expect(await signUpVerified(url, admin, ADMIN_STATE)).toMatchObject({ role: 'admin', emailVerified: true });
      expect(await signUpVerified(url, member, MEMBER_STATE)).toMatchObject({ role: 'user', emailVerified: true });
      fs.writeFileSync(ACCOUNTS_FILE, JSON.stringify({ admin, member }, null, 2), { mode: 0o600 });
      await use({ url, dataDir });
      const stopped = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await stopped;
    },
    { scope: 'worker', timeout: 240_000 },
  ],
  baseURL: async ({ workerServer }, use) => use(workerServer.url),
});
