/**
 * Two of the owner's small fixes, as a visitor then sees them (each page is a route-cache hit before the
 * save): a page title that already ends with a short form of the business name ("… | Autoflow") is shown
 * exactly as typed once "Site name follows the title" is off, and /admin/seo's tile of the page shows the
 * saved title at once; the footer's copyright year is a site text. Every test puts back what it changed,
 * so the specs after it see the demo content.
 */
import { expect, test, type APIRequestContext, type Page } from './support/fixtures';
import { ADMIN_STATE, gotoHydrated } from './support/accounts';

test.use({ storageState: ADMIN_STATE });

let visitor: APIRequestContext;
test.beforeAll(async ({ playwright, baseURL }) => {
  // No cookies: the admin state of this file must not leak into the visitor's requests.
  visitor = await playwright.request.newContext({ baseURL: baseURL!, storageState: { cookies: [], origins: [] } });
});
test.afterAll(() => visitor.dispose());

/** Asks for `path` until the route cache answers it, so the next check proves the save invalidated it. */
async function cachedAsVisitor(path: string) {
  await visitor.get(path);
  const second = await visitor.get(path);
  expect(second.headers()['x-astro-cache'], `${path} is served from the route cache`).toBe('HIT');
}

async function visitorHtml(path: string) {
  const res = await visitor.get(path);
  expect(res.status()).toBe(200);
  return res.text();
}

const decode = (s: string) => s.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
const headTitle = (html: string) => decode(/<title>([^<]*)<\/title>/.exec(html)?.[1] ?? '');
const footerYear = (html: string) => /©\s*<span data-copyright-year[^>]*>(\d+)<\/span>/.exec(html)?.[1];

async function saveWithShortcut(page: Page) {
  await page.keyboard.press('ControlOrMeta+s');
  await expect(page.locator('[data-save-state]')).toHaveText('All changes saved');
}

/** Marks the open document, so a later check can tell the page was not reloaded. */
const markDocument = (page: Page) => page.evaluate(() => Object.assign(window, { __notReloaded: true }));
const stillSameDocument = (page: Page) => page.evaluate(() => (window as unknown as { __notReloaded?: boolean }).__notReloaded === true);

test('SEO: a title ending in "| Autoflow" with "Site name follows the title" off is the public <title> exactly as typed; the tile shows each save at once', async ({ page }) => {
  const ownTitle = 'Demo builds';
  const siteName = headTitle(await visitorHtml('/demos')).replace(`${ownTitle} | `, '');
  expect(siteName, 'the demo site name has a short form "Autoflow"').toMatch(/^Autoflow \S/);
  const typed = 'Demo builds that book clients | Autoflow';
  // Short enough that even with the name added again nothing is cut: what each step shows is whole.
  expect(`${typed} | ${siteName}`.length).toBeLessThanOrEqual(60);

  await cachedAsVisitor('/demos');
  await gotoHydrated(page, '/admin/seo?page=%2Fdemos');
  const tile = page.locator('[data-seo-tile="/demos"]');
  const tileTitle = tile.locator('[data-tile-title]');
  const follows = page.getByRole('checkbox', { name: /^Site name follows the title/ });
  const previewTitle = page.locator('[data-preview-title]');
  await expect(tileTitle).toHaveText(`${ownTitle} | ${siteName}`);
  await markDocument(page);

  try {
    await page.getByLabel('Title', { exact: true }).fill(typed);
    // Left to the title, the name is not added after a short form of it, and the preview and counter say so.
    await expect(follows).not.toBeChecked();
    await expect(previewTitle).toHaveText(typed);
    await expect(page.locator('[data-counter="Title"]')).toContainText(`${typed.length} of 60`);

    // On: the name follows even this title (what the page showed before the choice existed).
    await follows.check();
    await expect(previewTitle).toHaveText(`${typed} | ${siteName}`);
    await expect(page.locator('[data-counter="Title"]')).toContainText(`${`${typed} | ${siteName}`.length} of 60`);
    await saveWithShortcut(page);
    await expect(tileTitle).toHaveText(`${typed} | ${siteName}`);
    await expect(tile.getByText('Set', { exact: true })).toBeVisible();
    expect(headTitle(await visitorHtml('/demos'))).toBe(`${typed} | ${siteName}`);

    // The owner unchecks it: saved, the tile follows without a reload, the public head carries the title as typed.
    await follows.uncheck();
    await expect(previewTitle).toHaveText(typed);
    await saveWithShortcut(page);
    await expect(tileTitle).toHaveText(typed);
    expect(await stillSameDocument(page), 'the tile changed without a reload').toBe(true);
    expect(headTitle(await visitorHtml('/demos'))).toBe(typed);

    // The choice is stored with the page: it is there when the editor opens again.
    await gotoHydrated(page, '/admin/seo?page=%2Fdemos');
    await expect(follows).not.toBeChecked();
    await expect(page.getByRole('button', { name: 'Let the title decide' })).toBeVisible();
    await expect(tileTitle).toHaveText(typed);
  } finally {
    await gotoHydrated(page, '/admin/seo?page=%2Fdemos');
    await page.getByLabel('Title', { exact: true }).fill('');
    const leave = page.getByRole('button', { name: 'Let the title decide' });
    if (await leave.isVisible()) await leave.click();
    await saveWithShortcut(page);
  }
  await expect(tileTitle).toHaveText(`${ownTitle} | ${siteName}`);
  expect(headTitle(await visitorHtml('/demos'))).toBe(`${ownTitle} | ${siteName}`);
});

test('site texts: the copyright year is checked, saved, and shown in every footer', async ({ page }) => {
  expect(footerYear(await visitorHtml('/')), 'the demo site shows the default year').toBe('2025');
  await cachedAsVisitor('/');
  await cachedAsVisitor('/services');
  await gotoHydrated(page, '/admin/content');
  const year = page.getByLabel('Copyright year');
  const original = await year.inputValue();
  expect(original).toBe('2025');
  const nextYear = new Date().getUTCFullYear() + 1;

  try {
    // Not a year in range: told beside the field, nothing saved.
    for (const bad of ['1899', String(nextYear + 1), '25', 'MMXIX']) {
      await year.fill(bad);
      await page.keyboard.press('ControlOrMeta+s');
      await expect(page.getByTestId('editor-invalid')).toBeVisible();
      await expect(year).toHaveAttribute('aria-invalid', 'true');
      await expect(page.getByText(`Must be a four-digit year from 1900 to ${nextYear}, such as 2025`)).toBeVisible();
    }
    expect(footerYear(await visitorHtml('/'))).toBe('2025');

    await year.fill('2019');
    await saveWithShortcut(page);
    expect(footerYear(await visitorHtml('/'))).toBe('2019');
    expect(footerYear(await visitorHtml('/services'))).toBe('2019');
    // The content file carries it.
    const file = (await (await page.request.get('/api/admin/content/export')).json()) as { siteContent: { footer?: { copyrightYear?: number } } };
    expect(file.siteContent.footer?.copyrightYear).toBe(2019);
  } finally {
    await gotoHydrated(page, '/admin/content');
    await page.getByLabel('Copyright year').fill(original);
    await saveWithShortcut(page);
  }
  expect(footerYear(await visitorHtml('/'))).toBe('2025');
});
