/**
 * Accounts helpers for the e2e specs: the real mail outbox of the e2e server (E2E_DATA_DIR/outbox), sign-up
 * and verification through the API, login through the UI, and the credentials saved by accounts.setup.ts.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect, type APIRequestContext, type Page } from '@playwright/test';

/**
 * Each worker's saved sessions and credentials (support/fixtures.ts makes them against the worker's own
 * server): one folder per slot of the run (TEST_PARALLEL_INDEX, which a worker started again after a
 * failure keeps).
 */
export const AUTH_DIR = path.resolve(import.meta.dirname, '../.auth', `slot-${process.env.TEST_PARALLEL_INDEX ?? '0'}`);
export const ADMIN_STATE = path.join(AUTH_DIR, 'admin.json');
export const MEMBER_STATE = path.join(AUTH_DIR, 'member.json');
export const ACCOUNTS_FILE = path.join(AUTH_DIR, 'accounts.json');

export interface TestAccount {
  firstName: string;
  lastName: string;
  email: string;
  password: string;
}

export function savedAccounts(): { admin: TestAccount; member: TestAccount } {
  return JSON.parse(fs.readFileSync(ACCOUNTS_FILE, 'utf8'));
}

/**
 * The server trusts x-real-ip as the client address (start-server.mjs): each caller gets its own random
 * one, so the per-IP rate limits one spec provokes never block another (setup and specs run in separate
 * worker processes, so a counter would repeat).
 */
export function freshClientIp(): string {
  const octet = () => 1 + Math.floor(Math.random() * 254);
  return `10.${octet()}.${octet()}.${octet()}`;
}

const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 7)}`;

export function newAccount(prefix: string): TestAccount {
  return { firstName: 'Test', lastName: prefix.charAt(0).toUpperCase() + prefix.slice(1), email: `${prefix}-${unique()}@example.com`, password: `pw-${unique()}` };
}

/** The outbox of a server's data folder: the shared e2e server's unless a spec runs its own. */
function outboxDir(dataDir = process.env.E2E_DATA_DIR): string {
  if (!dataDir) throw new Error('E2E_DATA_DIR is not set (the worker server of support/fixtures.ts sets it)');
  return path.join(dataDir, 'outbox');
}

/** Quoted-printable soft breaks and escapes, as nodemailer writes long lines. */
function decodeQuotedPrintable(text: string): string {
  return text.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/** Every message to `email`, newest first (file names start with an ISO time stamp), decoded. */
export function mailsTo(email: string, dataDir?: string): string[] {
  const dir = outboxDir(dataDir);
  if (!fs.existsSync(dir)) return [];
  const files = fs.readdirSync(dir).filter((f) => f.endsWith('.eml')).sort().reverse();
  const needle = email.toLowerCase();
  return files
    .map((file) => fs.readFileSync(path.join(dir, file), 'utf8'))
    .filter((raw) => (/^To: (.*)$/im.exec(raw)?.[1]?.toLowerCase() ?? '').includes(needle))
    .map(decodeQuotedPrintable);
}

/** The newest message to `email`, decoded. */
export const newestMailTo = (email: string, dataDir?: string): string | undefined => mailsTo(email, dataDir)[0];

/** Waits for a message to `email` with a link containing `contains`, newer than `notBefore` (a link seen earlier). */
export async function linkFromOutbox(email: string, contains: string, notBefore?: string, dataDir?: string): Promise<string> {
  let found: string | undefined;
  await expect
    .poll(
      () => {
        const mail = newestMailTo(email, dataDir);
        found = mail?.match(/https?:\/\/[^\s"<>]+/g)?.find((l) => l.includes(contains) && l !== notBefore);
        return found;
      },
      { message: `a mail to ${email} with a link containing ${contains}`, timeout: 10_000 },
    )
    .toBeTruthy();
  return found!.replace(/&amp;/g, '&');
}

export const verificationLink = (email: string, notBefore?: string, dataDir?: string) =>
  linkFromOutbox(email, '/api/auth/verify-email?token=', notBefore, dataDir);
export const resetLink = (email: string, notBefore?: string) => linkFromOutbox(email, '/api/auth/reset-password/', notBefore);

/** Sign-up through the API, as a distinct client; the outbox then holds the verification link. */
export async function signUpViaApi(request: APIRequestContext, baseURL: string, account: TestAccount, extra: Record<string, unknown> = {}) {
  const res = await request.post('/api/auth/sign-up/email', {
    headers: { origin: baseURL, 'x-real-ip': freshClientIp() },
    data: { firstName: account.firstName, lastName: account.lastName, email: account.email, password: account.password, ...extra },
  });
  return res;
}

/** Sign-up and verification (the emailed link) through the API: a ready, verified member. */
export async function createVerifiedAccount(request: APIRequestContext, baseURL: string, prefix: string): Promise<TestAccount> {
  const account = newAccount(prefix);
  expect((await signUpViaApi(request, baseURL, account)).status()).toBe(200);
  const link = await verificationLink(account.email);
  const res = await request.get(link, { maxRedirects: 0, headers: { 'x-real-ip': freshClientIp() } });
  expect(res.status()).toBe(302);
  return account;
}

/**
 * Opens a page and waits until its React islands are hydrated (Astro drops the `ssr` attribute then):
 * text typed into the server-rendered form before that would be replaced by the island's state.
 */
export async function gotoHydrated(page: Page, url: string) {
  await page.goto(url);
  await islandsHydrated(page);
}

/**
 * Waits until the page's React islands are hydrated: after a navigation the page made itself (a save that
 * opens the new record, a delete that returns to the list), before a click that only the island handles.
 * A cold page on a two-core machine that also runs a website check's Lighthouse can take longer than
 * `expect`'s 5 s to load its modules and hydrate.
 */
export async function islandsHydrated(page: Page) {
  await expect(page.locator('astro-island[ssr]')).toHaveCount(0, { timeout: 15_000 });
}

/** Logs in through the /auth form; resolves after the redirect away from /auth. */
export async function logInViaUi(page: Page, account: Pick<TestAccount, 'email' | 'password'>) {
  await gotoHydrated(page, '/auth');
  const form = page.getByTestId('login-form');
  await form.getByLabel('Email').fill(account.email);
  await form.getByLabel('Password', { exact: true }).fill(account.password);
  await form.getByRole('button', { name: 'Log in' }).click();
  await page.waitForURL((url) => url.pathname !== '/auth');
}

/** The session as the server sees it (the page's cookies). */
export async function sessionUser(page: Page): Promise<Record<string, unknown> | undefined> {
  const res = await page.request.get('/api/auth/get-session');
  const body = (await res.json()) as { user?: Record<string, unknown> } | null;
  return body?.user;
}
