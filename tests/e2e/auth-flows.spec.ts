/**
 * The accounts UI in a real browser against the real server and its mail outbox: navbar states, login
 * banner and redirect, change password, rate limits, reset and verification links, sign-up validation.
 * Every test acts from its own client IP (x-real-ip), so rate limits never leak between tests.
 *
 * Not covered here: the "recent sign-in" rule of change password (a session older than 10 minutes cannot
 * be produced in a browser test without changing the server clock); tests/integration/auth-password.test.ts
 * covers it, and the dialog shows the server's message for the SESSION_NOT_FRESH code (unit-tested).
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from './support/fixtures';
import { AUTH_MESSAGES } from '../../src/shared/auth-messages';
import {
  ADMIN_STATE,
  MEMBER_STATE,
  createVerifiedAccount,
  freshClientIp,
  gotoHydrated,
  islandsHydrated,
  logInViaUi,
  newAccount,
  resetLink,
  savedAccounts,
  signUpViaApi,
  verificationLink,
} from './support/accounts';
import { VIEWPORTS } from './support/public-pages';

const BANNER = 'Successfully logged in! You can now access all member features.';
const VISITOR_LINKS = ['Services', 'Packages', 'Free Audit', 'Articles', 'Demos', 'FAQ'];
const ADMIN_LINKS: [string, string][] = [
  ['Content', '/admin/content'],
  ['Users', '/admin/users'],
  ['Chat', '/admin/chat-settings'],
  ['SEO', '/admin/seo'],
  ['Landing Page', '/admin/landing-page-config'],
  ['Audit', '/admin/audit'],
];

test.beforeEach(async ({ context }) => {
  await context.setExtraHTTPHeaders({ 'x-real-ip': freshClientIp() });
});

async function expectNoAxeViolations(page: Page, label: string) {
  const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
  expect(violations.map((v) => `${label}: ${v.id} — ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

const navLinks = (page: Page) => page.locator('[data-nav-links] a');
const accountArea = (page: Page) => page.locator('[data-account-area]');

/** From 1024 px the site name is shown beside the links: whole, not cut with an ellipsis, in every state. */
async function expectSiteNameWhole(page: Page, role: 'user' | 'admin' | undefined, links: readonly string[]) {
  for (const width of [1024, 1280]) {
    await page.setViewportSize({ width, height: 800 });
    await page.goto('/');
    if (role) await expect(accountArea(page)).toHaveAttribute('data-state', role);
    await expect(navLinks(page)).toHaveText([...links]);
    const name = page.locator('[data-home-link] span');
    await expect(name).toBeVisible();
    // A text cut with an ellipsis is wider than its box.
    expect(await name.evaluate((el) => el.scrollWidth - el.clientWidth), `${role ?? "visitor"}: cut at ${width} px`).toBeLessThanOrEqual(0);
  }
}

