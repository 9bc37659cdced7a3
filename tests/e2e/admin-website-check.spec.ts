/**
 * The free audit's automatic website check (issue 22), in Chromium against the built server and the
 * fixture sites (tests/support/audit-fixture-sites.ts, reached through AUDIT_FIXTURE_HOSTS): a visitor asks
 * for an audit of their site, and the admin sees the scored check on the request within a minute, with
 * evidence, why and how to fix; "Run again" on another address keeps the history and says what changed;
 * markup and script from the audited site are only ever text; axe finds nothing at phone and desktop width.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { startAuditFixtureSites, type AuditFixtureSites, EVIL_RAN_FLAG } from '../support/audit-fixture-sites';
import { ADMIN_STATE, freshClientIp, gotoHydrated } from './support/accounts';
import { VIEWPORTS } from './support/public-pages';

test.use({ storageState: ADMIN_STATE });

let sites: AuditFixtureSites;
test.beforeAll(async () => {
  sites = await startAuditFixtureSites();
});
test.afterAll(async () => {
  await sites.close();
});

const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

/** A visitor's request through the public form (a context of its own: not signed in). */
async function visitorRequests(page: Page, businessName: string, website: string) {
  const visitor = await page.context().browser()!.newContext({ storageState: { cookies: [], origins: [] }, extraHTTPHeaders: { 'x-real-ip': freshClientIp() } });
  const form = await visitor.newPage();
  await gotoHydrated(form, '/free-audit');
  await form.getByLabel('Full name', { exact: true }).fill('Grace Hopper');
  await form.getByLabel('Email', { exact: true }).fill(`grace-${unique()}@example.com`);
  await form.getByLabel('Business name').fill(businessName);
  await form.getByLabel('Website (optional)').fill(website);
  await form.getByLabel('Clinic').check();
  await form.getByLabel('More leads').check();
  await form.getByLabel(/I agree to be contacted/).check();
  await form.getByRole('button', { name: 'Request my free audit' }).click();
  await expect(form.getByTestId('audit-thank-you')).toBeVisible();
  await visitor.close();
}

async function openRequest(page: Page, businessName: string) {
  await page.goto(`/admin/audit?q=${encodeURIComponent(businessName)}`);
  await page.locator('tr[data-audit-row]').getByRole('link').first().click();
  await expect(page.getByRole('heading', { level: 1, name: businessName })).toBeVisible();
  await expect(page.locator('astro-island[ssr]')).toHaveCount(0);
}

test('a requested audit is checked by itself: the admin sees the score, evidence and fixes, runs it again and sees what changed', async ({ page }) => {
  test.setTimeout(180_000);
  const business = `Good Clinic ${unique()}`;
  await visitorRequests(page, business, sites.url('good.test'));
  await openRequest(page, business);

  // Within a minute of the request, without touching anything: the page waits for the run and reloads.
  const section = page.locator('[data-site-check]');
  await expect(section.locator('[data-overall-score]')).toBeVisible({ timeout: 60_000 });
  const overall = Number((await section.locator('[data-overall-score] span').first().textContent())?.trim());
  expect(overall).toBeGreaterThanOrEqual(60);
  await expect(section.locator('[data-site-check-ran]')).toContainText(sites.url('good.test'));
  // The agency's own angle: the contact form on /contact, the booking link and the chat widget are found.
  await expect(section.locator('[data-check="contact-form"]')).toHaveAttribute('data-check-status', 'pass');
  await expect(section.locator('[data-check="booking-link"]')).toHaveAttribute('data-check-status', 'pass');
  // A failed check says what was seen, why it matters and how to fix it.
  const https = section.locator('[data-check="https"]');
  await expect(https).toHaveAttribute('data-check-status', 'fail');
  await expect(https.getByText('Why it matters')).toBeVisible();
  await expect(https.getByText('How to fix it')).toBeVisible();
  await section.locator('[data-site-check-fetched] summary').click();
  await expect(section.locator('[data-site-check-fetched] table')).toContainText('/contact');

  // Run again on the site with every defect: queued, waited for, and the changes named.
  await page.getByLabel('Website to check').fill(sites.url('bad.test'));
  await page.getByRole('button', { name: 'Run again' }).click();
  await expect(page.locator('[data-site-check-waiting]')).toBeVisible();
  await expect(section.locator('[data-site-check-changes]')).toBeVisible({ timeout: 60_000 });
  await expect(section.locator('[data-site-check-changes]')).toContainText(/score −\d+/);
  await expect(section.locator('[data-site-check-changes]')).toContainText('→ fail');
  await expect(section.locator('[data-check="contact-form"]')).toHaveAttribute('data-check-status', 'fail');
  await section.locator('[data-site-check-history] summary').click();
  await expect(section.locator('[data-site-check-history]')).toContainText(sites.url('good.test'));

  // An address that cannot be checked is refused beside the field, and nothing is queued.
  await page.getByLabel('Website to check').fill('ftp://files.example.com/');
  await page.getByRole('button', { name: 'Run again' }).click();
  await expect(page.getByText(/Only website addresses \(http:\/\/ or https:\/\/\) can be audited/)).toBeVisible();
  await expect(page.locator('[data-site-check-waiting]')).toHaveCount(0);
});

test('markup and script from the audited site are shown as text and never run; the page passes axe', async ({ page }) => {
  test.setTimeout(180_000);
  const business = `Evil Clinic ${unique()}`;
  await visitorRequests(page, business, sites.url('evil.test'));
  await openRequest(page, business);
  const section = page.locator('[data-site-check]');
  await expect(section.locator('[data-overall-score]')).toBeVisible({ timeout: 60_000 });
  // The fixture's title is a script element: the evidence quotes it as text.
  await expect(section.locator('[data-check="title"]')).toContainText('<script>');
  expect(await page.evaluate((flag) => (window as unknown as Record<string, unknown>)[flag], EVIL_RAN_FLAG)).toBeUndefined();
  await expect(section.locator('img[src="x"]')).toHaveCount(0);

  for (const viewport of Object.values(VIEWPORTS)) {
    await page.setViewportSize(viewport);
    await page.reload();
    await expect(page.locator('astro-island[ssr]')).toHaveCount(0);
    await page.locator('details:not([open])').evaluateAll((all) => all.forEach((d) => ((d as HTMLDetailsElement).open = true)));
    const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
    expect(violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`)).toEqual([]);
  }
});
