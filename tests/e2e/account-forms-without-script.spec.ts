/**
 * The account forms with JavaScript disabled in Chromium (a slow phone before the island loads, a blocked
 * script): every form posts to the server, works, and no email or password ever appears in a URL (the
 * address bar, history, a proxy's log).
 */
import { expect, test, type Page, type Request } from './support/fixtures';
import { AUTH_MESSAGES } from '../../src/shared/auth-messages';
import { createVerifiedAccount, freshClientIp, newAccount, resetLink, sessionUser } from './support/accounts';

test.use({ javaScriptEnabled: false });

test.beforeEach(async ({ context }) => {
  await context.setExtraHTTPHeaders({ 'x-real-ip': freshClientIp() });
});

/** Every URL the page asks for, to prove no credential ever travels in one. */
function recordUrls(page: Page): string[] {
  const urls: string[] = [];
  page.on('request', (r: Request) => urls.push(r.url()));
  return urls;
}

function expectNoCredentialsIn(urls: string[], ...secrets: string[]) {
  for (const url of urls) {
    const decoded = decodeURIComponent(url);
    for (const secret of secrets) expect(decoded, url).not.toContain(secret);
    expect(url).not.toMatch(/[?&](password|newPassword|email)=/);
  }
}

test('sign up, then log in, without script: both post, land where the island would send them, no credentials in any URL', async ({ page }) => {
  const account = newAccount('noscript');
  const urls = recordUrls(page);

  await page.goto('/auth');
  await page.getByRole('tab', { name: 'Sign up' }).click(); // a link without script
  await expect(page).toHaveURL(/\/auth\?tab=signup$/);
  const signup = page.getByTestId('signup-form');
  await signup.getByLabel('First name').fill(account.firstName);
  await signup.getByLabel('Last name').fill(account.lastName);
  await signup.getByLabel('Email').fill(account.email);
  await signup.getByLabel('Password', { exact: true }).fill(account.password);
  const posted = page.waitForRequest((r) => r.method() === 'POST' && new URL(r.url()).pathname === '/auth');
  await signup.getByRole('button', { name: 'Create account' }).click();
  expect((await posted).postData()).toContain('intent=signup');
  await expect(page).toHaveURL(/\/verify-email$/);
  await expect(page.getByTestId('verify-pending')).toContainText(account.email);
  expect((await sessionUser(page))?.email).toBe(account.email);

  // Log out (clear the cookie) and log back in without script.
  await page.context().clearCookies();
  await page.goto('/auth');
  const login = page.getByTestId('login-form');
  await login.getByLabel('Email').fill(account.email);
  await login.getByLabel('Password', { exact: true }).fill(account.password);
  await login.getByRole('button', { name: 'Log in' }).click();
  // Not verified yet: the seed sends this member to /verify-email.
  await expect(page).toHaveURL(/\/verify-email$/);

  expectNoCredentialsIn(urls, account.password, account.email);
});

test('a verified member logs in without script and lands on the home page, signed in', async ({ page, request, baseURL }) => {
  const account = await createVerifiedAccount(request, baseURL!, 'noscript-login');
  const urls = recordUrls(page);
  await page.goto('/auth');
  const login = page.getByTestId('login-form');
  await login.getByLabel('Email').fill(account.email);
  await login.getByLabel('Password', { exact: true }).fill(account.password);
  await login.getByRole('button', { name: 'Log in' }).click();
  await expect(page).toHaveURL(/\/$/);
  expect((await sessionUser(page))?.email).toBe(account.email);
  expectNoCredentialsIn(urls, account.password, account.email);
});

