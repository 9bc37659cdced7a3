/**
 * The first account of a new site, through the /auth form as its owner does it (the seed's rule): signed up,
 * sent to /verify-email, verified by the emailed link, which signs them in and says they are the site's
 * admin; a second account verified after it stays a member. On a server of its own, since every worker's
 * shared server already has its accounts (support/fixtures.ts).
 */
import { expect, test } from './support/fixtures';
import { freshClientIp, gotoHydrated, newAccount, sessionUser, verificationLink, type TestAccount } from './support/accounts';
import { ownPort, startOwnServer, type OwnServer } from './support/own-server';

let server: OwnServer;
test.beforeAll(async () => {
  test.setTimeout(120_000);
  server = await startOwnServer(await ownPort(60), { TRUSTED_PROXY_IP_HEADER: 'x-real-ip' });
});
test.afterAll(async () => server?.stop());

async function signUpAndVerify(browser: import('@playwright/test').Browser, account: TestAccount, becomesAdmin: boolean) {
  const context = await browser.newContext({ baseURL: server.url, extraHTTPHeaders: { 'x-real-ip': freshClientIp() } });
  const page = await context.newPage();
  await gotoHydrated(page, '/auth');
  await page.getByRole('tab', { name: 'Sign up' }).click();
  const form = page.getByTestId('signup-form');
  await form.getByLabel('First name').fill(account.firstName);
  await form.getByLabel('Last name').fill(account.lastName);
  await form.getByLabel('Email').fill(account.email);
  await form.getByLabel('Password', { exact: true }).fill(account.password);
  await form.getByRole('button', { name: 'Create account' }).click();
  // Signed in, not verified yet: the seed sends the new member to /verify-email.
  await expect(page).toHaveURL(/\/verify-email$/);
  await expect(page.getByTestId('verify-pending')).toContainText(account.email);

  // The emailed link verifies, signs this browser in and lands on /verify-email.
  await page.goto(await verificationLink(account.email, undefined, server.dataDir));
  await expect(page).toHaveURL(/\/verify-email$/);
  await expect(page.getByTestId('verified')).toBeVisible();
  // The account that became admin is told so and led to the admin; a member is not.
  if (becomesAdmin) {
    await expect(page.getByTestId('verified-admin')).toContainText("You are this site's admin");
    await expect(page.getByRole('link', { name: 'Go to the admin' })).toHaveAttribute('href', '/admin');
  } else {
    await expect(page.getByTestId('verified-admin')).toHaveCount(0);
    await expect(page.getByRole('link', { name: 'Continue' })).toBeVisible();
  }
  const user = await sessionUser(page);
  await context.close();
  return user;
}

test('first verified user becomes admin, the second stays a member', async ({ browser }) => {
  const admin = { ...newAccount('admin'), firstName: 'Ada', lastName: 'Admin' };
  const member = { ...newAccount('member'), firstName: 'Mia', lastName: 'Member' };
  expect(await signUpAndVerify(browser, admin, true)).toMatchObject({ email: admin.email, role: 'admin', emailVerified: true });
  expect(await signUpAndVerify(browser, member, false)).toMatchObject({ email: member.email, role: 'user', emailVerified: true });
});
