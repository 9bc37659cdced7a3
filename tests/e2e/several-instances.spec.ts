/**
 * Several server processes on one PostgreSQL database, as production runs them (README, docs/decisions/022):
 * two built servers, A and B, with the same DATABASE_URL and AUTH_SECRET on different ports. What one
 * process changes, the other shows at once: a FAQ added through A is on B's cached landing page within a
 * second; a chat visitor on A and the admin on B see each other live, take-over included; an admin demoted
 * or disabled through A loses the inbox stream B holds open for them. Needs PostgreSQL (TEST_DATABASE_URL).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type APIRequestContext, type Browser, type Page } from './support/fixtures';
import { SERVER_ENV, SERVER_NODE_ARGS } from '../../scripts/server-process.mjs';
import { createPostgresDatabase, type ThrowawayDatabase } from '../support/postgres-database';
import { freshClientIp, gotoHydrated, newAccount, signUpViaApi, type TestAccount } from './support/accounts';
import { callAction } from './support/admin-actions';
import { freePort } from './support/free-port';

const SERVER = process.env.TEST_DATABASE_URL;
test.skip(!SERVER, 'Several instances need PostgreSQL: set TEST_DATABASE_URL (CI does) to run this spec.');
test.describe.configure({ mode: 'serial' });

const root = path.resolve(import.meta.dirname, '../..');
const SECRET = 'several-instances-secret-that-is-long-enough-0123456789';

interface Instance {
  base: string;
  dataDir: string;
  process: ChildProcess;
}

let database: ThrowawayDatabase;
let a: Instance;
let b: Instance;
let owner: TestAccount;

/** Ports from this run's block when E2E_PORT names one (the shared server takes E2E_PORT itself). */
async function portFor(offset: number): Promise<number> {
  return process.env.E2E_PORT ? Number(process.env.E2E_PORT) + offset : freePort();
}

function envFor(port: number, dataDir: string): NodeJS.ProcessEnv {
  return {
    ...process.env,
    ...SERVER_ENV,
    DATABASE_URL: database.url,
    AUTH_SECRET: SECRET,
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    SITE_URL: `http://127.0.0.1:${port}`,
    LOG_LEVEL: 'warn',
    TRUSTED_PROXY_IP_HEADER: 'x-real-ip',
    ASTRO_TELEMETRY_DISABLED: '1',
  };
}

async function startInstance(port: number): Promise<Instance> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agency-instances-'));
  const child = spawn(process.execPath, SERVER_NODE_ARGS, { cwd: root, env: envFor(port, dataDir), stdio: ['ignore', 'ignore', 'inherit'] });
  const base = `http://127.0.0.1:${port}`;
  await expect.poll(async () => (await fetch(`${base}/readyz`).catch(() => undefined))?.status, { timeout: 90_000 }).toBe(200);
  return { base, dataDir, process: child };
}

async function stopInstance(instance: Instance | undefined) {
  if (!instance) return;
  if (instance.process.exitCode === null) {
    instance.process.kill('SIGTERM');
    await new Promise((resolve) => instance.process.once('exit', resolve));
  }
  fs.rmSync(instance.dataDir, { recursive: true, force: true });
}

/** `npm run create-admin`, against the shared database. */
function makeAdmin(email: string) {
  const run = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/create-admin.ts', email], { cwd: root, env: envFor(Number(new URL(a.base).port), a.dataDir), encoding: 'utf8' });
  expect(run.status, run.stderr).toBe(0);
}

/** A verified admin account, signed up through A. */
async function newAdmin(request: APIRequestContext, prefix: string): Promise<TestAccount> {
  const account = newAccount(prefix);
  expect((await signUpViaApi(request, a.base, account)).status()).toBe(200);
  makeAdmin(account.email);
  return account;
}

/** A request context on `base`, signed in as `account` (the session is the database's: valid on A and B). */
async function signedIn(playwright: { request: { newContext: (o: object) => Promise<APIRequestContext> } }, base: string, account: TestAccount) {
  const request = await playwright.request.newContext({ baseURL: base, extraHTTPHeaders: { 'x-real-ip': freshClientIp() } });
  const res = await request.post('/api/auth/sign-in/email', { headers: { origin: base }, data: { email: account.email, password: account.password } });
  expect(res.status(), await res.text()).toBe(200);
  return request;
}

/** A browser page on `base` with the session of `request`. */
async function pageWith(browser: Browser, request: APIRequestContext): Promise<Page> {
  const context = await browser.newContext({ storageState: await request.storageState(), extraHTTPHeaders: { 'x-real-ip': freshClientIp() } });
  return context.newPage();
}

test.beforeAll(async ({ playwright }) => {
  test.setTimeout(240_000);
  database = await createPostgresDatabase(SERVER!, 'e2e_instances');
  const portA = await portFor(1);
  const portB = await portFor(2);
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'agency-instances-migrate-'));
  try {
    const migrate = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/migrate.ts'], { cwd: root, env: envFor(portA, scratch), encoding: 'utf8' });
    expect(migrate.status, migrate.stderr).toBe(0);
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
  [a, b] = await Promise.all([startInstance(portA), startInstance(portB)]);
  const anonymous = await playwright.request.newContext({ baseURL: a.base });
  owner = await newAdmin(anonymous, 'owner');
  await anonymous.dispose();
});

test.afterAll(async () => {
  await Promise.all([stopInstance(a), stopInstance(b)]);
  await database?.drop();
});

