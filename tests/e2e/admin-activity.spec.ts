/**
 * The activity log as the owner uses it: a change listed with who and when, its fields before and after
 * (text, never rendered), filters in the URL, and "Revert" — the site goes back at once (through the route
 * cache), the revert is an entry of its own linked to the one it undid, and a change that was followed by
 * another is refused with a clear message.
 */
import { expect, test, type APIRequestContext, type Page } from './support/fixtures';
import { ADMIN_STATE, gotoHydrated, savedAccounts } from './support/accounts';
import { callAction } from './support/admin-actions';

test.use({ storageState: ADMIN_STATE });

type Saved = { id: string; snapshot: { updatedAt: string } };

// Every service a test makes is removed afterwards: later specs count the demo content.
const made: string[] = [];
test.afterEach(async ({ request, baseURL }) => {
  for (const id of made.splice(0)) expect((await callAction(request, baseURL!, 'admin.services.remove', { id })).status, `removing ${id}`).toBe(200);
});

async function createService(request: APIRequestContext, baseURL: string, name: string, shortText: string) {
  const created = await callAction<Saved>(request, baseURL, 'admin.services.create', { fields: { name, shortText, price: 100 } });
  expect(created.status, JSON.stringify(created.error)).toBe(200);
  made.push(created.data!.id);
  return created.data!;
}

async function updateService(request: APIRequestContext, baseURL: string, saved: Saved, name: string, shortText: string) {
  const updated = await callAction<Saved>(request, baseURL, 'admin.services.update', { id: saved.id, version: saved.snapshot.updatedAt, fields: { name, shortText, price: 100 } });
  expect(updated.status, JSON.stringify(updated.error)).toBe(200);
  return updated.data!;
}

const entryWith = (page: Page, summary: string | RegExp) => page.locator('[data-entry]').filter({ has: page.locator('[data-summary]', { hasText: summary }) });

