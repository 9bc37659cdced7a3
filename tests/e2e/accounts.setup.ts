/**
 * Runs before the other e2e specs (project 'accounts'): signs up the first user through the /auth form,
 * verifies through the emailed link and checks that they became admin (the first verified user), then a
 * second user who stays a member. Their sessions and credentials are saved for the other specs.
 */
import fs from 'node:fs';
import { expect, test as setup } from '@playwright/test';
import { ACCOUNTS_FILE, ADMIN_STATE, AUTH_DIR, MEMBER_STATE, freshClientIp, gotoHydrated, newAccount, sessionUser, verificationLink, type TestAccount } from './support/accounts';

async function signUpAndVerify(browser: import('@playwright/test').Browser, account: TestAccount, statePath: string, becomesAdmin: boolean) {
  const context = await browser.newContext({ extraHTTPHeaders: { 'x-real-ip': freshClientIp() } });
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
  await page.goto(await verificationLink(account.email));
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
  await context.storageState({ path: statePath });
  await context.close();
  return user;
}

setup('first verified user becomes admin, the second stays a member', async ({ browser }) => {
  fs.mkdirSync(AUTH_DIR, { recursive: true });
  const admin = { ...newAccount('admin'), firstName: 'Ada', lastName: 'Admin' };
  const member = { ...newAccount('member'), firstName: 'Mia', lastName: 'Member' };

  const adminUser = await signUpAndVerify(browser, admin, ADMIN_STATE, true);
  expect(adminUser).toMatchObject({ email: admin.email, role: 'admin', emailVerified: true });

  const memberUser = await signUpAndVerify(browser, member, MEMBER_STATE, false);
  expect(memberUser).toMatchObject({ email: member.email, role: 'user', emailVerified: true });

  fs.writeFileSync(ACCOUNTS_FILE, JSON.stringify({ admin, member }, null, 2), { mode: 0o600 });
});
