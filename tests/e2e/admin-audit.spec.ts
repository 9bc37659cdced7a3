/**
 * The free-audit pipeline from the admin's side, in Chromium: a request sent by a member shows in the
 * admin list and on the member's dashboard; the admin opens it, sets the requester's stage and owner (the
 * person's: the lead page shows the same pair, issue 35), adds a note (never shown to the member), exports
 * the CSV with formula-like values neutralised; and
 * markup typed into every field is shown as text in admin and escaped in the emails.
 */
import { expect, test, type Browser, type Page } from './support/fixtures';
import { ADMIN_STATE, freshClientIp, gotoHydrated, MEMBER_STATE, newestMailTo, savedAccounts, islandsHydrated } from './support/accounts';

test.use({ storageState: ADMIN_STATE });

const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
const XSS = `<img src=x onerror="window.__xss=1">`;

/** Sends a request through the page's own form (no script), as the given browser context. */
async function sendRequest(page: Page, fields: { fullName: string; email: string; businessName: string; message?: string; phone?: string; website?: string }) {
  await page.context().setExtraHTTPHeaders({ 'x-real-ip': freshClientIp() });
  await gotoHydrated(page, '/free-audit');
  const name = page.getByLabel('Full name', { exact: true });
  await name.fill(fields.fullName);
  await page.getByLabel('Email', { exact: true }).fill(fields.email);
  await page.getByLabel('Business name').fill(fields.businessName);
  if (fields.website !== undefined) await page.getByLabel('Website (optional)').fill(fields.website);
  if (fields.phone !== undefined) await page.getByLabel('Phone (optional)').fill(fields.phone);
  await page.getByLabel('Other').check();
  await page.getByLabel('Lead-capture funnel').check();
  if (fields.message !== undefined) await page.getByLabel('Anything we should know? (optional)').fill(fields.message);
  await page.getByLabel(/I agree to be contacted/).check();
  await page.getByRole('button', { name: 'Request my free audit' }).click();
  await expect(page.getByTestId('audit-thank-you')).toBeVisible();
}

async function memberPage(browser: Browser) {
  const context = await browser.newContext({ storageState: MEMBER_STATE });
  return context.newPage();
}

test('a member’s request: in the admin list, opened, the person’s stage and owner set (the same on their lead page), noted, exported, and on the member’s dashboard', async ({ page, browser }) => {
  const business = `Formula Clinic ${unique()}`;
  const member = await memberPage(browser);
  const { member: account, admin } = savedAccounts();
  // The member's name and email are filled in from their session; the request is linked to the account.
  await sendRequest(member, { fullName: `${account.firstName} ${account.lastName}`, email: account.email, businessName: business, phone: '+1 555 0100', message: '=1+2 please' });

  await page.goto(`/admin/audit?q=${encodeURIComponent(business)}`);
  const row = page.locator('tr[data-audit-row]').filter({ hasText: business });
  await expect(row).toHaveCount(1);
  await expect(row.locator('[data-audit-report]')).toHaveAttribute('data-audit-report', 'waiting');
  await expect(row.locator('[data-audit-report]')).toContainText('Report not sent');
  // Filter by the report in the URL: no report was sent for it.
  await page.goto(`/admin/audit?q=${encodeURIComponent(business)}&report=sent`);
  await expect(page.getByText('No requests match this search.')).toBeVisible();

  await page.goto(`/admin/audit?q=${encodeURIComponent(business)}`);
  await page.locator('tr[data-audit-row]').getByRole('link').first().click();
  await expect(page).toHaveURL(/\/admin\/audit\/[0-9a-f-]{36}$/);
  const requestUrl = page.url();
  await expect(page.getByRole('heading', { level: 1, name: business })).toBeVisible();
  await expect(page.locator('[data-fact="Member account"]')).toHaveText(account.email);
  await expect(page.locator('[data-fact="Message"]')).toHaveText('=1+2 please');
  await islandsHydrated(page);
  // No status of the request's own: the requester's stage and owner.
  await expect(page.getByLabel('Status')).toHaveCount(0);

  await page.getByLabel('Stage').selectOption('contacted');
  await expect(page.getByText('Stage: Contacted.')).toBeVisible();
  await page.getByLabel('Owner').selectOption({ label: `${admin.firstName} ${admin.lastName}` });
  await expect(page.getByText(`Owned by ${admin.firstName} ${admin.lastName}.`)).toBeVisible();
  const note = `Called the owner ${unique()}`;
  await page.getByLabel('New note').fill(note);
  await page.getByRole('button', { name: 'Add note' }).click();
  await expect(page.getByTestId('audit-note').filter({ hasText: note })).toBeVisible();
  // All survive a reload: they were stored, not just shown.
  await page.reload();
  await expect(page.getByLabel('Stage')).toHaveValue('contacted');
  await expect(page.getByTestId('audit-note').filter({ hasText: note })).toContainText(/\d{1,2} \w{3} \d{4}, \d{2}:\d{2}/); // in the site's zone, named in the header
  // One person, one stage, one owner: their lead page gives the same answer.
  await page.locator('[data-person-link]').click();
  await expect(page.locator('[data-lead-work]').getByLabel('Stage')).toHaveValue('contacted');
  await expect(page.locator('[data-lead-work]').getByLabel('Owner')).toHaveValue(/.+/);
  await expect(page.locator('[data-person-business]')).toContainText(business);
  await expect(page.locator('[data-person-phone]')).toContainText('+1 555 0100');
  await page.goto(requestUrl);

  // The CSV of the filtered list: every field, formula-like values neutralised, the person's stage and owner.
  const csvResponse = await page.request.get(`/api/admin/audit/export?q=${encodeURIComponent(business)}`);
  expect(csvResponse.status()).toBe(200);
  expect(csvResponse.headers()['content-disposition']).toMatch(/^attachment; filename="audit-requests-.*\.csv"$/);
  const csv = await csvResponse.text();
  expect(csv).toContain(business);
  expect(csv).toContain("'=1+2 please");
  expect(csv).toContain("'+1 555 0100");
  expect(csv).toContain(`Report not sent,,Contacted,${admin.email}`);
  expect(csv.trim().split('\r\n')).toHaveLength(2);
  // The list filters by the person's stage, and the Export link carries the list's filter.
  await page.goto(`/admin/audit?q=${encodeURIComponent(business)}&stage=contacted`);
  await expect(page.locator('tr[data-audit-row]').filter({ hasText: business }).locator('[data-audit-stage]')).toContainText('Contacted');
  await expect(page.getByRole('link', { name: 'Export CSV' })).toHaveAttribute('href', `/api/admin/audit/export?q=${encodeURIComponent(business).replace(/%20/g, '+')}&stage=contacted`);

  // The member sees the request and that their report is on its way, never the note nor the stage.
  await member.goto('/dashboard');
  const mine = member.getByTestId('your-audit-requests');
  await expect(mine.getByText(business)).toBeVisible();
  await expect(mine.locator('li').filter({ hasText: business })).toContainText('We are preparing your report');
  await expect(member.getByText(note)).toHaveCount(0);
  await expect(mine.getByText('Contacted')).toHaveCount(0);
  await member.context().close();
});

