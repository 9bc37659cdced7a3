/**
 * Leads in one place, in Chromium: a visitor who lands from a campaign link and then requests a free audit
 * sends the campaign's UTM values with it (seen on the admin's detail page); a "Book a call" click is
 * reported with navigator.sendBeacon (the middleware's Origin check lets it through) and counted in the
 * admin overview's "Site and leads" section; the visitor gets no cookie at any point. The section is
 * screenshotted at phone and desktop widths (attached to the report).
 */
import { expect, test, type Browser, type Page } from './support/fixtures';
import { ADMIN_STATE, freshClientIp, gotoHydrated } from './support/accounts';

const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
const CAMPAIGN = '/?utm_source=newsletter&utm_medium=email&utm_campaign=spring';

async function adminPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ storageState: ADMIN_STATE });
  return context.newPage();
}

/** Today's book-a-call count in the overview (the 7-day period). */
async function bookCallsToday(admin: Page): Promise<number> {
  await admin.goto('/admin?days=7');
  const today = new Date().toISOString().slice(0, 10);
  return Number(await admin.locator(`[data-chart-table="leads-per-day"] tr[data-row="${today}"] td[data-series="book-call"]`).getAttribute('data-value'));
}

test.beforeEach(async ({ context }) => {
  await context.setExtraHTTPHeaders({ 'x-real-ip': freshClientIp() });
  // The booking site is another origin (and there is no internet here): answer its page locally.
  await context.route(/^https:\/\/(?!127\.0\.0\.1)/, (route) => route.fulfill({ status: 200, contentType: 'text/html', body: '<title>Booking</title>' }));
});

test('an audit request carries the UTM values of the visit’s landing URL, and the visitor gets no cookie', async ({ page, context, browser }) => {
  const business = `Campaign Clinic ${unique()}`;
  await page.goto(CAMPAIGN);
  // Another page of the visit in between: the landing page's values are kept for the visit.
  await page.goto('/services');
  await gotoHydrated(page, '/free-audit');
  await page.getByLabel('Full name', { exact: true }).fill('Cam Paign');
  await page.getByLabel('Email', { exact: true }).fill(`cam-${unique()}@example.com`);
  await page.getByLabel('Business name').fill(business);
  await page.getByLabel('Clinic').check();
  await page.getByLabel('More leads').check();
  await page.getByLabel(/I agree to be contacted/).check();
  await page.getByRole('button', { name: 'Request my free audit' }).click();
  await expect(page.getByTestId('audit-thank-you')).toBeVisible();
  expect(await context.cookies()).toEqual([]);

  const admin = await adminPage(browser);
  await admin.goto(`/admin/audit?q=${encodeURIComponent(business)}`);
  await admin.locator('tr[data-audit-row]').getByRole('link').first().click();
  await expect(admin.getByRole('heading', { level: 1, name: business })).toBeVisible();
  await expect(admin.locator('[data-fact="UTM source"]')).toHaveText('newsletter');
  await expect(admin.locator('[data-fact="UTM medium"]')).toHaveText('email');
  await expect(admin.locator('[data-fact="UTM campaign"]')).toHaveText('spring');
  await expect(admin.locator('[data-fact="Source page"]')).toHaveText('/');
  await admin.context().close();
});

test('the audit form posted before its island runs carries the UTM values too (filled by the layout script)', async ({ page, browser }) => {
  const business = `Early Post Clinic ${unique()}`;
  // The island's code never arrives (Astro's retry with ?astro-retry= included): the form stays the
  // server's, posted the old way.
  await page.route(/\/_astro\/AuditForm\.[^/?]*\.js(\?|$)/, (route) => route.abort());
  await page.goto(CAMPAIGN);
  await page.goto('/free-audit');
  await expect(page.locator('input[data-attribution][name="utm_source"]')).toHaveValue('newsletter');
  await expect(page.locator('input[data-attribution][name="utm_campaign"]')).toHaveValue('spring');
  await expect(page.locator('input[data-attribution][name="sourcePage"]')).toHaveValue('/');
  await page.getByLabel('Full name', { exact: true }).fill('Early Poster');
  await page.getByLabel('Email', { exact: true }).fill(`early-${unique()}@example.com`);
  await page.getByLabel('Business name').fill(business);
  await page.getByLabel('Other').check();
  await page.getByLabel('Nurturing').check();
  await page.getByLabel(/I agree to be contacted/).check();
  await page.getByRole('button', { name: 'Request my free audit' }).click();
  await expect(page).toHaveURL(/\/free-audit\?sent=1$/);
  await expect(page.locator('astro-island[ssr]')).not.toHaveCount(0); // it really never hydrated

  const admin = await adminPage(browser);
  await admin.goto(`/admin/audit?q=${encodeURIComponent(business)}`);
  await admin.locator('tr[data-audit-row]').getByRole('link').first().click();
  await expect(admin.locator('[data-fact="UTM campaign"]')).toHaveText('spring');
  await expect(admin.locator('[data-fact="UTM source"]')).toHaveText('newsletter');
  await admin.context().close();
});

