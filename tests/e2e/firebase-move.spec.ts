/**
 * A Firebase site moved in, as its people meet it (issue 11): `npm run import:firebase -- --apply` from
 * offline emulators into a fresh data folder, then the built server on that folder, in its own process.
 * - Links of the old site keep working (/service/{id}, /package/{id}, /article/{slug}).
 * - A member signs in through the login form with the password they had on Firebase; after the server
 *   stops, their stored hash is argon2id. A member disabled in Firebase is refused.
 * - The owner, an admin on Firebase, signs in and finds a member's imported page views in /admin.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from './support/fixtures';
import { SERVER_NODE_ARGS } from '../../scripts/server-process.mjs';
import { AUTH_MESSAGES } from '../../src/shared/auth-messages';
import { DEMO_PACKAGES, DEMO_SERVICES } from '../../src/server/seed/demo-catalog';
import { DEMO_ARTICLES } from '../../src/server/seed/demo-articles';
import { startFirebaseEmulators, writeServiceAccountKey, type FirebaseEmulators } from '../support/firebase-emulators';
import { seedFirebaseProject, type SeededMember, type SeededProject } from '../support/firebase-project';
import { runNode } from '../support/run-process';
import { gotoHydrated } from './support/accounts';
import { freePort } from './support/free-port';

const root = path.resolve(import.meta.dirname, '../..');
const OWNER_EMAIL = 'owner@autoflow.agency';
let emu: FirebaseEmulators;
let project: SeededProject;
let dataDir: string;
let port: number;
let server: ChildProcess | undefined;
let serverLog = '';

const site = () => `http://127.0.0.1:${port}`;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(240_000);
  emu = await startFirebaseEmulators();
  project = await seedFirebaseProject(emu, { users: 12 });
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agency-firebase-move-'));
  const keyFile = writeServiceAccountKey(dataDir, project.projectId);
  const hashFile = path.join(dataDir, 'hash.json');
  fs.writeFileSync(hashFile, JSON.stringify(project.hashConfigJson));
  port = await freePort();
  const env: NodeJS.ProcessEnv = { ...process.env, ...emu.env, DATA_DIR: path.join(dataDir, 'data'), PORT: String(port), HOST: '127.0.0.1', SITE_URL: site(), SEED_DEMO_CONTENT: 'false', LOG_LEVEL: 'warn' };
  delete env.DATABASE_URL;
  delete env.TRUSTED_PROXY_IP_HEADER;
  // Not spawnSync: the Firestore emulator runs in this process and must answer the command.
  const imported = await runNode(['--import', 'tsx', 'scripts/import-firebase.ts', '--service-account', keyFile, '--auth-hash-config', hashFile, '--apply'], { cwd: root, env });
  expect(imported.code, imported.stderr).toBe(0);
  expect(imported.stdout).toContain(`Imported ${project.counts.auth} members`);
  server = spawn(process.execPath, SERVER_NODE_ARGS, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  for (const stream of [server.stdout!, server.stderr!]) stream.on('data', (d: Buffer) => (serverLog += d.toString()));
  await expect.poll(async () => (await fetch(`${site()}/readyz`).catch(() => undefined))?.status, { timeout: 90_000 }).toBe(200);
});

async function stopServer() {
  if (!server || server.exitCode !== null) return;
  const exited = new Promise((resolve) => server!.once('exit', resolve));
  server.kill('SIGTERM');
  await exited;
}

test.afterAll(async () => {
  await stopServer();
  await emu?.stop();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

/** A verified, enabled member who signs in with a password, with page views to show. */
const member = (): SeededMember & { password: string } => {
  const m = project.users.find((u) => u.uid.startsWith('gen') && u.hasPassword && u.emailVerified && !u.disabled && u.pageViews.length > 0 && u.uid !== project.special.emailMismatchUid)!;
  return { ...m, password: project.passwords.get(m.uid)! };
};