test.describe('navbar account states', () => {
  test('visitor: the public links, "Log in" and "Book a call"', async ({ page }) => {
    await page.goto('/');
    await expect(navLinks(page)).toHaveText(VISITOR_LINKS);
    await expect(accountArea(page).getByRole('link', { name: 'Log in' })).toBeVisible();
    await expect(accountArea(page).getByRole('link', { name: /Book a call/ })).toBeVisible();
    await expect(page.locator('[data-account-name]')).toHaveCount(0);
  });

  test('visitor, member and admin: the site name is whole beside the links from 1024 px', async ({ browser, baseURL }) => {
    const states = [
      [undefined, undefined, VISITOR_LINKS],
      [MEMBER_STATE, 'user', VISITOR_LINKS],
      [ADMIN_STATE, 'admin', ADMIN_LINKS.map(([label]) => label)],
    ] as const;
    for (const [storageState, role, links] of states) {
      const context = await browser.newContext({ baseURL, storageState });
      await expectSiteNameWhole(await context.newPage(), role, links);
      await context.close();
    }
  });

  test.describe('member', () => {
    test.use({ storageState: MEMBER_STATE });
    test('name with (user), Dashboard, Logout; the public links stay', async ({ page }) => {
      const { member } = savedAccounts();
      await page.goto('/services');
      await expect(accountArea(page).getByRole('button', { name: `${member.firstName} ${member.lastName} (user)` })).toBeVisible();
      await expect(accountArea(page).getByRole('link', { name: 'Dashboard' })).toHaveAttribute('href', '/dashboard');
      await expect(accountArea(page).getByRole('button', { name: 'Logout' })).toBeVisible();
      await expect(accountArea(page).getByRole('link', { name: 'Log in' })).toHaveCount(0);
      await expect(navLinks(page)).toHaveText(VISITOR_LINKS);
      // Still the fixed 288×40 box (224 px below 1024 px): swapping the contents moves nothing.
      const box = await accountArea(page).boundingBox();
      expect(box).toMatchObject({ width: 288, height: 40 });
    });

  });

  // Its own account and session: signing out the shared member's saved session would sign it out for
  // every spec that runs after this one.
  test('Logout ends the session and returns to "/"', async ({ page, request, baseURL }) => {
    const account = await createVerifiedAccount(request, baseURL!, 'logout');
    await logInViaUi(page, account);
    await page.goto('/services');
    await accountArea(page).getByRole('button', { name: 'Logout', exact: true }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(accountArea(page).getByRole('link', { name: 'Log in' })).toBeVisible();
    expect(await (await page.request.get('/api/auth/get-session')).json()).toBeNull();
  });

  test.describe('admin', () => {
    test.use({ storageState: ADMIN_STATE });
    test('admin menu, name with (admin), no Dashboard', async ({ page }) => {
      const { admin } = savedAccounts();
      await page.goto('/');
      await expect(accountArea(page).getByRole('button', { name: `${admin.firstName} ${admin.lastName} (admin)` })).toBeVisible();
      await expect(navLinks(page)).toHaveText(ADMIN_LINKS.map(([label]) => label));
      for (const [label, href] of ADMIN_LINKS) await expect(page.locator('[data-nav-links]').getByRole('link', { name: label })).toHaveAttribute('href', href);
      await expect(accountArea(page).getByRole('link', { name: 'Dashboard' })).toHaveCount(0);
      await expect(accountArea(page).getByRole('button', { name: 'Logout' })).toBeVisible();
    });

    test('settings dialog shows name, email and role; Escape closes it and focus returns', async ({ page }) => {
      const { admin } = savedAccounts();
      await page.goto('/');
      const nameButton = accountArea(page).getByRole('button', { name: /\(admin\)$/ });
      await nameButton.click();
      const dialog = page.getByRole('dialog', { name: 'Account settings' });
      await expect(dialog).toBeVisible();
      await expect(dialog.locator('[data-field="name"]')).toHaveText(`${admin.firstName} ${admin.lastName}`);
      await expect(dialog.locator('[data-field="email"]')).toHaveText(admin.email);
      await expect(dialog.locator('[data-field="role"]')).toHaveText('admin');
      await expectNoAxeViolations(page, 'settings dialog');
      await page.keyboard.press('Escape');
      await expect(dialog).toHaveCount(0);
      await expect(nameButton).toBeFocused();
    });
  });
});

test('login returns to the saved page and shows the green banner for about 2 s', async ({ page }) => {
  const { member } = savedAccounts();
  await page.goto('/services');
  await page.locator('[data-account-area]').getByRole('link', { name: 'Log in' }).click();
  await expect(page).toHaveURL(/\/auth$/);
  expect(await page.evaluate(() => sessionStorage.getItem('redirectAfterLogin'))).toBe('/services');
  await islandsHydrated(page);

  const form = page.getByTestId('login-form');
  await form.getByLabel('Email').fill(member.email);
  await form.getByLabel('Password', { exact: true }).fill(member.password);
  await form.getByRole('button', { name: 'Log in' }).click();
  await expect(page).toHaveURL(/\/services$/);
  const banner = page.locator('[data-login-banner]');
  await expect(banner).toHaveText(BANNER);
  const shownAt = Date.now();
  await expect(banner).toHaveCount(0, { timeout: 4000 });
  expect(Date.now() - shownAt).toBeGreaterThan(1000);
  expect(await page.evaluate(() => sessionStorage.getItem('redirectAfterLogin'))).toBeNull();
  // The flag is consumed: a reload shows no banner.
  await page.reload();
  await expect(accountArea(page).getByRole('button', { name: /\(user\)$/ })).toBeVisible();
  await expect(banner).toHaveCount(0);
});

test('wrong password and unknown email get the same message; too many attempts say when to retry', async ({ page }) => {
  const { member } = savedAccounts();
  await gotoHydrated(page, '/auth');
  await expectNoAxeViolations(page, '/auth log in');
  const form = page.getByTestId('login-form');
  const attempt = async (email: string) => {
    await form.getByLabel('Email').fill(email);
    await form.getByLabel('Password', { exact: true }).fill('not-the-password');
    await form.getByRole('button', { name: 'Log in' }).click();
  };
  await attempt(member.email);
  await expect(form.getByRole('alert')).toHaveText(AUTH_MESSAGES.INVALID_EMAIL_OR_PASSWORD);
  await attempt('nobody-here@example.com');
  await expect(form.getByRole('alert')).toHaveText(AUTH_MESSAGES.INVALID_EMAIL_OR_PASSWORD);
  // Sign-in allows 5 per minute per client; keep going until the limit answers.
  for (let i = 0; i < 3; i++) await attempt(member.email);
  await attempt(member.email);
  await expect(form.getByRole('alert')).toHaveText(/^Too many attempts\. Please try again in \d+ (seconds?|minutes?)\.$/);
});

test('network failure shows the network message', async ({ page }) => {
  await gotoHydrated(page, '/auth');
  await page.route('**/api/auth/sign-in/email', (route) => route.abort('internetdisconnected'));
  const form = page.getByTestId('login-form');
  await form.getByLabel('Email').fill('someone@example.com');
  await form.getByLabel('Password', { exact: true }).fill('whatever1');
  await form.getByRole('button', { name: 'Log in' }).click();
  await expect(form.getByRole('alert')).toHaveText(AUTH_MESSAGES.NETWORK);
  await expect(page.locator('[data-offline-notice]')).toBeVisible();
});

test('change password: empty disables submit, mismatch, too short, success', async ({ page, request, baseURL }) => {
  // A member of its own: a password change ends the member's other sessions (the saved ones too).
  const account = await createVerifiedAccount(request, baseURL!, 'changer');
  await logInViaUi(page, account);
  await accountArea(page).getByRole('button', { name: /\(user\)$/ }).click();
  const dialog = page.getByRole('dialog', { name: 'Account settings' });
  const newPw = dialog.getByLabel('New password', { exact: true });
  const confirmPw = dialog.getByLabel('Confirm new password', { exact: true });
  const submit = dialog.getByRole('button', { name: 'Update password' });

  await expect(submit).toBeDisabled();
  await newPw.fill('abcdef');
  await expect(submit).toBeDisabled();
  await confirmPw.fill('abcdeg');
  await expect(submit).toBeEnabled();
  await submit.click();
  await expect(dialog.getByRole('alert')).toHaveText('Passwords do not match');

  await newPw.fill('abc');
  await confirmPw.fill('abc');
  await submit.click();
  await expect(dialog.getByRole('alert')).toHaveText('Password must be at least 6 characters long');

  // Show/hide toggles reveal the entry.
  await dialog.getByRole('button', { name: 'Show new password' }).click();
  await expect(newPw).toHaveAttribute('type', 'text');

  const fresh = 'a brand new password';
  await newPw.fill(fresh);
  await confirmPw.fill(fresh);
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  await page.route('**/api/auth/account/change-password', async (route) => {
    await held;
    await route.continue();
  });
  await submit.click();
  await expect(dialog.getByRole('button', { name: 'Updating...' })).toBeDisabled();
  release();
  await expect(dialog.getByRole('status')).toHaveText('Password updated successfully!');
  await expect(newPw).toHaveValue('');

  // This browser stays signed in; the new password works and the old one does not.
  await expect(accountArea(page).getByRole('button', { name: /\(user\)$/ })).toBeVisible();
  const signIn = (password: string) =>
    request.post('/api/auth/sign-in/email', { headers: { origin: baseURL!, 'x-real-ip': freshClientIp() }, data: { email: account.email, password } });
  expect((await signIn(account.password)).status()).toBe(401);
  expect((await signIn(fresh)).status()).toBe(200);
});

test('change password after a sign-in that is no longer recent shows the seed message', async ({ page, request, baseURL }) => {
  // The server side of the rule (a session older than 5 minutes is refused) is an integration test
  // (auth-password.test.ts): the e2e server's clock cannot be moved. Here the browser gets that exact answer.
  const account = await createVerifiedAccount(request, baseURL!, 'stale');
  await logInViaUi(page, account);
  await page.route('**/api/auth/account/change-password', (route) =>
    route.fulfill({ status: 403, contentType: 'application/json', body: JSON.stringify({ code: 'SESSION_NOT_FRESH', message: 'Session is not fresh' }) }),
  );
  await accountArea(page).getByRole('button', { name: /\(user\)$/ }).click();
  const dialog = page.getByRole('dialog', { name: 'Account settings' });
  await dialog.getByLabel('New password', { exact: true }).fill('another secret');
  await dialog.getByLabel('Confirm new password', { exact: true }).fill('another secret');
  await dialog.getByRole('button', { name: 'Update password' }).click();
  await expect(dialog.getByRole('alert')).toHaveText(AUTH_MESSAGES.SESSION_NOT_FRESH);
});

test('unverified login continues on /verify-email: "Email not verified yet", resend until rate-limited', async ({ page, request, baseURL }) => {
  const account = newAccount('pending');
  expect((await signUpViaApi(request, baseURL!, account)).status()).toBe(200);
  await gotoHydrated(page, '/auth');
  const form = page.getByTestId('login-form');
  await form.getByLabel('Email').fill(account.email);
  await form.getByLabel('Password', { exact: true }).fill(account.password);
  await form.getByRole('button', { name: 'Log in' }).click();
  // Seed: a logged-in user whose email is not verified is sent to /verify-email.
  await expect(page).toHaveURL(/\/verify-email$/);
  await expect(page.getByTestId('verify-pending')).toContainText(account.email);
  for (const [name, viewport] of Object.entries(VIEWPORTS)) {
    await page.setViewportSize(viewport);
    await expectNoAxeViolations(page, `verification step ${name}`);
  }

  await page.getByRole('button', { name: "I've verified" }).click();
  await expect(page.getByRole('alert')).toContainText('Email not verified yet');

  const first = await verificationLink(account.email);
  const resend = page.getByRole('button', { name: 'Resend email' });
  await resend.click();
  await expect(page.getByRole('status')).toHaveText(AUTH_MESSAGES.VERIFICATION_SENT);
  const second = await verificationLink(account.email, first);
  expect(second).not.toBe(first);
  // 3 per 5 minutes per client.
  await resend.click();
  await expect(page.getByRole('status')).toHaveText(AUTH_MESSAGES.VERIFICATION_SENT);
  await resend.click();
  await expect(page.getByRole('status')).toHaveText(AUTH_MESSAGES.VERIFICATION_SENT);
  await resend.click();
  await expect(page.getByRole('alert')).toHaveText(/^Too many attempts\. Please try again in \d+ (seconds?|minutes?)\.$/);

  // Verifying in another tab of this browser signs it in: "I've verified" then continues.
  const tab = await page.context().newPage();
  await tab.goto(second);
  await tab.close();
  await page.getByRole('button', { name: "I've verified" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
});

test('forged and used verification links show the clear message', async ({ page, request, baseURL }) => {
  // A failed link lands on /verify-email?error=…, whose guard sends a signed-out browser to /auth?error=….
  await page.goto('/api/auth/verify-email?token=forged.token.value&callbackURL=%2Fverify-email');
  await expect(page).toHaveURL(/\/auth\?error=INVALID_TOKEN$/);
  await expect(page.getByTestId('auth-link-error')).toContainText(AUTH_MESSAGES.INVALID_LINK);
  await expect(page.getByTestId('login-form')).toBeVisible();

  const account = newAccount('twice');
  expect((await signUpViaApi(request, baseURL!, account)).status()).toBe(200);
  const link = await verificationLink(account.email);
  expect((await request.get(link, { maxRedirects: 0, headers: { 'x-real-ip': freshClientIp() } })).status()).toBe(302);
  await page.goto(link);
  await expect(page.getByTestId('auth-link-error')).toContainText(AUTH_MESSAGES.INVALID_LINK);
});

test('forgot password → emailed link → new password; used and forged links are refused', async ({ page, request, baseURL }) => {
  const account = await createVerifiedAccount(request, baseURL!, 'forgetful');
  await gotoHydrated(page, '/auth');
  await page.getByRole('link', { name: 'Forgot password?' }).click();
  const forgot = page.getByTestId('forgot-form');
  await forgot.getByLabel('Email').fill(account.email);
  await forgot.getByRole('button', { name: 'Send reset link' }).click();
  await expect(forgot.getByRole('status')).toHaveText(AUTH_MESSAGES.RESET_SENT);
  // Same answer for an address without an account.
  await forgot.getByLabel('Email').fill('no-account-here@example.com');
  await forgot.getByRole('button', { name: 'Send reset link' }).click();
  await expect(forgot.getByRole('status')).toHaveText(AUTH_MESSAGES.RESET_SENT);

  const link = await resetLink(account.email);
  await gotoHydrated(page, link);
  await expect(page).toHaveURL(/\/auth\/reset-password\?token=/);
  for (const [name, viewport] of Object.entries(VIEWPORTS)) {
    await page.setViewportSize(viewport);
    await expectNoAxeViolations(page, `/auth/reset-password ${name}`);
  }
  const form = page.getByTestId('reset-form');
  await form.getByLabel('New password', { exact: true }).fill('reset-password-1');
  await form.getByLabel('Confirm new password', { exact: true }).fill('reset-password-2');
  await form.getByRole('button', { name: 'Set new password' }).click();
  await expect(form).toContainText('Passwords do not match');
  await form.getByLabel('Confirm new password', { exact: true }).fill('reset-password-1');
  await form.getByRole('button', { name: 'Set new password' }).click();
  await expect(page.getByTestId('reset-done')).toContainText(AUTH_MESSAGES.PASSWORD_RESET);

  await logInViaUi(page, { email: account.email, password: 'reset-password-1' });
  await expect(accountArea(page).getByRole('button', { name: /\(user\)$/ })).toBeVisible();

  // The same link again, and a forged one: the clear message with a way to ask for a new link.
  for (const url of [link, '/api/auth/reset-password/forged-token?callbackURL=%2Fauth%2Freset-password', '/auth/reset-password?token=forged-token-value']) {
    await gotoHydrated(page, url);
    if (url.includes('?token=forged')) {
      const f = page.getByTestId('reset-form');
      await f.getByLabel('New password', { exact: true }).fill('another-password');
      await f.getByLabel('Confirm new password', { exact: true }).fill('another-password');
      await f.getByRole('button', { name: 'Set new password' }).click();
    }
    await expect(page.getByTestId('reset-invalid')).toContainText(AUTH_MESSAGES.INVALID_LINK);
  }
  await expect(page.getByRole('link', { name: 'Request a new link' })).toHaveAttribute('href', '/auth?tab=forgot');
  await page.context().clearCookies();
  await page.getByRole('link', { name: 'Request a new link' }).click();
  await expect(page.getByTestId('forgot-form')).toBeVisible();
});

test('sign-up: continues signed in on /verify-email with the address; field errors for bad input and no account created', async ({ page, request, baseURL }) => {
  await gotoHydrated(page, '/auth?tab=signup');
  await expect(page.getByRole('tab', { name: 'Sign up' })).toHaveAttribute('aria-selected', 'true');
  const form = page.getByTestId('signup-form');
  const fill = async (values: Record<string, string>) => {
    for (const [label, value] of Object.entries(values)) await form.getByLabel(label, { exact: true }).fill(value);
    await form.getByRole('button', { name: 'Create account' }).click();
  };
  const email = newAccount('invalid').email;
  await fill({ 'First name': 'x'.repeat(10_000), 'Last name': 'Ok', Email: email, Password: 'long-enough' });
  await expect(form).toContainText('First name must be at most 50 characters');
  await expect(form.getByLabel('First name', { exact: true })).toHaveAttribute('aria-invalid', 'true');
  await expect(form.getByRole('alert')).toHaveText(AUTH_MESSAGES.INVALID_INPUT);

  await fill({ 'First name': 'Eve', 'Last name': 'Evil\u202Egnp.exe', Email: 'not-an-email', Password: 'long-enough', 'Website (optional)': 'not a site' });
  await expect(form).toContainText('Last name can only contain letters, spaces, apostrophes, hyphens and dots');
  await expect(form).toContainText('Please enter a valid email address');
  await expect(form).toContainText('Please enter a valid website address');
  for (const [name, viewport] of Object.entries(VIEWPORTS)) {
    await page.setViewportSize(viewport);
    await expectNoAxeViolations(page, `/auth sign-up errors ${name}`);
  }

  // No account exists for the rejected address: sign-in answers "invalid", not "not verified".
  const signIn = await request.post('/api/auth/sign-in/email', { headers: { origin: baseURL!, 'x-real-ip': freshClientIp() }, data: { email, password: 'long-enough' } });
  expect((await signIn.json()).code).not.toBe('EMAIL_NOT_VERIFIED');
  expect(signIn.status()).toBe(401);

  await fill({ 'First name': 'Sam', 'Last name': 'Signup', Email: email, Password: 'long-enough', 'Website (optional)': 'example.com' });
  await expect(page).toHaveURL(/\/verify-email$/);
  await expect(page.getByTestId('verify-pending')).toContainText(email);
  await verificationLink(email);
});

test('signing up with an email already in use says so and signs nobody in', async ({ page, request, baseURL }) => {
  const account = newAccount('in-use');
  expect((await signUpViaApi(request, baseURL!, account)).status()).toBe(200);
  await gotoHydrated(page, '/auth?tab=signup');
  const form = page.getByTestId('signup-form');
  await form.getByLabel('First name').fill('Someone');
  await form.getByLabel('Last name').fill('Else');
  await form.getByLabel('Email').fill(account.email);
  await form.getByLabel('Password', { exact: true }).fill('a-different-password');
  await form.getByRole('button', { name: 'Create account' }).click();
  await expect(form.getByRole('alert')).toHaveText(AUTH_MESSAGES.EMAIL_IN_USE);
  await expect(page).toHaveURL(/\/auth\?tab=signup$/);
  expect((await page.request.get('/api/auth/get-session')).status()).toBe(200);
  expect(await (await page.request.get('/api/auth/get-session')).json()).toBeNull();
});
