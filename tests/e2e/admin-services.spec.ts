/**
 * The services studio in Chromium, as the admin: every change shows on the public site at once (through
 * the route cache, not around it), reordering works with the mouse and the keyboard, a renamed URL keeps
 * working, two admins never silently overwrite each other, and an edit made offline is not lost.
 */
import { expect, test, type Page } from './support/fixtures';
import { ADMIN_STATE, gotoHydrated } from './support/accounts';
import { dragTo, moveByKeyboard } from './support/sortable';

test.use({ storageState: ADMIN_STATE });

const unique = () => Math.random().toString(36).slice(2, 8);

/** Loads a public page twice, so the second answer comes from the route cache (when it is cacheable). */
async function cachedPublicPage(page: Page, path: string) {
  await page.request.get(path);
  const res = await page.request.get(path);
  expect(res.status()).toBe(200);
  return res;
}

async function createService(page: Page, name: string) {
  await gotoHydrated(page, '/admin/services/new');
  await page.getByLabel('Name', { exact: true }).fill(name);
  await page.getByLabel('Short text').fill(`${name}: replies to every lead in a minute.`);
  await page.getByLabel(/^Price/).fill('750');
  await page.getByRole('button', { name: 'Add benefit' }).click();
  await page.getByRole('textbox', { name: 'benefit 1' }).fill('Never miss a lead');
  await page.getByRole('button', { name: 'Create service' }).click();
  await expect(page).toHaveURL(/\/admin\/services\/[a-z0-9-]+$/);
  await expect(page.getByText('Created.')).toBeVisible();
  return new URL(page.url()).pathname.split('/').pop()!;
}

test('create, edit, duplicate and delete a service; the public site follows on the next request', async ({ page }) => {
  const name = `Missed-call Rescue ${unique()}`;
  await cachedPublicPage(page, '/services');
  const id = await createService(page, name);
  expect((await page.request.get('/services')).status()).toBe(200);
  await expect.poll(async () => (await page.request.get('/services')).text()).toContain(name);
  expect(await (await page.request.get(`/service/${id}`)).text()).toContain('replies to every lead in a minute');

  // Edit, save with Ctrl+S.
  await cachedPublicPage(page, `/service/${id}`);
  await page.getByLabel('Short text').fill('Texts back every missed call within seconds.');
  await expect(page.getByText('Unsaved changes')).toBeVisible();
  await page.keyboard.press('Control+s');
  await expect(page.getByText('All changes saved')).toBeVisible();
  expect(await (await page.request.get(`/service/${id}`)).text()).toContain('Texts back every missed call within seconds.');

  // Duplicate: the copy opens in the editor.
  await page.getByRole('button', { name: 'Duplicate' }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/services/${id}-copy$`));
  await expect(page.getByLabel('Name', { exact: true })).toHaveValue(`${name} (copy)`);

  // Delete the copy and the original, each after a confirmation.
  for (const target of [`${id}-copy`, id]) {
    await gotoHydrated(page, `/admin/services/${target}`);
    await page.getByRole('button', { name: 'Delete' }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toContainText('Delete this service?');
    await expect(dialog.getByRole('button', { name: 'Delete' })).toHaveAttribute('data-confirm-tone', 'danger');
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await expect(page).toHaveURL(/\/admin\/services$/);
    await expect(page.getByText('Deleted.')).toBeVisible();
  }
  expect((await page.request.get(`/service/${id}`)).status()).toBe(404);
  expect(await (await page.request.get('/services')).text()).not.toContain(name);
});

async function publicOrder(page: Page): Promise<string[]> {
  const html = await (await page.request.get('/services')).text();
  return [...html.matchAll(/href="\/service\/([^"]+)"/g)].map((m) => m[1]!).filter((v, i, a) => a.indexOf(v) === i);
}

test('reorder by keyboard and by mouse; the public list follows', async ({ page }) => {
  await gotoHydrated(page, '/admin/services');
  const before = await publicOrder(page);
  expect(before.length).toBeGreaterThan(2);
  await cachedPublicPage(page, '/services');

  // Keyboard: the second row's handle, Space, Arrow Up, Space (each step announced).
  const handle = page.locator(`[data-row="${before[1]}"]`).getByRole('button', { name: /^Move / });
  const name = (await handle.getAttribute('aria-label'))!.replace(/^Move /, '');
  await moveByKeyboard(page, name, 2, 1);
  await expect(page.getByText('Order saved.')).toBeVisible();
  await expect.poll(() => publicOrder(page)).toEqual([before[1], before[0], ...before.slice(2)]);

  // Mouse: drag it back down below the first.
  await gotoHydrated(page, '/admin/services');
  const source = page.locator(`[data-row="${before[1]}"]`).getByRole('button', { name: /^Move / });
  const target = page.locator(`[data-row="${before[0]}"]`);
  await dragTo(page, source, target);
  await expect(page.getByText('Order saved.').last()).toBeVisible();
  await expect.poll(() => publicOrder(page)).toEqual(before);
});

test('renaming the URL name answers the old address with a 301 to the new one', async ({ page }) => {
  const id = await createService(page, `Rename Me ${unique()}`);
  await page.getByLabel('URL name').fill(`${id}-renamed`);
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/services/${id}-renamed$`));
  const old = await page.request.get(`/service/${id}`, { maxRedirects: 0 });
  expect(old.status()).toBe(301);
  expect(old.headers().location).toBe(`/service/${id}-renamed`);
  const sitemap = await (await page.request.get('/sitemap.xml')).text();
  expect(sitemap).toContain(`/service/${id}-renamed<`);
  expect(sitemap).not.toContain(`/service/${id}<`);
});