test('wrong password and bad sign-up input without script: the form comes back with our messages, the email kept, the password not', async ({ page }) => {
  const account = newAccount('noscript-bad');
  await page.goto('/auth');
  const login = page.getByTestId('login-form');
  await login.getByLabel('Email').fill(account.email);
  await login.getByLabel('Password', { exact: true }).fill('not-the-password');
  const answer = page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/auth');
  await login.getByRole('button', { name: 'Log in' }).click();
  expect((await answer).status()).toBe(401);
  await expect(page.getByTestId('login-form').getByRole('alert')).toHaveText(AUTH_MESSAGES.INVALID_EMAIL_OR_PASSWORD);
  await expect(page.getByTestId('login-form').getByLabel('Email')).toHaveValue(account.email);
  await expect(page.getByTestId('login-form').getByLabel('Password', { exact: true })).toHaveValue('');

  await page.goto('/auth?tab=signup');
  const signup = page.getByTestId('signup-form');
  await signup.getByLabel('First name').fill('Visit evil.example/win');
  await signup.getByLabel('Last name').fill(account.lastName);
  await signup.getByLabel('Email').fill(account.email);
  await signup.getByLabel('Password', { exact: true }).fill(account.password);
  await signup.getByRole('button', { name: 'Create account' }).click();
  const again = page.getByTestId('signup-form');
  await expect(again).toContainText('First name can only contain letters, spaces, apostrophes, hyphens and dots');
  await expect(again.getByLabel('Email')).toHaveValue(account.email);
  await expect(again.getByLabel('Password', { exact: true })).toHaveValue('');
});

test('forgot password, the emailed link and a new password, all without script', async ({ page, request, baseURL }) => {
  const account = await createVerifiedAccount(request, baseURL!, 'noscript-reset');
  const urls = recordUrls(page);
  await page.goto('/auth');
  await page.getByRole('link', { name: 'Forgot password?' }).click();
  await expect(page).toHaveURL(/\/auth\?tab=forgot$/);
  const forgot = page.getByTestId('forgot-form');
  await forgot.getByLabel('Email').fill(account.email);
  await forgot.getByRole('button', { name: 'Send reset link' }).click();
  await expect(page.getByTestId('forgot-form').getByRole('status')).toHaveText(AUTH_MESSAGES.RESET_SENT);

  await page.goto(await resetLink(account.email));
  await expect(page).toHaveURL(/\/auth\/reset-password\?token=/);
  const reset = page.getByTestId('reset-form');
  await reset.getByLabel('New password', { exact: true }).fill('brand-new-secret');
  await reset.getByLabel('Confirm new password', { exact: true }).fill('something-else');
  await reset.getByRole('button', { name: 'Set new password' }).click();
  await expect(page.getByTestId('reset-form')).toContainText(AUTH_MESSAGES.PASSWORDS_DO_NOT_MATCH);

  await page.getByTestId('reset-form').getByLabel('New password', { exact: true }).fill('brand-new-secret');
  await page.getByTestId('reset-form').getByLabel('Confirm new password', { exact: true }).fill('brand-new-secret');
  await page.getByTestId('reset-form').getByRole('button', { name: 'Set new password' }).click();
  await expect(page.getByTestId('reset-done')).toContainText(AUTH_MESSAGES.PASSWORD_RESET);

  const signIn = await request.post('/api/auth/sign-in/email', {
    headers: { origin: baseURL!, 'x-real-ip': freshClientIp() },
    data: { email: account.email, password: 'brand-new-secret' },
  });
  expect(signIn.status()).toBe(200);
  expectNoCredentialsIn(urls, 'brand-new-secret', account.email);
});

test('change password without script on /auth/change-password (the settings dialog posts there too)', async ({ page, request, baseURL }) => {
  const account = await createVerifiedAccount(request, baseURL!, 'noscript-change');
  await page.goto('/auth');
  const login = page.getByTestId('login-form');
  await login.getByLabel('Email').fill(account.email);
  await login.getByLabel('Password', { exact: true }).fill(account.password);
  await login.getByRole('button', { name: 'Log in' }).click();
  await expect(page).toHaveURL(/\/$/);

  const urls = recordUrls(page);
  await page.goto('/auth/change-password');
  await page.getByLabel('New password', { exact: true }).fill('changed-secret');
  await page.getByLabel('Confirm new password', { exact: true }).fill('changed-secret');
  await page.getByRole('button', { name: 'Update password' }).click();
  await expect(page.getByRole('status')).toHaveText(AUTH_MESSAGES.PASSWORD_UPDATED);
  // The renewed session cookie came with the answer: still signed in.
  expect((await sessionUser(page))?.email).toBe(account.email);
  expectNoCredentialsIn(urls, 'changed-secret');

  // A visitor is sent to log in first.
  await page.context().clearCookies();
  await page.goto('/auth/change-password');
  await expect(page).toHaveURL(/\/auth$/);
});
