/**
 * Pictures and the article editor as the owner uses them (issue 20, items 6, 7 and 14): a service's
 * picture chosen with its alt text shows it on the public page and offers it wherever the picture is
 * chosen next; a photo uploaded into an article's text (file chooser, paste, drop) is published with its
 * alt text; a new article is written by the signed-in admin; the article editor puts the writing first,
 * with a toolbar that stays in reach, and the other fields beside it (below on a phone). Everything made
 * here is deleted again.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, test, type Page } from './support/fixtures';
import sharp from 'sharp';
import { ADMIN_STATE, gotoHydrated, savedAccounts } from './support/accounts';
import { callAction } from './support/admin-actions';
import { richTextField } from './support/rich-text';

test.use({ storageState: ADMIN_STATE });

const unique = () => Math.random().toString(36).slice(2, 8);
const MEDIA_ID = /\/media\/([0-9a-f]{32})\.webp/;

const pngOf = (color: string, width = 640, height = 360) => sharp({ create: { width, height, channels: 3, background: color } }).png().toBuffer();

/** A file on the disk, as the file chooser would hand it over. */
async function diskFile(name: string, buffer: Buffer) {
  const file = test.info().outputPath(name);
  await writeFile(file, buffer);
  return file;
}

async function deleteMedia(page: Page, baseURL: string, id: string) {
  expect((await page.request.delete(`/api/admin/media/${id}`, { headers: { origin: baseURL } })).status()).toBe(204);
}

/** A paste or a drop of a file on the editable text, as the browser dispatches it. */
async function sendFileToText(page: Page, kind: 'paste' | 'drop', name: string, buffer: Buffer) {
  const text = richTextField(page, 'Content').locator('[contenteditable="true"]');
  await text.evaluate(
    (el, { kind, name, bytes }) => {
      const data = new DataTransfer();
      data.items.add(new File([new Uint8Array(bytes)], name, { type: 'image/png' }));
      const box = el.getBoundingClientRect();
      const event =
        kind === 'paste'
          ? new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true })
          : new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true, clientX: box.left + 20, clientY: box.bottom - 10 });
      el.dispatchEvent(event);
    },
    { kind, name, bytes: [...buffer] },
  );
}

test("a service's picture, chosen with its alt text, shows it on the public pages and is offered with it in another editor", async ({ page, baseURL }) => {
  const tag = unique();
  const alt = `A phone lighting up with a reply ${tag}`;
  await gotoHydrated(page, '/admin/services/new');
  await page.getByLabel('Name', { exact: true }).fill(`Picture alt ${tag}`);
  const field = page.locator('[data-image-field]').filter({ has: page.getByLabel('Picture URL') });
  const chooser = page.waitForEvent('filechooser');
  await field.getByRole('button', { name: /^Upload image/ }).click();
  await (await chooser).setFiles(await diskFile(`reply-${tag}.png`, await pngOf('#0f766e')));
  await expect(field.getByLabel('Picture URL')).toHaveValue(MEDIA_ID, { timeout: 20_000 });
  const mediaId = MEDIA_ID.exec(await field.getByLabel('Picture URL').inputValue())![1]!;

  // Without a description the service is not created: the rule of every chosen picture.
  await page.getByRole('button', { name: /^Create service/ }).click();
  const altField = field.getByLabel(/^Alt text/);
  await expect(altField).toHaveAttribute('aria-invalid', 'true');
  await expect(altField).toBeFocused();
  await altField.fill(alt);
  await page.getByRole('button', { name: /^Create service/ }).click();
  await expect(page).toHaveURL(/\/admin\/services\/picture-alt-/);
  const serviceId = new URL(page.url()).pathname.split('/').pop()!;

  try {
    // Stored on the picture itself…
    expect(await (await page.request.get(`/api/admin/media/${mediaId}`)).json()).toMatchObject({ alt });
    // …and the visitor's service page and the services list render it.
    const visitor = await page.context().browser()!.newPage();
    try {
      await visitor.goto(`/service/${serviceId}`);
      await expect(visitor.getByRole('img', { name: alt })).toBeVisible();
      await expect(visitor.locator(`img[src="/media/${mediaId}.webp"]`)).toHaveAttribute('alt', alt);
      await visitor.goto('/services');
      await expect(visitor.getByRole('img', { name: alt })).toHaveCount(1);
    } finally {
      await visitor.close();
    }

    // Another editor choosing the same picture gets its description with it.
    await gotoHydrated(page, '/admin/packages/new');
    const packagePicture = page.locator('[data-image-field]').filter({ has: page.getByLabel('Picture URL') });
    await packagePicture.getByRole('button', { name: /^Choose from library/ }).click();
    const library = page.getByRole('dialog', { name: 'Choose from the media library' });
    await library.getByLabel('Search images').fill(tag);
    await expect(library.getByRole('status')).toHaveText(/^1 image\./); // searched: no reflow under the click
    await library.getByRole('button', { name: new RegExp(alt) }).click();
    await expect(packagePicture.getByLabel(/^Alt text/)).toHaveValue(alt);
  } finally {
    expect((await callAction(page.request, baseURL!, 'admin.services.remove', { id: serviceId })).status).toBe(200);
    await deleteMedia(page, baseURL!, mediaId);
  }
});