test('a Book a call click is recorded (beacon accepted) and counted in the overview; no cookie is set', async ({ page, context, browser }) => {
  const admin = await adminPage(browser);
  const before = await bookCallsToday(admin);

  await page.goto(CAMPAIGN);
  const beacon = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/lead-events');
  const popup = page.waitForEvent('popup');
  await page.locator('#hero [data-book-call]').click();
  const response = await beacon;
  expect(response.status()).toBe(204);
  expect(response.request().method()).toBe('POST');
  // Chromium sends the page's Origin with a beacon: the middleware's cross-site check sees this site.
  expect(await response.request().headerValue('origin')).toBe(new URL(page.url()).origin);
  expect(JSON.parse(response.request().postData() ?? '{}')).toMatchObject({
    kind: 'book-call',
    page: '/',
    attribution: { sourcePage: '/', utmSource: 'newsletter', utmMedium: 'email', utmCampaign: 'spring' },
  });
  await (await popup).close();

  await expect.poll(() => bookCallsToday(admin)).toBe(before + 1);
  const total = admin.locator('[data-metric="book-call"] > [data-value]');
  expect(Number(await total.getAttribute('data-value'))).toBeGreaterThanOrEqual(1);
  const newsletter = admin.locator('[data-lead-sources] tr[data-source]').filter({ hasText: 'newsletter' }).filter({ hasText: 'spring' });
  await expect(newsletter).toHaveCount(1);

  expect(await context.cookies()).toEqual([]);

  // The Leads section at phone and desktop widths, for a person to look at.
  for (const width of [390, 1280]) {
    await admin.setViewportSize({ width, height: 900 });
    await admin.goto('/admin?days=30');
    const path = test.info().outputPath(`leads-${width}.png`);
    // The whole page, cut to the section: an element screenshot would scroll it under the sticky top bar.
    const box = await admin.locator('[data-site-and-leads]').boundingBox();
    await admin.screenshot({ path, fullPage: true, clip: box! });
    await test.info().attach(`leads-${width}.png`, { path, contentType: 'image/png' });
  }
  await admin.context().close();
});

test('a sign-up from a campaign visit is counted under that campaign', async ({ page, browser }) => {
  const campaign = `autumn-${unique()}`;
  await page.goto(`/?utm_source=partner&utm_medium=referral&utm_campaign=${campaign}`);
  await gotoHydrated(page, '/auth?tab=signup');
  const form = page.getByTestId('signup-form');
  await form.getByLabel('First name', { exact: true }).fill('Sam');
  await form.getByLabel('Last name', { exact: true }).fill('Signup');
  await form.getByLabel('Email', { exact: true }).fill(`sam-${unique()}@example.com`);
  await form.getByLabel('Password', { exact: true }).fill(`pw-${unique()}`);
  await form.getByRole('button', { name: 'Create account' }).click();
  await page.waitForURL(/\/verify-email/);

  const admin = await adminPage(browser);
  await admin.goto('/admin?days=7');
  const row = admin.locator('[data-lead-sources] tr[data-source]').filter({ hasText: `partner / referral / ${campaign}` });
  await expect(row.locator('td')).toHaveText('1');
  await admin.context().close();
});

test('the sign-up form posted without its island carries the attribution its hidden inputs hold', async ({ browser, playwright, baseURL }) => {
  const campaign = `post-${unique()}`;
  // What the browser sends when the layout's script filled the inputs but the island never ran.
  const visitor = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { 'x-real-ip': freshClientIp() } });
  const res = await visitor.post('/auth', {
    form: {
      intent: 'signup',
      firstName: 'Nora',
      lastName: 'Noscript',
      email: `nora-${unique()}@example.com`,
      password: `pw-${unique()}`,
      sourcePage: '/articles',
      utm_source: 'forum',
      utm_medium: 'post',
      utm_campaign: campaign,
    },
    headers: { origin: baseURL! },
    maxRedirects: 0,
  });
  expect(res.status()).toBe(303);
  await visitor.dispose();

  const admin = await adminPage(browser);
  await admin.goto('/admin?days=7');
  const row = admin.locator('[data-lead-sources] tr[data-source]').filter({ hasText: `forum / post / ${campaign}` });
  await expect(row.locator('td')).toHaveText('1');
  await admin.context().close();
});

test('a lead event from another site is refused by the cross-site check, and bad ones with 400', async ({ request }) => {
  const event = JSON.stringify({ kind: 'book-call', page: '/' });
  const forged = await request.post('/api/lead-events', { headers: { origin: 'https://evil.example', 'content-type': 'text/plain;charset=UTF-8' }, data: event });
  expect(forged.status()).toBe(403);
  const wrongKind = await request.post('/api/lead-events', { headers: { 'content-type': 'text/plain;charset=UTF-8' }, data: JSON.stringify({ kind: 'sign-up', page: '/' }) });
  expect(wrongKind.status()).toBe(400);
  expect(await wrongKind.json()).toMatchObject({ code: 'INVALID_INPUT' });
  const huge = await request.post('/api/lead-events', { headers: { 'content-type': 'application/json' }, data: JSON.stringify({ kind: 'book-call', page: '/', attribution: { utmSource: 'x'.repeat(1_100_000) } }) });
  expect(huge.status()).toBe(413);
});

test('the period switch is in the URL and says which period is shown', async ({ browser }) => {
  const admin = await adminPage(browser);
  await admin.goto('/admin');
  await expect(admin.getByRole('navigation', { name: 'Period' }).getByRole('link', { name: '30 days' })).toHaveAttribute('aria-current', 'page');
  await admin.getByRole('navigation', { name: 'Period' }).getByRole('link', { name: '90 days' }).click();
  await expect(admin).toHaveURL(/\?days=90$/);
  await expect(admin.locator('[data-chart-table="leads-per-day"] tbody tr')).toHaveCount(90);
  await expect(admin.locator('[data-period]')).toContainText('compared with the previous 90 days');
  // Anything else in ?days= is the default period, never an error.
  const res = await admin.goto('/admin?days=1000');
  expect(res?.status()).toBe(200);
  await expect(admin.locator('[data-chart-table="leads-per-day"] tbody tr')).toHaveCount(30);
  await admin.context().close();
});
