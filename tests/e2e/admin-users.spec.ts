/**
 * The users screens from the admin's side, in Chromium: the list searched and filtered through the URL and
 * the form, its CSV export, a person's page; the last admin cannot remove their own role; disabling signs a
 * member out at once (their open browser included) and refuses their next sign-in until the account is
 * enabled again; the verification email sent again works; a member is made admin and back. Destructive
 * steps use throwaway accounts made here; the shared admin is only asked to demote itself, which is refused.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type Browser, type Page, type PlaywrightWorkerArgs } from './support/fixtures';
import { AUTH_MESSAGES } from '../../src/shared/auth-messages';
import { callAction } from './support/admin-actions';
import { ADMIN_STATE, createVerifiedAccount, freshClientIp, gotoHydrated, logInViaUi, newAccount, savedAccounts, sessionUser, signUpViaApi, verificationLink, type TestAccount, islandsHydrated } from './support/accounts';

test.use({ storageState: ADMIN_STATE });

type Playwright = PlaywrightWorkerArgs['playwright'];

/** A throwaway account, made from a context of its own (the admin's cookies stay the admin's). */
async function throwaway(playwright: Playwright, baseURL: string, prefix: string, verified: boolean): Promise<TestAccount> {
  const anonymous = await playwright.request.newContext({ baseURL });
  try {
    if (verified) return await createVerifiedAccount(anonymous, baseURL, prefix);
    const account = newAccount(prefix);
    expect((await signUpViaApi(anonymous, baseURL, account, { signupSource: '/services' })).status()).toBe(200);
    return account;
  } finally {
    await anonymous.dispose();
  }
}

/** Mails to `email` in the server's outbox. */
function mailCount(email: string): number {
  const dir = path.join(process.env.E2E_DATA_DIR!, 'outbox');
  if (!fs.existsSync(dir)) return 0;
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.eml'))
    .filter((f) => new RegExp(`^To: .*${email.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`, 'im').test(fs.readFileSync(path.join(dir, f), 'utf8'))).length;
}

/** The person's page, opened from the list as the admin would. */
async function openPersonPage(page: Page, account: TestAccount) {
  await page.goto(`/admin/users?q=${encodeURIComponent(account.email)}`);
  await page.locator('tr[data-user-row]').getByRole('link', { name: `${account.firstName} ${account.lastName}` }).click();
  await expect(page).toHaveURL(/\/admin\/users\/[^/?]+$/);
  await islandsHydrated(page);
}

async function confirmDialog(page: Page, button: string) {
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: button }).click();
  await expect(dialog).toBeHidden();
}