test("a photo uploaded into an article's text (file chooser, paste, drop) is published with its alt text", async ({ page, baseURL }) => {
  test.setTimeout(90_000);
  const tag = unique();
  const title = `Pictures in the text ${tag}`;
  const shots = [
    { how: 'chosen', name: `chosen-${tag}.png`, color: '#1d4ed8', alt: `A whiteboard full of arrows ${tag}` },
    { how: 'pasted', name: `pasted-${tag}.png`, color: '#b45309', alt: `A screenshot of the booking calendar ${tag}` },
    { how: 'dropped', name: `dropped-${tag}.png`, color: '#15803d', alt: `The clinic's front desk ${tag}` },
  ] as const;

  await gotoHydrated(page, '/admin/articles/new');
  await page.getByLabel('Title').fill(title);
  const content = richTextField(page, 'Content');
  await content.locator('[contenteditable="true"]').click();
  await page.keyboard.type('Three pictures follow.');

  const dialog = page.getByRole('dialog', { name: 'Add picture' });
  for (const shot of shots) {
    const buffer = await pngOf(shot.color, 900, 500);
    if (shot.how === 'chosen') {
      await content.getByRole('button', { name: 'Picture', exact: true }).click();
      const chooser = page.waitForEvent('filechooser');
      await dialog.getByRole('button', { name: 'Upload a picture' }).click();
      await (await chooser).setFiles(await diskFile(shot.name, buffer));
    } else {
      await sendFileToText(page, shot.how === 'pasted' ? 'paste' : 'drop', shot.name, buffer);
    }
    await expect(dialog).toBeVisible();
    // Uploaded to the library like any picture, then its description is asked for.
    await expect(dialog.getByLabel('Picture address')).toHaveValue(MEDIA_ID, { timeout: 20_000 });
    const altField = dialog.getByLabel('Description (alt text)');
    await expect(altField).toBeFocused();
    await dialog.getByRole('button', { name: 'Add picture' }).click();
    await expect(altField).toHaveAttribute('aria-invalid', 'true'); // not without one
    await altField.fill(shot.alt);
    await dialog.getByRole('button', { name: 'Add picture' }).click();
    await expect(dialog).toBeHidden();
    await expect(content.locator(`img[alt="${shot.alt}"]`)).toBeVisible();
    await content.locator('[contenteditable="true"]').press('End');
  }
  const srcs = await Promise.all(shots.map((s) => content.locator(`img[alt="${s.alt}"]`).getAttribute('src')));
  const ids = srcs.map((src) => MEDIA_ID.exec(src ?? '')![1]!);

  await page.getByLabel('Published').check();
  await page.getByRole('button', { name: /Create article/ }).click();
  await page.waitForURL(/\/admin\/articles\/(?!new)[^/?]+(\?|$)/);
  const articleId = new URL(page.url()).pathname.split('/').pop()!;
  const slug = await page.getByLabel('Slug').inputValue();
  try {
    const visitor = await page.context().browser()!.newPage();
    try {
      await visitor.goto(`/article/${slug}`);
      for (const [i, shot] of shots.entries()) {
        await expect(visitor.getByRole('img', { name: shot.alt })).toBeVisible();
        await expect(visitor.getByRole('img', { name: shot.alt })).toHaveAttribute('src', `/media/${ids[i]}.webp`);
      }
    } finally {
      await visitor.close();
    }
    // Each is in the media library with the description given for it, offered when it is chosen again.
    for (const [i, shot] of shots.entries()) expect(await (await page.request.get(`/api/admin/media/${ids[i]}`)).json()).toMatchObject({ alt: shot.alt });
  } finally {
    expect((await callAction(page.request, baseURL!, 'admin.articles.remove', { id: articleId })).status).toBe(200);
    for (const id of ids) await deleteMedia(page, baseURL!, id);
  }
});

