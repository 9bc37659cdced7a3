/**
 * /free-audit for visitors and members: the form works with and without script, shows messages beside the
 * fields and keeps what was typed, thanks a bot that fills the honeypot without storing anything, says
 * what happens next, and the requester gets the confirmation email. axe finds nothing at phone and
 * desktop widths, in the empty, error and thank-you states.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from './support/fixtures';
import { freshClientIp, gotoHydrated, MEMBER_STATE, newestMailTo, savedAccounts } from './support/accounts';
import { VIEWPORTS } from './support/public-pages';

const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

test.beforeEach(async ({ context }) => {
  // A client address of its own per test: the form allows five requests per address in ten minutes.
  await context.setExtraHTTPHeaders({ 'x-real-ip': freshClientIp() });
});

async function fillValid(page: Page, email: string, business = 'Bright Smile Clinic') {
  await page.getByLabel('Full name', { exact: true }).fill('Grace Hopper');
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Business name').fill(business);
  await page.getByLabel('Website (optional)').fill('brightsmile.example');
  await page.getByLabel('Clinic').check();
  await page.getByLabel('More leads').check();
  await page.getByLabel('Appointment reminders').check();
  await page.getByLabel('Anything we should know? (optional)').fill('We miss calls at lunch.');
  await page.getByLabel(/I agree to be contacted/).check();
}

const submitButton = (page: Page) => page.getByRole('button', { name: 'Request my free audit' });

async function expectConfirmationMail(email: string) {
  await expect.poll(() => newestMailTo(email) ?? '', { timeout: 10_000 }).toContain('Thank you for requesting a free online presence audit');
  const mail = newestMailTo(email)!;
  expect(mail).toContain('Here is what happens next');
  expect(mail).toContain('Within two business days');
  // The address is unconfirmed: nothing the visitor typed is mailed back to it (no phishing relay).
  for (const typed of ['Grace Hopper', 'Bright Smile', 'brightsmile', 'We miss calls']) expect(mail).not.toContain(typed);
}

async function expectNoAxeViolations(page: Page) {
  for (const size of Object.values(VIEWPORTS)) {
    await page.setViewportSize(size);
    const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
    expect(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  }
}

test.describe('with JavaScript', () => {
  test('shows messages beside the fields without a reload, then sends and says what happens next', async ({ page }) => {
    await gotoHydrated(page, '/free-audit');
    await expectNoAxeViolations(page);
    const email = `audit-js-${unique()}@example.com`;
    let posts = 0;
    page.on('request', (r) => {
      if (r.method() === 'POST') posts++;
    });

    await page.getByLabel('Email', { exact: true }).fill('not-an-email');
    await page.getByLabel('Email', { exact: true }).blur();
    await expect(page.getByText('Please enter a valid email address').first()).toBeVisible(); // on leaving the field
    await submitButton(page).click();
    await expect(page.getByTestId('audit-form-error')).toContainText('Please correct the highlighted fields.');
    await expect(page.getByLabel('Full name', { exact: true })).toBeFocused(); // the first field with a problem
    await expect(page.getByLabel('Full name', { exact: true })).toHaveAttribute('aria-invalid', 'true');
    await expect(page.locator('#audit-goals-error')).toHaveText('Please choose at least one goal');
    await expect(page.locator('#audit-consent-error')).toHaveText('Please agree to be contacted about your audit');
    expect(posts).toBe(0); // the shared rules ran in the browser
    await expectNoAxeViolations(page);

    await fillValid(page, email);
    await expect(page.locator('#audit-email-error')).toHaveCount(0); // corrected while typing
    await submitButton(page).click();
    await expect(page.getByRole('heading', { name: 'Thank you — your request is in' })).toBeFocused();
    await expect(page.getByTestId('audit-thank-you')).toContainText('Within two business days');
    await expect(page).toHaveURL(/\/free-audit$/); // no reload
    await expectConfirmationMail(email);
    await expectNoAxeViolations(page);
  });

  test('a bot that fills the honeypot is thanked, and nothing is sent', async ({ page }) => {
    await gotoHydrated(page, '/free-audit');
    const email = `audit-bot-${unique()}@example.com`;
    await fillValid(page, email);
    await page.locator('input[name="faxNumber"]').fill('+1 555 0100', { force: true });
    await submitButton(page).click();
    await expect(page.getByTestId('audit-thank-you')).toBeVisible();
    // The mail worker sends within a moment of a request; give it that moment, then look.
    await page.waitForTimeout(1500);
    expect(newestMailTo(email)).toBeUndefined();
  });

  test('a signed-in member finds their name and email filled in', async ({ browser }) => {
    const context = await browser.newContext({ storageState: MEMBER_STATE, extraHTTPHeaders: { 'x-real-ip': freshClientIp() } });
    const page = await context.newPage();
    const { member } = savedAccounts();
    await gotoHydrated(page, '/free-audit');
    await expect(page.getByLabel('Email', { exact: true })).toHaveValue(member.email);
    await expect(page.getByLabel('Full name', { exact: true })).toHaveValue(`${member.firstName} ${member.lastName}`);
    await expect(page.getByTestId('audit-member-note')).toContainText(member.email);
    await context.close();
  });

  test('the page is the same for every visitor: nothing personal in the HTML', async ({ browser, request }) => {
    const anonymous = await (await request.get('/free-audit')).text();
    const context = await browser.newContext({ storageState: MEMBER_STATE });
    const html = await (await context.request.get('/free-audit')).text();
    const { member } = savedAccounts();
    expect(html).not.toContain(member.email);
    expect(anonymous).not.toContain(member.email);
    await context.close();
  });
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('a refused post shows the messages beside the fields and keeps the values; a valid one lands on the thank-you state', async ({ page }) => {
    const email = `audit-nojs-${unique()}@example.com`;
    await page.goto('/free-audit');
    await page.getByLabel('Full name', { exact: true }).fill('Grace Hopper');
    await page.getByLabel('Email', { exact: true }).fill('grace@');
    await page.getByLabel('Coach or consultant').check();
    await page.getByLabel('Nurturing').check();
    const [response] = await Promise.all([page.waitForResponse((r) => r.request().method() === 'POST'), submitButton(page).click()]);
    expect(response.status()).toBe(400);
    await expect(page.getByTestId('audit-form-error')).toContainText('Please correct the highlighted fields.');
    await expect(page.locator('#audit-email-error')).toHaveText('Please enter a valid email address');
    await expect(page.locator('#audit-businessName-error')).toHaveText('Business name is required');
    await expect(page.locator('#audit-consent-error')).toBeVisible();
    await expect(page.getByLabel('Full name', { exact: true })).toHaveValue('Grace Hopper');
    await expect(page.getByLabel('Email', { exact: true })).toHaveValue('grace@');
    await expect(page.getByLabel('Coach or consultant')).toBeChecked();
    await expect(page.getByLabel('Nurturing')).toBeChecked();
    // The summary links to the fields.
    await expect(page.getByTestId('audit-form-error').getByRole('link', { name: 'Please enter a valid email address' })).toHaveAttribute('href', '#audit-email');

    await page.getByLabel('Email', { exact: true }).fill(email);
    await page.getByLabel('Business name').fill('Hopper Coaching');
    await page.getByLabel(/I agree to be contacted/).check();
    await submitButton(page).click();
    await expect(page).toHaveURL(/\/free-audit\?sent=1$/);
    await expect(page.getByRole('heading', { name: 'Thank you — your request is in' })).toBeVisible();
    await expectConfirmationMail(email);
  });

  test('the sixth request from one client in ten minutes is refused with the time to wait', async ({ page, baseURL }) => {
    const ip = freshClientIp();
    const post = (i: number) =>
      page.request.post('/free-audit', {
        headers: { origin: baseURL!, 'x-real-ip': ip },
        form: { fullName: 'Rate Test', email: `rate-${i}-${unique()}@example.com`, businessName: 'Rate Co', businessType: 'other', goals: 'more-leads', consent: 'on' },
        maxRedirects: 0,
      });
    for (let i = 0; i < 5; i++) expect((await post(i)).status()).toBe(303);
    const refused = await post(5);
    expect(refused.status()).toBe(429);
    expect(Number(refused.headers()['retry-after'])).toBeGreaterThan(0);
    expect(await refused.text()).toMatch(/Please try again in \d+ minutes?/);
  });
});

test('the JSON endpoint answers bad input with 400 and messages by field, never a 500', async ({ request, baseURL }) => {
  const res = await request.post('/api/audit-requests', {
    headers: { origin: baseURL!, 'x-real-ip': freshClientIp() },
    data: { fullName: 'x'.repeat(5000), email: 'a@b', website: 'javascript:alert(1)', goals: 'nope', consent: false },
  });
  expect(res.status()).toBe(400);
  const body = (await res.json()) as { fieldErrors: Record<string, string> };
  expect(body.fieldErrors).toMatchObject({
    fullName: 'Full name must be at most 100 characters',
    email: 'Please enter a valid email address',
    website: 'Please enter a valid website address',
    consent: 'Please agree to be contacted about your audit',
  });
});
