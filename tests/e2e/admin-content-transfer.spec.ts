/**
 * "Backup and move" (/admin/content/transfer) as the owner uses it: download the content file, import a
 * bad one (every problem by position and field, nothing imported, the page still passes axe), and the
 * downloaded file edited (a summary, one activity entry, and the public site showing it on the next
 * request, through the route cache); the downloaded file then restores the demo content.
 */
import fs from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from './support/fixtures';
import { ADMIN_STATE, gotoHydrated } from './support/accounts';
import { contentSnapshot } from './support/admin-actions';

test.use({ storageState: ADMIN_STATE });

const envelope = { format: 'agency-site-content', version: 1 };

async function importFile(page: Page, name: string, content: string) {
  await page.getByLabel('Content file (.json)').setInputFiles({ name, mimeType: 'application/json', buffer: Buffer.from(content) });
  await page.getByRole('button', { name: 'Import', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: `Import “${name}”?` });
  await expect(dialog).toContainText('cannot be reverted');
  await dialog.getByRole('button', { name: 'Import' }).click();
}

async function downloadContentFile(page: Page): Promise<{ name: string; text: string }> {
  await gotoHydrated(page, '/admin/content/transfer');
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download the content file' }).click()]);
  return { name: download.suggestedFilename(), text: fs.readFileSync((await download.path())!, 'utf8') };
}

test('downloads the content file', async ({ page }) => {
  const download = await downloadContentFile(page);
  expect(download.name).toMatch(/^site-content-\d{4}-\d{2}-\d{2}\.json$/);
  const file = JSON.parse(download.text) as { format: string; services: unknown[]; media: unknown[] };
  expect(file.format).toBe('agency-site-content');
  expect(file.services.length).toBeGreaterThan(0);
  expect(file.media.length).toBeGreaterThan(0);
});

test('a bad file is reported by position and field, and nothing is imported', async ({ page, request }) => {
  const before = await contentSnapshot(request);
  await gotoHydrated(page, '/admin/content/transfer');
  const bad = {
    ...envelope,
    services: [{ id: 'fine-one', name: 'Fine' }, { id: 'bad-one', name: '' }, { id: 'worse-one', name: 'X', shortTxt: 'typo', price: -5 }],
    packages: [{ id: 'p-one', name: 'P', includedServiceIds: ['ghost-service'] }],
  };
  await importFile(page, 'broken.json', JSON.stringify(bad));
  const result = page.locator('[data-import-result="problems"]');
  await expect(result.getByRole('alert')).toContainText('Nothing was imported: 4 problems in broken.json.');
  await expect(result.locator('[data-problems] li')).toHaveText([
    'services[1].name: must not be empty',
    'services[2].price: must be at least 0',
    'services[2].shortTxt: unknown field',
    'packages[0].includedServiceIds[0]: no service "ghost-service" in this file or in the database',
  ]);
  await expect(result).toBeFocused();

  // The report is part of the page: axe checks it at phone and desktop widths.
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 844 });
    const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
    expect(violations.map((v) => `${width}: ${v.id} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  }

  // Not JSON at all: said plainly.
  await importFile(page, 'notes.json', 'this is not json');
  await expect(page.locator('[data-import-result="refused"]')).toContainText('notes.json is not valid JSON');
  expect(await contentSnapshot(request)).toEqual(before);
});

test('an empty file is refused before anything is sent', async ({ page }) => {
  await gotoHydrated(page, '/admin/content/transfer');
  let sent = false;
  page.on('request', (r) => {
    if (r.url().includes('/api/admin/content/import')) sent = true;
  });
  await page.getByLabel('Content file (.json)').setInputFiles({ name: 'empty.json', mimeType: 'application/json', buffer: Buffer.alloc(0) });
  await expect(page.getByText('empty.json is empty')).toBeVisible();
  await page.getByRole('button', { name: 'Import', exact: true }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  expect(sent).toBe(false);
});

test('the downloaded file, edited and uploaded, is imported, recorded and on the public site at once; the demo content is restored after', async ({ page, browser, request, baseURL }) => {
  const stamp = Date.now().toString(36);
  const original = await downloadContentFile(page);
  const before = await contentSnapshot(request);
  const file = JSON.parse(original.text) as { services: { id: string; name: string }[] };
  const service = file.services[0]!;
  const renamed = `${service.name} ${stamp}`;
  const edited = { ...file, services: file.services.map((s, i) => (i === 0 ? { ...s, name: renamed } : s)) };

  try {
    // A visitor's pages, cached before the import.
    const visitor = await browser.newContext();
    const publicPage = await visitor.newPage();
    await publicPage.goto(`/service/${service.id}`);
    await expect(publicPage.locator('h1')).toHaveText(service.name);

    await gotoHydrated(page, '/admin/content/transfer');
    await importFile(page, `edited-${stamp}.json`, JSON.stringify(edited));
    const result = page.locator('[data-import-result="imported"]');
    await expect(result.getByRole('status')).toContainText(`Imported ${file.services.length} services, `);
    await expect(page.locator('[data-toast="success"]')).toContainText('Imported');
    await expect(result).toBeFocused();

    await publicPage.reload();
    await expect(publicPage.locator('h1')).toHaveText(renamed);
    await publicPage.goto('/services');
    await expect(publicPage.locator('main')).toContainText(renamed);
    await visitor.close();

    // One entry in the activity log, named by the file; an import is not reverted from there.
    await result.getByRole('link', { name: 'See it in the activity log' }).click();
    await expect(page.locator('[data-entry]')).toHaveCount(1);
    await expect(page.locator('[data-summary]')).toHaveText(new RegExp(`^Imported edited-${stamp}\\.json: ${file.services.length} services, `));
    await expect(page.locator('[data-entry]').getByRole('button', { name: /^Revert/ })).toHaveCount(0);
  } finally {
    // The file downloaded first puts the demo content back, for the next spec.
    const restored = await request.post('/api/admin/content/import', {
      headers: { origin: baseURL!, 'content-type': 'application/octet-stream', 'x-file-name': original.name },
      data: original.text,
    });
    expect(restored.status(), await restored.text()).toBe(200);
  }
  expect(await contentSnapshot(request)).toEqual(before);
});