test("a new article's author is the signed-in admin", async ({ page }) => {
  const { admin } = savedAccounts();
  await gotoHydrated(page, '/admin/articles/new');
  await expect(page.getByLabel('Author name')).toHaveValue(`${admin.firstName} ${admin.lastName}`);
  await expect(page.getByText('You, from your account. Change it to credit someone else.')).toBeVisible();
});

test('the article editor writes first: a tall text, its toolbar in reach while writing long text, the other fields beside it (below on a phone)', async ({ page }) => {
  const shotsDir = process.env.SCREENSHOT_DIR;
  const longText = Array.from({ length: 40 }, (_, i) => `<p>Paragraph ${i + 1}: every missed call gets a text back within a minute, and the booking link does the rest.</p>`).join('');

  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await gotoHydrated(page, '/admin/articles/new');
    const writing = page.locator('[data-writing-area]');
    const panel = page.getByRole('complementary', { name: 'Article settings' });
    const [w, p] = [await writing.boundingBox(), await panel.boundingBox()];
    if (width === 1280) {
      expect(p!.x, 'the settings sit beside the text').toBeGreaterThan(w!.x + w!.width - 1);
      expect(w!.width, 'the text is the wide column').toBeGreaterThan(p!.width * 1.5);
    } else {
      expect(p!.y, 'the settings follow the text on a phone').toBeGreaterThan(w!.y + w!.height - 1);
    }
    if (shotsDir) await page.screenshot({ path: path.join(shotsDir, `article-editor-${width}.png`), fullPage: true });

    // A long text: the area grows with it (no inner scroll), and the toolbar stays on screen at its end.
    const content = richTextField(page, 'Content');
    await content.getByRole('tab', { name: 'HTML' }).click();
    await content.getByRole('textbox', { name: 'Content HTML', exact: true }).fill(longText);
    await content.getByRole('tab', { name: 'Write' }).click();
    const text = content.locator('[contenteditable="true"]');
    await expect(text).toContainText('Paragraph 40');
    const box = await text.boundingBox();
    expect(box!.height, 'the writing area grows with the text').toBeGreaterThan(1500);
    await text.locator('p').last().click();
    await page.keyboard.press('End');
    const toolbar = content.getByRole('toolbar');
    const bar = await toolbar.boundingBox();
    expect(bar!.y, 'the toolbar is in view while writing at the end').toBeGreaterThanOrEqual(0);
    expect(bar!.y + bar!.height).toBeLessThan(width === 390 ? 844 : 900);
    const saveBar = await page.locator('[data-save-state]').boundingBox();
    expect(bar!.y, 'below the save bar, not under it').toBeGreaterThanOrEqual(saveBar!.y + saveBar!.height - 1);
    if (shotsDir) await page.screenshot({ path: path.join(shotsDir, `article-editor-${width}-writing.png`) });
  }

  if (shotsDir) {
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
      await gotoHydrated(page, '/admin/services/new');
      // With a library picture chosen: its alt text comes along, beside it.
      await page.getByRole('button', { name: /^Choose from library/ }).click();
      await page.getByRole('dialog', { name: 'Choose from the media library' }).locator('button[data-media-choice]').first().click();
      await expect(page.getByLabel(/^Alt text/)).not.toHaveValue('');
      await page.evaluate(() => window.scrollTo(0, 0)); // a full-page shot from the top: sticky bars in place
      await page.screenshot({ path: path.join(shotsDir, `service-editor-${width}.png`), fullPage: true });
    }
  }
});