test('an admin edits a service, sees the change with its diff, reverts it from the list, and the public page follows', async ({ page, request, baseURL, browser }) => {
  const name = `Revert check ${Date.now().toString(36)}`;
  const saved = await createService(request, baseURL!, name, 'The text before the change.');

  // The edit, as the owner makes it: in the service editor.
  await gotoHydrated(page, `/admin/services/${saved.id}`);
  await page.getByLabel('Short text').fill('The text after the change. <img src=x onerror="window.__pwned=1">');
  await page.getByRole('button', { name: /^Save/ }).click();
  await expect(page.getByText('All changes saved')).toBeVisible();

  // A visitor's view, cached by the route cache before the revert.
  const visitor = await browser.newContext();
  const publicPage = await visitor.newPage();
  await publicPage.goto(`/service/${saved.id}`);
  await expect(publicPage.locator('main')).toContainText('The text after the change.');

  await gotoHydrated(page, `/admin/activity?q=${encodeURIComponent(name)}`);
  await expect(page.locator('[data-activity-count]')).toHaveText('2 changes');
  const update = entryWith(page, `Updated service “${name}”`);
  // Who made it, named as their account is (issue 35), their address a hover away.
  const { admin } = savedAccounts();
  await expect(update.getByRole('link', { name: `${admin.firstName} ${admin.lastName}` })).toHaveAttribute('title', admin.email);
  await expect(update.locator('time')).toHaveText(/^\d{1,2} \w{3} \d{4}, \d{2}:\d{2}:\d{2}$/);

  // Field by field, as text: the markup shows, nothing renders or runs.
  await update.getByText('Show changes').click();
  const shortText = update.locator('[data-field="shortText"]');
  await expect(shortText.locator('[data-side="before"]')).toHaveText('The text before the change.');
  await expect(shortText.locator('[data-side="after"]')).toHaveText('The text after the change. <img src=x onerror="window.__pwned=1">');
  await expect(update.locator('img')).toHaveCount(0);
  expect(await page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();

  // Revert, after a confirmation that names the change.
  await update.getByRole('button', { name: /^Revert/ }).click();
  const dialog = page.getByRole('dialog', { name: 'Revert this change?' });
  await expect(dialog).toContainText(`Updated service “${name}”`);
  // A revert can itself be reverted: asked in the primary colour, not the red of a deletion.
  await expect(dialog.getByRole('button', { name: 'Revert' })).toHaveAttribute('data-confirm-tone', 'primary');
  await dialog.getByRole('button', { name: 'Revert' }).click();
  await expect(page.locator('[data-toast="success"]')).toHaveText(/Reverted/);
  await expect(page).not.toHaveURL(/notice=/);

  // The revert is listed, linked to the entry it undid; the undone entry says so and offers no second revert.
  await expect(page.locator('[data-activity-count]')).toHaveText('3 changes');
  const revert = entryWith(page, `Reverted changes to “${name}”`);
  await expect(update.getByText('Reverted', { exact: true })).toBeVisible();
  await expect(update.getByRole('button', { name: /^Revert/ })).toHaveCount(0);
  await expect(revert.getByRole('button', { name: /^Revert/ })).toHaveCount(0);

  // The visitor sees the old text on the next request.
  await publicPage.reload();
  await expect(publicPage.locator('main')).toContainText('The text before the change.');
  await expect(publicPage.locator('main')).not.toContainText('The text after the change.');
  await visitor.close();

  // The revert's link shows the entry it undid, alone.
  await revert.getByRole('link', { name: 'an earlier change' }).click();
  await expect(page).toHaveURL(/\/admin\/activity\?entry=[0-9a-f-]{36}$/);
  await expect(page.locator('[data-entry]')).toHaveCount(1);
  await expect(page.locator('[data-summary]')).toHaveText(`Updated service “${name}”: short text`);
});

test('a change followed by another is not reverted over it: the admin is told why', async ({ page, request, baseURL }) => {
  const name = `Chain check ${Date.now().toString(36)}`;
  const saved = await createService(request, baseURL!, name, 'First.');
  const second = await updateService(request, baseURL!, saved, name, 'Second.');
  await updateService(request, baseURL!, second, name, 'Third.');

  await gotoHydrated(page, `/admin/activity?q=${encodeURIComponent(name)}&action=update`);
  await expect(page.locator('[data-entry]')).toHaveCount(2);
  const older = page.locator('[data-entry]').nth(1);
  await older.getByRole('button', { name: /^Revert/ }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Revert' }).click();
  await expect(page.locator('[data-toast="error"]')).toContainText('changed again after that entry');
  await page.reload();
  await expect(page.locator('[data-entry]')).toHaveCount(2); // no revert entry
  await expect(older.getByRole('button', { name: /^Revert/ })).toBeVisible();
});

test('filters live in the URL and work without script', async ({ browser, request, baseURL }) => {
  const name = `Filter check ${Date.now().toString(36)}`;
  const saved = await createService(request, baseURL!, name, 'One.');
  await updateService(request, baseURL!, saved, name, 'Two.');

  const context = await browser.newContext({ storageState: ADMIN_STATE, javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto('/admin/activity');
  await page.getByLabel('Search').fill(name);
  await page.getByLabel('Change').selectOption({ label: 'Updated' });
  await page.getByLabel('Content').selectOption({ label: 'Services' });
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page).toHaveURL(/[?&]type=service/);
  await expect(page).toHaveURL(/[?&]action=update/);
  await expect(page.locator('[data-entry]')).toHaveCount(1);
  await expect(page.locator('[data-entry]')).toHaveAttribute('data-action', 'update');
  // The same link shows the same entries.
  await page.goto(page.url());
  await expect(page.locator('[data-entry]')).toHaveCount(1);
  await page.getByRole('link', { name: 'Clear' }).click();
  await expect(page).toHaveURL(/\/admin\/activity$/);
  await context.close();
});