test('markup typed into every field is text in admin and escaped in the emails', async ({ page, browser }) => {
  const visitor = await (await browser.newContext()).newPage();
  const email = `xss-${unique()}@example.com`;
  const business = `XSS Co ${unique()} ${XSS}`;
  // Name and phone have their own rules (no markup gets through them); every free-text field carries it.
  await sendRequest(visitor, { fullName: `Eve ${XSS}`, email, businessName: business, message: `${XSS}<script>window.__xss=1</script>` });

  await page.goto(`/admin/audit?q=${encodeURIComponent('XSS Co')}`);
  const row = page.locator('tr[data-audit-row]').filter({ hasText: business });
  await expect(row).toHaveCount(1);
  await expect(row.getByRole('link')).toHaveText(`Eve ${XSS}`);
  await row.getByRole('link').click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(business);
  await expect(page.locator('[data-fact="Message"]')).toHaveText(`${XSS}<script>window.__xss=1</script>`);
  await expect(page.locator('main img[src="x"]')).toHaveCount(0);
  // Reached by a click, not gotoHydrated: the notes' island must be live before its button is pressed.
  await islandsHydrated(page);
  await page.getByLabel('New note').fill(XSS);
  await page.getByRole('button', { name: 'Add note' }).click();
  await expect(page.getByTestId('audit-note').filter({ hasText: XSS })).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();

  // The confirmation goes to an unconfirmed address: it carries none of the typed text.
  await expect.poll(() => newestMailTo(email) ?? '', { timeout: 10_000 }).toContain('Thank you for requesting');
  const htmlOf = (mail: string) => mail.slice(mail.indexOf('Content-Type: text/html'));
  const confirmation = newestMailTo(email)!;
  for (const typed of ['XSS Co', 'Eve ', 'onerror', '__xss', '<img']) expect(confirmation).not.toContain(typed);
  // The admins' notification carries every field, escaped in the HTML.
  const { admin } = savedAccounts();
  await expect.poll(() => newestMailTo(admin.email) ?? '', { timeout: 10_000 }).toContain('XSS Co');
  const notification = htmlOf(newestMailTo(admin.email)!);
  expect(notification).toContain('&lt;script&gt;window.__xss=1&lt;/script&gt;');
  expect(notification).not.toMatch(/<img|<script/i);
  await visitor.context().close();
});