async function logIn(page: import('@playwright/test').Page, email: string, password: string) {
  await gotoHydrated(page, `${site()}/auth`);
  const form = page.getByTestId('login-form');
  await form.getByLabel('Email').fill(email);
  await form.getByLabel('Password', { exact: true }).fill(password);
  await form.getByRole('button', { name: 'Log in' }).click();
  return form;
}

test('the old site\'s links keep working: services, packages and articles keep their ids and slugs', async ({ page }) => {
  for (const [url, heading] of [
    [`/service/${DEMO_SERVICES[0]!.id}`, DEMO_SERVICES[0]!.name],
    [`/package/${DEMO_PACKAGES[1]!.id}`, DEMO_PACKAGES[1]!.name],
    [`/article/${DEMO_ARTICLES[0]!.id}`, DEMO_ARTICLES[0]!.title],
  ] as const) {
    const res = await page.goto(`${site()}${url}`);
    expect(res?.status(), url).toBe(200);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(heading);
  }
});

test('a member signs in with their Firebase password; a wrong one and a disabled account are refused', async ({ page }) => {
  const m = member();
  const form = await logIn(page, m.authEmail, `${m.password}x`);
  await expect(form.getByRole('alert')).toHaveText(AUTH_MESSAGES.INVALID_EMAIL_OR_PASSWORD);

  await logIn(page, m.authEmail, m.password);
  await page.waitForURL((url) => url.pathname !== '/auth');
  const session = await (await page.request.get(`${site()}/api/auth/get-session`)).json();
  expect(session.user).toMatchObject({ id: m.uid, email: m.authEmail, firstName: m.profile!.firstName });

  const disabled = project.users.find((u) => u.uid === project.special.disabledUid)!;
  await page.context().clearCookies();
  const refused = await logIn(page, disabled.authEmail, project.passwords.get(disabled.uid)!);
  await expect(refused.getByRole('alert')).toHaveText(AUTH_MESSAGES.ACCOUNT_DISABLED);
});

test('the owner, an admin on Firebase, is an admin here and sees a member\'s imported page views', async ({ page }) => {
  const owner = project.users.find((u) => u.authEmail === OWNER_EMAIL)!;
  await logIn(page, OWNER_EMAIL, project.passwords.get(owner.uid)!);
  await page.waitForURL((url) => url.pathname !== '/auth');
  const m = member();
  await page.goto(`${site()}/admin/users/${encodeURIComponent(m.uid)}`);
  await expect(page.getByRole('heading', { level: 1 })).toContainText(String(m.profile!.firstName));
  const report = page.locator('[data-page-time-report]');
  const paths = [...new Set(m.pageViews.map((v) => String((v.data as { pagePath: string }).pagePath)))];
  for (const p of paths) await expect(report.locator(`[data-page-time-total="${p}"]`)).toHaveCount(1);
});

test('after the first sign-in the member\'s Firebase hash has been replaced with argon2id', async () => {
  await stopServer();
  const m = member();
  const script = `
    const { openDatabase } = await import('./src/server/db/client.ts');
    const h = await openDatabase({ kind: 'pglite', dataDir: process.argv[1] });
    const r = await h.db.execute("select user_id, password from accounts where provider_id = 'credential'");
    console.log(JSON.stringify(r.rows ?? r));
    await h.close();`;
  const out = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script, path.join(dataDir, 'data')], { cwd: root, encoding: 'utf8' });
  expect(out.status, out.stderr).toBe(0);
  const rows = JSON.parse(out.stdout) as { user_id: string; password: string }[];
  const byUser = new Map(rows.map((r) => [r.user_id, r.password]));
  expect(byUser.get(m.uid)).toMatch(/^\$argon2id\$/);
  // Members who have not signed in yet keep the Firebase hash until they do.
  const untouched = project.users.find((u) => u.hasPassword && u.uid !== m.uid && u.authEmail !== OWNER_EMAIL)!;
  expect(byUser.get(untouched.uid)).toMatch(/^\$firebase-scrypt\$/);
});
