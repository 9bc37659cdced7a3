/**
 * The activity log with the site's settings, as the owner uses it: a headline edited in the site texts is
 * listed as that one field with the form's label (not the whole document), is reverted from /admin/activity
 * with the usual confirmation, and a visitor sees the old headline on the next request (the route cache
 * dropped). A save the site texts have moved on from is not offered: its row says why. Every test leaves the
 * demo content's headline as it found it.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type APIRequestContext, type Page } from './support/fixtures';
import { ADMIN_STATE, gotoHydrated } from './support/accounts';

test.use({ storageState: ADMIN_STATE });

let visitor: APIRequestContext;
test.beforeAll(async ({ playwright, baseURL }) => {
  // No cookies: what any visitor gets, through the route cache.
  visitor = await playwright.request.newContext({ baseURL: baseURL!, storageState: { cookies: [], origins: [] } });
});
test.afterAll(() => visitor.dispose());

async function landingHtml() {
  const res = await visitor.get('/');
  expect(res.status()).toBe(200);
  return res.text();
}

/** Asks for the landing page until the route cache answers it, so the next check proves a change dropped it. */
async function landingCached() {
  await visitor.get('/');
  expect((await visitor.get('/')).headers()['x-astro-cache'], 'the landing page is served from the route cache').toBe('HIT');
}

const headlineField = (page: Page) => page.getByRole('textbox', { name: 'Headline', exact: true });

async function saveHeadline(page: Page, text: string) {
  await gotoHydrated(page, '/admin/content');
  await headlineField(page).fill(text);
  await page.keyboard.press('ControlOrMeta+s');
  await expect(page.locator('[data-save-state]')).toHaveText('All changes saved');
}

let original: string;
test.beforeEach(async ({ page }) => {
  await gotoHydrated(page, '/admin/content');
  original = await headlineField(page).inputValue();
});
// Whatever happened, the next spec sees the demo content's headline.
test.afterEach(async ({ page }) => {
  await gotoHydrated(page, '/admin/content');
  if ((await headlineField(page).inputValue()) !== original) await saveHeadline(page, original);
});

const siteTextEntries = (page: Page) => page.locator('[data-entry]');

test('a headline edit is listed as that one field, reverted from the activity log, and the visitor sees the old headline', async ({ page }) => {
  const changed = `We quietly automate ${Date.now().toString(36)}`;
  await landingCached();
  await saveHeadline(page, changed);
  expect(await landingHtml()).toContain(changed);

  await gotoHydrated(page, '/admin/activity?type=site-content');
  const entry = siteTextEntries(page).first();
  await expect(entry.locator('[data-summary]')).toHaveText('Updated the site texts: hero');
  await expect(entry.getByRole('link', { name: /^Open/ })).toHaveAttribute('href', '/admin/content');

  // Only the headline, named as the form names it, old and new as text.
  await expect(entry.getByText('(1 field)')).toBeVisible();
  await entry.getByText('Show changes').click();
  await expect(entry.locator('[data-field]')).toHaveCount(1);
  const field = entry.locator('[data-field="hero.headline"]');
  await expect(field.locator('dt')).toHaveText('Hero › Headline · Changed');
  await expect(field.locator('[data-side="before"]')).toHaveText(original);
  await expect(field.locator('[data-side="after"]')).toHaveText(changed);
  // One line, read out as "Before: “…”, After: “…”" (the arrow is for the eyes).
  await expect(field.locator('dd')).toHaveText(`Before: “${original}”, → After: “${changed}”`);

  // Revert, after the confirmation that names the change.
  await landingCached();
  await entry.getByRole('button', { name: /^Revert/ }).click();
  const dialog = page.getByRole('dialog', { name: 'Revert this change?' });
  await expect(dialog).toContainText('Updated the site texts: hero');
  await dialog.getByRole('button', { name: 'Revert' }).click();
  await expect(page.locator('[data-toast="success"]')).toHaveText(/Reverted/);

  // The revert is an entry of its own; the undone one says so and offers no second revert.
  const revert = siteTextEntries(page).first();
  await expect(revert).toHaveAttribute('data-action', 'revert');
  // The demo content stores no site texts: the revert goes back to the defaults, and says so.
  await expect(revert.locator('[data-summary]')).toHaveText(/^Reverted a change to the site texts( \(back to the defaults\))?$/);
  const undone = siteTextEntries(page).nth(1);
  await expect(undone.getByText('Reverted', { exact: true })).toBeVisible();
  await expect(undone.getByRole('button', { name: /^Revert/ })).toHaveCount(0);
  await revert.getByText('Show changes').click();
  await expect(revert.locator('[data-field]')).toHaveCount(1);
  await expect(revert.locator('[data-field="hero.headline"] [data-side="after"]')).toHaveText(original);

  // The visitor's next request: the old headline, the cached page with the new one dropped.
  const html = await landingHtml();
  expect(html).toContain(original);
  expect(html).not.toContain(changed);
});

test('a save the site texts moved on from says why it cannot be reverted, and can be once the later one is', async ({ page }) => {
  const stamp = Date.now().toString(36);
  await saveHeadline(page, `First ${stamp}`);
  await saveHeadline(page, `Second ${stamp}`);

  await gotoHydrated(page, '/admin/activity?type=site-content');
  const [newer, older] = [siteTextEntries(page).first(), siteTextEntries(page).nth(1)];
  await expect(older.locator('[data-revert-refusal]')).toHaveText(
    /^Cannot be reverted now: The site texts changed again after that entry: revert the later changes first, newest first\. See the latest change$/,
  );
  await expect(older.getByRole('button', { name: /^Revert/ })).toHaveCount(0);
  const newerId = await newer.getAttribute('data-entry');
  await expect(older.getByRole('link', { name: 'See the latest change' })).toHaveAttribute('href', `/admin/activity?entry=${newerId}`);
  // The refusal and the one-line changes pass axe like the rest of the admin.
  await page.locator('details:not([open])').evaluateAll((all) => all.forEach((d) => ((d as HTMLDetailsElement).open = true)));
  const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
  expect(violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);

  await newer.getByRole('button', { name: /^Revert/ }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Revert' }).click();
  await expect(page.locator('[data-toast="success"]')).toHaveText(/Reverted/);
  // Newest first: the revert, the undone save, then the first save, offered again.
  const first = siteTextEntries(page).nth(2);
  await expect(first.locator('[data-summary]')).toHaveText('Updated the site texts: hero');
  await expect(first.locator('[data-revert-refusal]')).toHaveCount(0);
  await expect(first.getByRole('button', { name: /^Revert/ })).toBeVisible();
  expect(await landingHtml()).toContain(`First ${stamp}`);
});