test('two admins editing the same service: the second save is refused with who saved, and nothing is lost', async ({ page, browser }) => {
  const id = await createService(page, `Shared ${unique()}`);
  const other = await browser.newContext({ storageState: ADMIN_STATE });
  const second = await other.newPage();
  await gotoHydrated(second, `/admin/services/${id}`);

  await page.getByLabel('Short text').fill('First admin wrote this.');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('All changes saved')).toBeVisible();

  await second.getByLabel('Short text').fill('Second admin wrote this.');
  await second.getByRole('button', { name: 'Save' }).click();
  await expect(second.getByTestId('editor-conflict')).toContainText('saved this service at');
  // The second admin's text is still in the form, and the stored text is the first admin's.
  await expect(second.getByLabel('Short text')).toHaveValue('Second admin wrote this.');
  expect(await (await page.request.get(`/service/${id}`)).text()).toContain('First admin wrote this.');
  await other.close();
});

test('an edit made offline is kept and sent when the connection is back', async ({ page, context }) => {
  const id = await createService(page, `Offline ${unique()}`);
  await context.setOffline(true);
  await page.getByLabel('Short text').fill('Written on a train without signal.');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByTestId('editor-offline')).toContainText('Your changes are kept in this browser');
  await context.setOffline(false);
  // Back online: the page notices on its own (connectivity store), or on the next save.
  await page.evaluate(() => window.dispatchEvent(new Event('online')));
  await expect(page.getByText('All changes saved')).toBeVisible({ timeout: 20_000 });
  expect(await (await page.request.get(`/service/${id}`)).text()).toContain('Written on a train without signal.');
});

test('a draft left in the browser is offered back after a reload', async ({ page }) => {
  const id = await createService(page, `Draft ${unique()}`);
  await page.getByLabel('Short text').fill('Not saved yet.');
  await page.waitForTimeout(600); // the draft is written a moment after typing stops
  page.once('dialog', (d) => void d.accept()); // the unsaved-changes warning
  await page.reload();
  await expect(page.getByTestId('draft-offer')).toBeVisible();
  await page.getByRole('button', { name: 'Restore them' }).click();
  await expect(page.getByLabel('Short text')).toHaveValue('Not saved yet.');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('All changes saved')).toBeVisible();
  expect(await (await page.request.get(`/service/${id}`)).text()).toContain('Not saved yet.');
});

test('field errors say which field is wrong and why; nothing is saved', async ({ page }) => {
  await gotoHydrated(page, '/admin/services/new');
  await page.getByLabel(/^Price/).fill('-20');
  await page.getByRole('button', { name: 'Create service' }).click();
  await expect(page.getByText('Must not be empty')).toBeVisible();
  await expect(page.getByText('Must be at least 0')).toBeVisible();
  await expect(page.getByLabel('Name', { exact: true })).toBeFocused();
  await page.getByLabel('Name', { exact: true }).fill('x'.repeat(300));
  await page.getByLabel(/^Price/).fill('cheap');
  await page.getByRole('button', { name: 'Create service' }).click();
  await expect(page.getByText('Must be at most 200 characters')).toBeVisible();
  await expect(page.getByText('Must be a number')).toBeVisible();
  await expect(page).toHaveURL(/\/admin\/services\/new$/);
});