test('a FAQ added through A is on B’s cached landing page within a second', async ({ playwright }) => {
  const question = `Do you run on several servers ${Date.now().toString(36)}?`;
  // B's landing page is in its route cache (the second request is a hit).
  await fetch(`${b.base}/`);
  const cached = await fetch(`${b.base}/`);
  expect(cached.headers.get('x-astro-cache')).toBe('HIT');
  expect(await cached.text()).not.toContain(question);

  const admin = await signedIn(playwright, a.base, owner);
  try {
    const created = await callAction<{ id: string }>(admin, a.base, 'admin.faqs.create', { fields: { question, answer: '<p>Yes, all of them agree.</p>' } });
    expect(created.status, JSON.stringify(created.error)).toBe(200);
    const saved = Date.now();
    await expect.poll(async () => (await (await fetch(`${b.base}/`)).text()).includes(question), { timeout: 1000, intervals: [25] }).toBe(true);
    const seenAfter = Date.now() - saved;
    expect(seenAfter).toBeLessThan(1000);
    // And B caches the new page again.
    expect((await fetch(`${b.base}/`)).headers.get('x-astro-cache')).toBe('HIT');
    expect((await callAction(admin, a.base, 'admin.faqs.remove', { id: created.data!.id })).status).toBe(200);
  } finally {
    await admin.dispose();
  }
});

test('a chat visitor on A and the admin on B see each other live, take-over and unread count included', async ({ browser, playwright }) => {
  test.setTimeout(90_000);
  const adminRequest = await signedIn(playwright, b.base, owner);
  const inbox = await pageWith(browser, adminRequest);
  const visitorContext = await browser.newContext({ extraHTTPHeaders: { 'x-real-ip': freshClientIp() } });
  const visitor = await visitorContext.newPage();
  try {
    // The admin's inbox is open on B, live.
    await gotoHydrated(inbox, `${b.base}/admin/chat-settings`);
    await expect(inbox.locator('[data-feed="live"]')).toBeVisible();
    await expect(inbox.locator('[data-unread-total="0"]')).toBeVisible();

    // A visitor writes through A: B's inbox shows the conversation with its unread message at once.
    const question = `Can a person help me? ${Date.now().toString(36)}`;
    await gotoHydrated(visitor, `${a.base}/`);
    await visitor.getByRole('button', { name: /^Chat with / }).click();
    const panel = visitor.getByRole('dialog');
    await panel.getByLabel('Your message').fill(question);
    await panel.getByRole('button', { name: 'Send', exact: true }).click();
    // The database is this spec's own: the visitor's is the only conversation.
    const row = inbox.locator('[data-conversation-row]');
    await expect(row).toHaveCount(1, { timeout: 3000 });
    await expect(inbox.getByText(`New message from Visitor`)).toContainText(question);
    await expect(row.locator('[data-unread]')).toBeVisible();
    await expect(inbox.locator('[data-unread-total="0"]')).toHaveCount(0);
    const conversationId = await row.getAttribute('data-conversation-row');

    // The admin replies through B (taking the conversation over): the visitor's panel on A shows both live.
    const reply = `Yes, I am here on the other server. ${Date.now().toString(36)}`;
    const sent = await callAction(adminRequest, b.base, 'admin.chat.reply', { conversationId, body: reply });
    expect(sent.status, JSON.stringify(sent.error)).toBe(200);
    await expect(panel.locator('[data-chat-author="admin"]', { hasText: reply })).toBeVisible({ timeout: 3000 });
    await expect(panel.locator('[data-chat-joined]')).toHaveText(`A person has joined: ${owner.firstName}`, { timeout: 3000 });

    // The visitor answers on A; B's inbox shows it live.
    const answer = `Thank you! ${Date.now().toString(36)}`;
    await panel.getByLabel('Your message').fill(answer);
    await panel.getByRole('button', { name: 'Send', exact: true }).click();
    await expect(inbox.locator(`[data-conversation-row="${conversationId}"]`, { hasText: answer })).toBeVisible({ timeout: 3000 });
    await expect(inbox.locator('[data-feed="live"]')).toBeVisible();
  } finally {
    await visitorContext.close();
    await inbox.context().close();
    await adminRequest.dispose();
  }
});

for (const change of ['demoted', 'disabled'] as const) {
  test(`an admin ${change} through A loses the inbox stream B holds open for them`, async ({ browser, playwright }) => {
    test.setTimeout(90_000);
    const anonymous = await playwright.request.newContext({ baseURL: a.base });
    const helper = await newAdmin(anonymous, change);
    await anonymous.dispose();
    const helperRequest = await signedIn(playwright, b.base, helper);
    const page = await pageWith(browser, helperRequest);
    const ownerOnA = await signedIn(playwright, a.base, owner);
    try {
      await gotoHydrated(page, `${b.base}/admin/chat-settings`);
      await expect(page.locator('[data-feed="live"]')).toBeVisible();
      const helperId = String(((await (await helperRequest.get('/api/auth/get-session')).json()) as { user: { id: string } }).user.id);

      const result =
        change === 'demoted'
          ? await callAction(ownerOnA, a.base, 'admin.users.setRole', { userId: helperId, role: 'user' })
          : await callAction(ownerOnA, a.base, 'admin.users.disable', { userId: helperId });
      expect(result.status, JSON.stringify(result.error)).toBe(200);
      // B ended the stream with the grant (its lifetime is ten minutes); the reconnect is refused.
      await expect(page.locator('[data-feed="ended"]')).toBeVisible({ timeout: 5000 });
    } finally {
      await page.context().close();
      await helperRequest.dispose();
      await ownerOnA.dispose();
    }
  });
}
