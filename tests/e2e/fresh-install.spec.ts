/**
 * A newcomer's own install, on its own server: `PORT=<n> npm start` with SITE_URL unset.
 * - Sign-up and log-in work from http://localhost:<n> and http://127.0.0.1:<n> (the review found every one
 *   refused as "not from this site" on any port but 4321, and on 127.0.0.1 even there).
 * - While no admin exists, the server log carries a one-time admin claim link. A stranger who signs up and
 *   verifies first does not become admin; the owner who opens the link does, once.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Browser } from './support/fixtures';
import { SERVER_NODE_ARGS } from '../../scripts/server-process.mjs';
import { verificationLink } from './support/accounts';
import { freePort } from './support/free-port';

const root = path.resolve(import.meta.dirname, '../..');
const PASSWORD = 'fresh-install-secret';
let port: number;
let dataDir: string;
let server: ChildProcess;
let log = '';

const site = () => `http://localhost:${port}`;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(180_000);
  port = await freePort();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agency-fresh-install-'));
  // What a newcomer runs: no SITE_URL, no HOST, only PORT.
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, PORT: String(port), SEED_DEMO_CONTENT: 'false', LOG_LEVEL: 'info' };
  delete env.SITE_URL;
  delete env.HOST;
  delete env.DATABASE_URL;
  delete env.TRUSTED_PROXY_IP_HEADER;
  const migrate = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/migrate.ts'], { cwd: root, env, encoding: 'utf8' });
  expect(migrate.status, migrate.stderr).toBe(0);
  server = spawn(process.execPath, SERVER_NODE_ARGS, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  for (const stream of [server.stdout!, server.stderr!]) stream.on('data', (d: Buffer) => (log += d.toString()));
  await expect.poll(async () => (await fetch(`${site()}/readyz`).catch(() => undefined))?.status, { timeout: 90_000 }).toBe(200);
});

test.afterAll(async () => {
  server?.kill('SIGTERM');
  await new Promise((resolve) => server?.once('exit', resolve));
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const signUp = (origin: string, email: string, firstName: string) =>
  fetch(`${site()}/api/auth/sign-up/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin },
    body: JSON.stringify({ firstName, lastName: 'Newcomer', email, password: PASSWORD }),
  });

test('without SITE_URL, both localhost and 127.0.0.1 on the chosen port may sign up and log in; another site may not', async () => {
  expect((await signUp(`http://127.0.0.1:${port}`, 'stranger@example.com', 'Stranger')).status).toBe(200);
  expect((await signUp(`http://localhost:${port}`, 'owner@example.com', 'Owner')).status).toBe(200);
  for (const origin of [`http://127.0.0.1:${port}`, `http://localhost:${port}`]) {
    const res = await fetch(`${site()}/api/auth/sign-in/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin },
      body: JSON.stringify({ email: 'owner@example.com', password: PASSWORD }),
    });
    expect(res.status, origin).toBe(200);
  }

  const foreign = await signUp('http://evil.example', 'evil@example.com', 'Evil');
  expect(foreign.status).toBe(403);
  expect(await foreign.json()).toMatchObject({ message: 'This request was blocked because it did not come from this site.' });
  // The operator reads which setting would accept that origin.
  await expect.poll(() => log).toContain('set SITE_URL=http://evil.example');
});

/** A browser signed in as `email` (log-in through the API shares the context's cookies). */
async function signedIn(browser: Browser, email: string) {
  const context = await browser.newContext({ baseURL: site() });
  const res = await context.request.post('/api/auth/sign-in/email', { headers: { origin: site() }, data: { email, password: PASSWORD } });
  expect(res.status()).toBe(200);
  return context;
}

test('the one-time admin claim link from the log makes the owner admin; the stranger who verified first is not', async ({ browser }) => {
  const claim = /(http:\/\/localhost:\d+\/claim-admin\?token=[A-Za-z0-9_-]{43})/.exec(log)?.[1];
  expect(claim, 'the start-up log prints the claim link while no admin exists').toBeTruthy();

  // The stranger verifies first; with two accounts on the site, nobody becomes admin automatically.
  const strangerLink = await verificationLink('stranger@example.com', undefined, dataDir);
  expect((await fetch(strangerLink.replace(/^http:\/\/[^/]+/, site()), { redirect: 'manual' })).status).toBe(302);
  await fetch(await verificationLink('owner@example.com', undefined, dataDir), { redirect: 'manual' });

  const stranger = await signedIn(browser, 'stranger@example.com');
  const strangerPage = await stranger.newPage();
  await strangerPage.goto('/');
  // The seed's manual promote of oneself while no admin exists is closed.
  const me = ((await (await stranger.request.get('/api/auth/get-session')).json()) as { user: { id: string; role: string } }).user;
  expect(me.role).toBe('user');
  const promote = await stranger.request.post('/_actions/users.promote', { headers: { origin: site() }, data: { userId: me.id } });
  expect(promote.status()).toBe(403);

  const owner = await signedIn(browser, 'owner@example.com');
  const page = await owner.newPage();
  await page.goto(claim!);
  await expect(page.getByTestId('claim-valid')).toContainText('owner@example.com');
  await page.getByRole('button', { name: 'Make me the admin' }).click();
  await expect(page.getByTestId('claim-claimed')).toContainText('You are now the admin of this site.');
  expect(((await (await owner.request.get('/api/auth/get-session')).json()) as { user: { role: string } }).user.role).toBe('admin');

  // Once: the link is dead for everyone now.
  await strangerPage.goto(claim!);
  await expect(strangerPage.getByTestId('claim-admin-exists')).toBeVisible();
  const reuse = await stranger.request.post('/claim-admin', { headers: { origin: site() }, form: { intent: 'claim', token: new URL(claim!).searchParams.get('token')! } });
  expect(reuse.status()).toBe(409);
  expect(((await (await stranger.request.get('/api/auth/get-session')).json()) as { user: { role: string } }).user.role).toBe('user');
  await stranger.close();
  await owner.close();
});
