/**
 * A visitor on a slow phone types into a form before its island is live (its module held back here), then
 * goes on once it is: nothing typed earlier is taken back by the island's first renders, and the submit
 * sends all of it (issue 35). Sign-up and log-in, the free-audit form and the member's profile; the admin
 * editors are covered by admin-typed-before-hydration.spec.ts.
 */
import { expect, test } from './support/fixtures';
import { createVerifiedAccount, freshClientIp, logInViaUi, newAccount, sessionUser } from './support/accounts';
import { gotoWithIslandsHeld } from './support/islands';

test.beforeEach(async ({ context }) => {
  // Sign-up, log-in and the audit form are rate-limited per client address: one of its own per test.
  await context.setExtraHTTPHeaders({ 'x-real-ip': freshClientIp() });
});

test('sign-up: names, email and password typed before the form is live are kept and sent', async ({ page }) => {
  const { email, password } = newAccount('early-signup');
  const islands = await gotoWithIslandsHeld(page, '/auth?tab=signup');
  const form = page.getByTestId('signup-form');
  const typedEarly = { 'First name': 'Rosa', 'Last name': 'Early-Bird', Email: email, Password: password };
  for (const [label, value] of Object.entries(typedEarly)) await form.getByLabel(label, { exact: true }).fill(value);
  await islands.release();

  // Typing on in the live island re-renders the form: what came before must stay.
  await form.getByLabel('Phone (optional)').fill('+1 555 0101');
  for (const [label, value] of Object.entries(typedEarly)) await expect(form.getByLabel(label, { exact: true })).toHaveValue(value);

  const sent = page.waitForRequest((r) => r.method() === 'POST' && new URL(r.url()).pathname === '/api/auth/sign-up/email');
  await form.getByRole('button', { name: 'Create account' }).click();
  expect((await sent).postDataJSON()).toMatchObject({ firstName: 'Rosa', lastName: 'Early-Bird', email, password, phone: '+1 555 0101' });
  await expect(page).toHaveURL(/\/verify-email$/);
  await expect(page.getByTestId('verify-pending')).toContainText(email);
});

test('log-in: the email and password typed before the form is live sign the member in', async ({ page, request, baseURL }) => {
  const account = await createVerifiedAccount(request, baseURL!, 'early-login');
  const islands = await gotoWithIslandsHeld(page, '/auth');
  const form = page.getByTestId('login-form');
  await form.getByLabel('Email').fill(account.email);
  await form.getByLabel('Password', { exact: true }).fill(account.password);
  await islands.release();

  const sent = page.waitForRequest((r) => r.method() === 'POST' && new URL(r.url()).pathname === '/api/auth/sign-in/email');
  await form.getByRole('button', { name: 'Log in' }).click();
  expect((await sent).postDataJSON()).toMatchObject({ email: account.email, password: account.password });
  await page.waitForURL((url) => url.pathname !== '/auth');
  expect(await sessionUser(page)).toMatchObject({ email: account.email });
});

test('free audit: text, the business type, goals, message and consent given before the form is live are kept and sent', async ({ page }) => {
  const email = `early-audit-${Date.now().toString(36)}@example.com`;
  const islands = await gotoWithIslandsHeld(page, '/free-audit');
  const typedEarly = { 'Full name': 'Grace Early', Email: email, 'Business name': 'Early Smile Clinic', 'Anything we should know? (optional)': 'We miss calls at lunch.' };
  for (const [label, value] of Object.entries(typedEarly)) await page.getByLabel(label, { exact: true }).fill(value);
  const choices = [page.getByLabel('Clinic'), page.getByLabel('More leads'), page.getByLabel('Appointment reminders'), page.getByLabel(/I agree to be contacted/)];
  for (const choice of choices) await choice.check();
  await islands.release();

  await page.getByLabel('Website (optional)').fill('earlysmile.example');
  for (const [label, value] of Object.entries(typedEarly)) await expect(page.getByLabel(label, { exact: true })).toHaveValue(value);
  for (const choice of choices) await expect(choice).toBeChecked();

  const sent = page.waitForRequest((r) => r.method() === 'POST' && new URL(r.url()).pathname === '/api/audit-requests');
  await page.getByRole('button', { name: 'Request my free audit' }).click();
  const body = (await sent).postData() ?? '';
  for (const value of ['Grace Early', email, 'Early Smile Clinic', 'We miss calls at lunch.', 'clinic', 'more-leads', 'earlysmile.example']) expect(body).toContain(value);
  await expect(page.getByRole('heading', { name: 'Thank you — your request is in' })).toBeFocused();
  await expect(page).toHaveURL(/\/free-audit$/); // the island sent it, not the no-script post
});

test('dashboard profile: names and phone typed before the form is live are saved', async ({ page, request, baseURL }) => {
  const account = await createVerifiedAccount(request, baseURL!, 'early-profile');
  await logInViaUi(page, account);
  const islands = await gotoWithIslandsHeld(page, '/dashboard');
  const form = page.locator('form').filter({ has: page.getByLabel('First name') });
  const typedEarly = { 'First name': 'Marta', 'Last name': 'Early-Bird', Phone: '+1 555 0102' };
  for (const [label, value] of Object.entries(typedEarly)) await form.getByLabel(label).fill(value);
  await islands.release();

  await form.getByLabel('Website').fill('marta-early.example');
  for (const [label, value] of Object.entries(typedEarly)) await expect(form.getByLabel(label)).toHaveValue(value);

  const sent = page.waitForRequest((r) => r.method() === 'POST' && new URL(r.url()).pathname === '/_actions/account.updateProfile');
  await form.getByRole('button', { name: 'Save profile' }).click();
  expect((await sent).postDataJSON()).toMatchObject({ firstName: 'Marta', lastName: 'Early-Bird', phone: '+1 555 0102', website: 'marta-early.example' });
  await expect(form.getByRole('status')).toHaveText('Profile saved.');
  await page.reload();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Welcome, Marta');
  await expect(form.getByLabel('Last name')).toHaveValue('Early-Bird');
  await expect(form.getByLabel('Phone')).toHaveValue('+1 555 0102');
});