test('the list: search and filters in the URL and the form, the CSV of the filter, a person’s page', async ({ page, playwright, baseURL }) => {
  // Letters only: the tag is also the throwaway's last name, and names hold no digits.
  const tag = `ulist${Array.from({ length: 8 }, () => String.fromCharCode(97 + Math.floor(Math.random() * 26))).join('')}`;
  const verified = await throwaway(playwright, baseURL!, `${tag}ver`, true);
  const pending = await throwaway(playwright, baseURL!, `${tag}pen`, false);

  // The form (a GET form: without script it has an Apply button) puts the search in the URL: the search on
  // Enter, a filter as soon as it is picked, no Apply button, only what is set in the address.
  await page.goto('/admin/users');
  await expect(page.getByRole('heading', { level: 1, name: 'Users' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Apply' })).toBeHidden();
  await page.getByRole('searchbox', { name: 'Search' }).fill(tag.toUpperCase());
  await page.getByRole('searchbox', { name: 'Search' }).press('Enter');
  await expect(page).toHaveURL(new RegExp(`/admin/users\\?q=${tag.toUpperCase()}$`));
  const rows = page.locator('tr[data-user-row]');
  await expect(rows).toHaveCount(2);
  await page.getByLabel('Email', { exact: true }).selectOption('unverified');
  await expect(page).toHaveURL(new RegExp(`/admin/users\\?q=${tag.toUpperCase()}&verified=unverified$`));
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText(pending.email);
  await expect(rows.first()).toContainText('Not verified');

  // The same views as links.
  await page.goto(`/admin/users?q=${tag}&verified=verified&role=user&status=active&sort=email`);
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText(verified.email);
  await page.goto(`/admin/users?q=${tag}&role=admin`);
  await expect(page.getByText('No users match this search.')).toBeVisible();
  await page.locator('[data-empty-state]').getByRole('link', { name: 'Clear filters' }).click();
  await expect(page).toHaveURL(/\/admin\/users$/);

  // The CSV of the filter: every matching row, a download, never cached, formula-safe by construction.
  await page.goto(`/admin/users?q=${tag}&sort=email`);
  const exportHref = await page.locator('[data-users-export]').getAttribute('href');
  expect(exportHref).toBe(`/api/admin/users/export?q=${tag}&sort=email`);
  const csvResponse = await page.request.get(exportHref!);
  expect(csvResponse.status()).toBe(200);
  expect(csvResponse.headers()['content-disposition']).toMatch(/^attachment; filename="users-\d{4}-\d{2}-\d{2}\.csv"$/);
  expect(csvResponse.headers()['cache-control']).toBe('private, no-store');
  expect(csvResponse.headers()['content-type']).toBe('text/csv; charset=utf-8');
  const bytes = await csvResponse.body();
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const lines = bytes.toString('utf8').slice(1).trimEnd().split('\r\n');
  expect(lines[0]).toBe('Name,Email,Role,Verified,Disabled,Disable reason,Signed up (UTC),Signup source,Phone,Website,Id');
  expect(lines.slice(1).map((l) => l.split(',')[1])).toEqual([pending.email, verified.email]);
  expect(lines[1]).toContain(',user,no,no,');
  expect(lines[1]).toContain(',/services,');
  // The button downloads that file.
  const [download] = await Promise.all([page.waitForEvent('download'), page.locator('[data-users-export]').click()]);
  expect(download.suggestedFilename()).toMatch(/^users-\d{4}-\d{2}-\d{2}\.csv$/);
  expect(fs.readFileSync((await download.path())!, 'utf8')).toContain(verified.email);

  // A person's page, from the list.
  await openPersonPage(page, pending);
  await expect(page.getByRole('heading', { level: 1, name: `${pending.firstName} ${pending.lastName}` })).toBeVisible();
  await expect(page.locator('[data-user-profile]')).toContainText(pending.email);
  await expect(page.locator('[data-fact="signup-source"]')).toHaveText('/services');
  await expect(page.getByTestId('user-verified')).toHaveText('Not verified');
  await expect(page.getByTestId('user-role')).toHaveText('Member');
  await expect(page.getByRole('heading', { name: 'Audit requests (0)' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Chat conversations (0)' })).toBeVisible();
  expect((await page.request.get('/admin/users/no-such-account-7f3a')).status()).toBe(404);
});

test('the only admin cannot remove their own admin role', async ({ page }) => {
  const { admin } = savedAccounts();
  await page.goto('/admin/users?role=admin');
  // The accounts fixture makes one admin and no spec promotes anyone on this server.
  await expect(page.locator('[data-users-count]'), 'the fixture admin is the only admin').toHaveAttribute('data-users-count', '1');
  await openPersonPage(page, admin);
  await expect(page.getByText('This is your own account: another admin can disable it, you cannot.')).toBeVisible();
  await page.getByRole('button', { name: 'Remove admin role' }).click();
  await confirmDialog(page, 'Remove admin role');
  await expect(page.getByTestId('user-action-problem')).toHaveText('The last admin cannot be removed: promote another admin first');
  await expect(page.getByTestId('user-role')).toHaveText('Admin');
  await page.reload();
  await expect(page.getByTestId('user-role')).toHaveText('Admin');
  expect(await sessionUser(page)).toMatchObject({ email: admin.email, role: 'admin' });
});

test('a verified member is made admin and back to member, each change in the activity log', async ({ page, playwright, baseURL }) => {
  const account = await throwaway(playwright, baseURL!, 'urole', true);
  await openPersonPage(page, account);
  const userId = page.url().split('/').pop()!;
  try {
    await page.getByRole('button', { name: 'Make admin' }).click();
    await confirmDialog(page, 'Make admin');
    await expect(page.getByTestId('user-role')).toHaveText('Admin');
    await page.reload();
    await expect(page.getByTestId('user-role')).toHaveText('Admin');
    // Two admins now: removing this one's role is allowed.
    await page.getByRole('button', { name: 'Remove admin role' }).click();
    await confirmDialog(page, 'Remove admin role');
    await expect(page.getByTestId('user-role')).toHaveText('Member');
    await page.reload();
    await expect(page.getByTestId('user-role')).toHaveText('Member');
  } finally {
    // Whatever happened above, the server is left with its one admin for the next spec.
    await callAction(page.request, baseURL!, 'admin.users.setRole', { userId, role: 'user' });
  }
  await page.goto(`/admin/activity?q=${encodeURIComponent(account.email)}`);
  await expect(page.locator('[data-summary]', { hasText: `${account.firstName} ${account.lastName} (${account.email}): member → admin` })).toBeVisible();
  await expect(page.locator('[data-summary]', { hasText: `${account.firstName} ${account.lastName} (${account.email}): admin → member` })).toBeVisible();
});

async function memberBrowser(browser: Browser, account: TestAccount) {
  const context = await browser.newContext({ storageState: { cookies: [], origins: [] }, extraHTTPHeaders: { 'x-real-ip': freshClientIp() } });
  const page = await context.newPage();
  await logInViaUi(page, account);
  return page;
}

test('disabling signs the member out at once and refuses their sign-in until enabled again', async ({ page, browser, playwright, baseURL }) => {
  const account = await throwaway(playwright, baseURL!, 'udisable', true);
  const member = await memberBrowser(browser, account);
  await member.goto('/dashboard');
  await expect(member).toHaveURL(/\/dashboard$/);

  await openPersonPage(page, account);
  await expect(page.getByTestId('user-session').first()).toContainText('Network 10.');
  await page.getByLabel('Reason for disabling (optional)').fill('Testing <b>disable</b>');
  await page.getByRole('button', { name: 'Disable account…' }).click();
  await confirmDialog(page, 'Disable account');
  await expect(page.getByTestId('user-status')).toHaveText('Disabled');
  await expect(page.getByTestId('user-disable-reason')).toHaveText('Testing <b>disable</b>');
  await expect(page.getByTestId('user-no-sessions')).toBeVisible();

  // The member's very next request is signed out, and signing in again is refused with the reason.
  await member.goto('/dashboard');
  await expect(member).toHaveURL(/\/auth/);
  expect(await sessionUser(member)).toBeUndefined();
  await gotoHydrated(member, '/auth');
  const form = member.getByTestId('login-form');
  await form.getByLabel('Email').fill(account.email);
  await form.getByLabel('Password', { exact: true }).fill(account.password);
  await form.getByRole('button', { name: 'Log in' }).click();
  await expect(member.getByText(AUTH_MESSAGES.ACCOUNT_DISABLED)).toBeVisible();
  expect(await sessionUser(member)).toBeUndefined();

  // Enabled again: the same sign-in works, and the page says so after a reload.
  await page.getByRole('button', { name: 'Enable account' }).click();
  await expect(page.getByTestId('user-status')).toHaveText('Active');
  await page.reload();
  await expect(page.getByTestId('user-status')).toHaveText('Active');
  await logInViaUi(member, account);
  expect(await sessionUser(member)).toMatchObject({ email: account.email });
  // Both writes are in the activity log.
  await page.goto(`/admin/activity?q=${encodeURIComponent(account.email)}`);
  await expect(page.locator('[data-summary]', { hasText: /account disabled \(Testing <b>disable<\/b>\), \d+ sessions? ended/ })).toBeVisible();
  await expect(page.locator('[data-summary]', { hasText: `${account.firstName} ${account.lastName} (${account.email}): account enabled` })).toBeVisible();
  await member.context().close();
});

test('the verification email sent again verifies the account', async ({ page, playwright, baseURL }) => {
  const account = await throwaway(playwright, baseURL!, 'uresend', false);
  const firstLink = await verificationLink(account.email); // the sign-up's own mail
  const before = mailCount(account.email);

  await openPersonPage(page, account);
  await page.getByRole('button', { name: 'Send verification email again' }).click();
  await expect(page.getByText(`Verification email sent to ${account.email}.`)).toBeVisible();
  await expect.poll(() => mailCount(account.email)).toBe(before + 1);
  const link = await verificationLink(account.email, firstLink);

  const visitor = await playwright.request.newContext({ baseURL });
  expect((await visitor.get(link, { maxRedirects: 0, headers: { 'x-real-ip': freshClientIp() } })).status()).toBe(302);
  await visitor.dispose();
  await page.reload();
  await expect(page.getByTestId('user-verified')).toHaveText('Verified');
  await expect(page.getByRole('button', { name: 'Send verification email again' })).toHaveCount(0);
});
