/**
 * Images, as the admin uses them: a real JPEG (with EXIF) and a real PNG uploaded through the image field of
 * the service editor (progress shown, a failed try retried), saved, and served by the public service page
 * as 400 and 800 px WebP variants with immutable caching and no EXIF; an image chosen from the library with
 * the keyboard and seen on the public page, and one placed in a description through the rich-text field's
 * picture dialog; the library page (search, alt text, delete refused while a service uses the image,
 * allowed after); the same headers whether an image comes from the database or from memory, a 304 for one
 * the browser holds, and a deleted one gone at once; clear messages for a 20 MB file, a text file renamed
 * .png, a truncated JPEG and a decompression bomb with nothing stored; and the API refused to a member and
 * a visitor. The quota (402) is covered by tests/integration/media-library.test.ts: it needs a server
 * started with a small MEDIA_QUOTA_BYTES.
 */
import { writeFile } from 'node:fs/promises';
import http from 'node:http';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type APIRequestContext, type Locator, type Page } from './support/fixtures';
import sharp from 'sharp';
import { EXIF_SECRETS, photoJpeg, pngBomb } from '../support/image-files';
import { ADMIN_STATE, MEMBER_STATE, gotoHydrated } from './support/accounts';
import { callAction } from './support/admin-actions';
import { richTextField } from './support/rich-text';

const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
const IMMUTABLE = 'public, max-age=31536000, immutable';
const MEDIA_URL = /^\/media\/([0-9a-f]{32})\.webp$/;

const logoPng = () =>
  sharp({ create: { width: 1000, height: 600, channels: 4, background: '#1d4ed8' } })
    .composite([{ input: Buffer.from('<svg width="1000" height="600"><circle cx="500" cy="300" r="200" fill="#facc15"/></svg>') }])
    .png()
    .toBuffer();

const pictureField = (page: Page) => page.locator('[data-image-field]').filter({ has: page.getByLabel('Picture URL') });

/** Chooses a file as a person would: from the disk (the browser reads it there; its type comes from the name). */
async function chooseFile(page: Page, field: Locator, file: { name: string; buffer: Buffer }) {
  const path = test.info().outputPath(file.name);
  await writeFile(path, file.buffer);
  const chooser = page.waitForEvent('filechooser');
  await field.getByRole('button', { name: /^(Upload|Replace) image/ }).click();
  await (await chooser).setFiles(path);
}

/**
 * The status the server answers to an upload whose headers declare `length` bytes, before any byte of the
 * body is sent (sending 20 MB to a server that has already answered and closed races into EPIPE).
 */
function statusForDeclaredBody(url: string, headers: Record<string, string>, length: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: 'POST', headers: { ...headers, 'content-type': 'multipart/form-data; boundary=x', 'content-length': length } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
      req.destroy();
    });
    req.on('error', reject);
    req.flushHeaders();
  });
}

/** The public service page offers the stored image's variants, each served as WebP of its width, cached for a year. */
async function expectServedWithVariants(request: APIRequestContext, serviceId: string, mediaId: string, originalWidth: number) {
  const page = await request.get(`/service/${serviceId}`);
  expect(page.status()).toBe(200);
  const html = await page.text();
  expect(html).toContain(`/media/${mediaId}-w400.webp 400w`);
  expect(html).toContain(`/media/${mediaId}-w800.webp 800w`);
  for (const [suffix, width] of [['-w400', 400], ['-w800', 800], ['', originalWidth]] as const) {
    const res = await request.get(`/media/${mediaId}${suffix}.webp`);
    expect(res.status(), suffix).toBe(200);
    expect(res.headers()['content-type']).toBe('image/webp');
    expect(res.headers()['cache-control'], suffix).toBe(IMMUTABLE);
    const body = await res.body();
    expect((await sharp(body).metadata()).width, suffix).toBe(width);
    expect((await sharp(body).metadata()).exif, `${suffix}: no EXIF`).toBeUndefined();
    for (const secret of EXIF_SECRETS) expect(body.includes(secret), `${suffix}: ${secret}`).toBe(false);
  }
}

test.describe('as the admin', () => {
  test.use({ storageState: ADMIN_STATE });

  test('uploads a JPEG and a PNG through the service editor with progress; the public page serves their variants with immutable caching', async ({ page, request }) => {
    test.setTimeout(90_000);
    const name = `Media check ${unique()}`;
    await gotoHydrated(page, '/admin/services/new');
    await page.getByLabel('Name', { exact: true }).fill(name);
    const field = pictureField(page);
    const url = field.getByLabel('Picture URL');

    // A slow uplink, so the progress is there to see.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 20, downloadThroughput: -1, uploadThroughput: 400_000 });
    const jpeg = await photoJpeg(1800, 1200);
    expect((await sharp(jpeg).metadata()).exif, 'the test photo carries EXIF').toBeDefined();
    await chooseFile(page, field, { name: 'team-photo.jpg', buffer: jpeg });
    const progress = field.getByRole('progressbar', { name: 'Uploading team-photo.jpg' });
    await expect(progress).toBeVisible();
    await expect(field.getByText('Uploading team-photo.jpg…')).toBeVisible();
    await expect.poll(async () => Number(await progress.getAttribute('aria-valuenow')), { timeout: 20_000 }).toBeGreaterThan(0);
    await expect(url).toHaveValue(MEDIA_URL, { timeout: 30_000 });
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
    await expect(progress).toHaveCount(0);
    await expect(field.getByText('team-photo.jpg · 1600×1067')).toBeVisible();
    const jpegId = MEDIA_URL.exec(await url.inputValue())![1]!;
    // A new picture has no description yet: it is asked for beside it, as on every picture (decision 033).
    await field.getByLabel(/^Alt text/).fill('The team around a table');

    await page.getByRole('button', { name: /^Create service/ }).click();
    await expect(page).toHaveURL(/\/admin\/services\/media-check-/);
    const serviceId = new URL(page.url()).pathname.split('/').pop()!;
    await expectServedWithVariants(request, serviceId, jpegId, 1600);

    // The PNG replaces it; the first try fails on the network and is retried, visibly.
    await gotoHydrated(page, `/admin/services/${serviceId}`);
    let tries = 0;
    await page.route('**/api/admin/media', (route) => (tries++ === 0 ? route.abort('failed') : route.continue()));
    await chooseFile(page, pictureField(page), { name: 'logo.png', buffer: await logoPng() });
    await expect(pictureField(page).locator('[data-upload-progress]').getByText('Retrying upload…')).toBeVisible();
    await expect(pictureField(page).getByLabel('Picture URL')).not.toHaveValue(`/media/${jpegId}.webp`, { timeout: 20_000 });
    const pngUrl = await pictureField(page).getByLabel('Picture URL').inputValue();
    expect(pngUrl).toMatch(MEDIA_URL);
    expect(tries).toBe(2);
    await expect(pictureField(page).getByText('logo.png · 1000×600')).toBeVisible();
    // The new picture comes with its own (empty) description, not the old one's.
    await expect(pictureField(page).getByLabel(/^Alt text/)).toHaveValue('');
    await pictureField(page).getByLabel(/^Alt text/).fill('The agency logo');
    await page.getByRole('button', { name: /^Save/ }).click();
    await expect(page.getByText('All changes saved')).toBeVisible();
    await expectServedWithVariants(request, serviceId, MEDIA_URL.exec(pngUrl)![1]!, 1000);
  });

  test('chooses an image from the library with the keyboard', async ({ page, baseURL }) => {
    const alt = `Library pick ${unique()}`;
    const uploaded = await page.request.post('/api/admin/media', {
      headers: { origin: baseURL! },
      multipart: { file: { name: 'pick.png', mimeType: 'image/png', buffer: await sharp({ create: { width: 900, height: 500, channels: 3, background: '#059669' } }).png().toBuffer() }, alt },
    });
    expect(uploaded.status()).toBe(201);
    const item = (await uploaded.json()) as { url: string; width: number; alt: string };
    expect(item).toMatchObject({ width: 900, alt });

    await gotoHydrated(page, '/admin/services/new');
    await page.getByLabel('Name', { exact: true }).fill(`Library choice ${unique()}`);
    await pictureField(page).getByRole('button', { name: /^Choose from library/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Choose from the media library' });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByLabel('Search images')).toBeFocused();
    await page.keyboard.type(alt);
    await page.keyboard.press('Enter'); // searching, not saving the editor behind the dialog
    // Searched: the grid holds the one image (the unsearched grid may hold it too, among others).
    await expect(dialog.getByRole('status')).toHaveText(/^1 image\./);
    await expect(dialog.getByRole('button', { name: new RegExp(alt) })).toHaveCount(1);
    const axe = await new AxeBuilder({ page }).include('dialog').withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
    expect(axe.violations.map((v) => v.id)).toEqual([]);
    await page.keyboard.press('Tab');
    await expect(dialog.getByRole('button', { name: new RegExp(alt) })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(dialog).toBeHidden();
    await expect(pictureField(page).getByLabel('Picture URL')).toHaveValue(item.url);
    await expect(pictureField(page).getByText('pick.png · 900×500')).toBeVisible();
    await expect(page).toHaveURL(/\/admin\/services\/new$/); // Enter in the search did not submit the editor

    // A replacement that fails leaves the chosen image in place, and says so.
    await chooseFile(page, pictureField(page), { name: 'scan.jpg', buffer: Buffer.from('not a picture either') });
    await expect(pictureField(page).getByText('scan.jpg was not uploaded. The file is not an image that can be read. The current image is kept.')).toBeVisible();
    await expect(pictureField(page).getByLabel('Picture URL')).toHaveValue(item.url);

    await page.getByRole('button', { name: /^Create service/ }).click();
    await expect(page).toHaveURL(/\/admin\/services\/library-choice-/);
    const html = await (await page.request.get(`/service/${new URL(page.url()).pathname.split('/').pop()}`)).text();
    expect(html).toContain(`src="${item.url}"`);
  });

  test("the rich-text field's picture dialog takes an image from the library with its alt text; visitors see it in the description", async ({ page, baseURL }) => {
    const alt = `Team at work ${unique()}`;
    const uploaded = await page.request.post('/api/admin/media', {
      headers: { origin: baseURL! },
      multipart: { file: { name: 'team.png', mimeType: 'image/png', buffer: await sharp({ create: { width: 700, height: 400, channels: 3, background: '#7c3aed' } }).png().toBuffer() }, alt },
    });
    expect(uploaded.status()).toBe(201);
    const item = (await uploaded.json()) as { url: string };

    await gotoHydrated(page, '/admin/services/new');
    await page.getByLabel('Name', { exact: true }).fill(`Rich picture ${unique()}`);
    const description = richTextField(page, 'Description');
    await description.getByRole('textbox').first().click();
    await page.keyboard.type('Our team: ');
    await description.getByRole('button', { name: 'Picture', exact: true }).click();
    const pictureDialog = page.getByRole('dialog', { name: 'Add picture' });
    await expect(pictureDialog).toBeVisible();
    await pictureDialog.getByRole('button', { name: 'Choose from the media library' }).click();
    const library = page.getByRole('dialog', { name: 'Choose from the media library' });
    await expect(library.getByLabel('Search images')).toBeFocused();
    await page.keyboard.type(alt);
    await page.keyboard.press('Enter');
    // The search has answered (its one image moved to the top of the grid) before the click: a click while the
    // grid reflows lands where the image was.
    await expect(library.getByRole('status')).toHaveText(/^1 image\./);
    await library.getByRole('button', { name: new RegExp(alt) }).click();
    await expect(library).toBeHidden();
    // The picture dialog is still open, filled with the library's address and its stored description.
    await expect(pictureDialog.getByLabel('Picture address')).toHaveValue(item.url);
    await expect(pictureDialog.getByLabel('Description (alt text)')).toHaveValue(alt);
    await expect(pictureDialog.locator(`img[src="${item.url}"]`)).toBeVisible();
    await pictureDialog.getByRole('button', { name: 'Add picture' }).click();
    await expect(pictureDialog).toBeHidden();
    await expect(description.locator(`img[src="${item.url}"][alt="${alt}"]`)).toBeVisible();

    await page.getByRole('button', { name: /^Create service/ }).click();
    await expect(page).toHaveURL(/\/admin\/services\/rich-picture-/);
    const serviceId = new URL(page.url()).pathname.split('/').pop()!;
    try {
      const html = await (await page.request.get(`/service/${serviceId}`)).text();
      expect(html).toMatch(new RegExp(`<img src="${item.url.replace(/[.]/g, '\\.')}" alt="${alt}"`));
    } finally {
      expect((await callAction(page.request, baseURL!, 'admin.services.remove', { id: serviceId })).status).toBe(200);
    }
  });

  test('a 20 MB file, a text file renamed .png, a truncated JPEG and a decompression bomb each get a clear message beside the field; nothing is stored', async ({ page, baseURL }) => {
    const tag = unique();
    const jpeg = await photoJpeg(600, 400);
    await gotoHydrated(page, '/admin/services/new');
    const field = pictureField(page);
    const url = field.getByLabel('Picture URL');
    const cases = [
      { name: `huge-${tag}.jpg`, buffer: Buffer.alloc(20 * 1024 * 1024, 7), message: 'This file is 20 MB: images can be at most 10 MB. Make it smaller (for example, export it at 2000 pixels wide) and upload it again.' },
      { name: `notes-${tag}.png`, buffer: Buffer.from('Meeting notes: call the dentist on Monday.\n'.repeat(40)), message: 'The file is not an image that can be read.' },
      { name: `cut-${tag}.jpg`, buffer: jpeg.subarray(0, Math.floor(jpeg.length / 2)), message: 'The image is damaged and cannot be read.' },
      // 50,000 × 50,000 pixels declared in a file of a few hundred bytes: 7.5 GB once decoded.
      { name: `bomb-${tag}.png`, buffer: pngBomb(50_000), message: 'The image has too many pixels (40 megapixels at most).' },
    ];
    for (const file of cases) {
      await chooseFile(page, field, file);
      await expect(field.getByText(`${file.name} was not uploaded. ${file.message}`, { exact: true })).toBeVisible();
      await expect(field.locator('[data-upload-progress]')).toHaveCount(0);
      await expect(url).toHaveValue('');
      await expect(url).toHaveAttribute('aria-invalid', 'true');
    }
    // Only the last message is shown: each new try replaces the previous one.
    await expect(field.getByText(/was not uploaded/)).toHaveCount(1);

    // The server refuses the same on its own: a declared 20 MB body is refused before any of it is read…
    const cookie = (await page.context().cookies(baseURL)).map((c) => `${c.name}=${c.value}`).join('; ');
    expect(await statusForDeclaredBody(`${baseURL}/api/admin/media`, { origin: baseURL!, cookie }, 20 * 1024 * 1024)).toBe(413);
    const renamed = await page.request.post('/api/admin/media', {
      headers: { origin: baseURL! },
      multipart: { file: { name: `notes-${tag}.png`, mimeType: 'image/png', buffer: Buffer.from('not a picture') } },
    });
    expect(renamed.status()).toBe(400);
    expect(await renamed.json()).toEqual({ code: 'storage/invalid-file', message: 'The file is not an image that can be read.' });
    // …and the library holds none of them.
    const listed = (await (await page.request.get(`/api/admin/media?q=${tag}`)).json()) as { total: number };
    expect(listed.total).toBe(0);
  });

  test('/admin/media lists, searches, edits alt text, and deletes an image only once no page uses it; axe finds nothing', async ({ page, context, baseURL }) => {
    test.setTimeout(90_000);
    const tag = unique();
    const upload = async (name: string, color: string) =>
      (await (
        await page.request.post('/api/admin/media', {
          headers: { origin: baseURL! },
          multipart: { file: { name, mimeType: 'image/png', buffer: await sharp({ create: { width: 640, height: 360, channels: 3, background: color } }).png().toBuffer() } },
        })
      ).json()) as { id: string; url: string };
    const unused = await upload(`unused-${tag}.png`, '#7c3aed');
    const used = await upload(`used-${tag}.png`, '#be123c');

    await gotoHydrated(page, `/admin/media?q=${tag}`);
    await expect(page.getByText(`2 images matching “${tag}”`)).toBeVisible();
    const card = page.locator(`[data-media-item="${unused.id}"]`);
    await expect(card.getByText('Not used on the site.')).toBeVisible();
    const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
    expect(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(' ')}`)).toEqual([]);

    // Alt text: saved, found by search, kept after a reload.
    await card.getByLabel('Alt text').fill(`A purple square ${tag}`);
    await card.getByRole('button', { name: 'Save alt text' }).click();
    await expect(page.getByText(`Alt text of “unused-${tag}.png” saved.`)).toBeVisible();
    await gotoHydrated(page, `/admin/media?q=${encodeURIComponent(`purple square ${tag}`)}`);
    await expect(page.getByText(`1 image matching “purple square ${tag}”`)).toBeVisible();
    await expect(page.locator(`[data-media-item="${unused.id}"]`).getByLabel('Alt text')).toHaveValue(`A purple square ${tag}`);

    // The library page is open when, in another tab, a new service starts showing the other image.
    await gotoHydrated(page, `/admin/media?q=used-${tag}`);
    const usedCard = page.locator(`[data-media-item="${used.id}"]`);
    await expect(usedCard.getByText('Not used on the site.')).toBeVisible();
    const editor = await context.newPage();
    const serviceName = `Uses it ${tag}`;
    await gotoHydrated(editor, '/admin/services/new');
    await editor.getByLabel('Name', { exact: true }).fill(serviceName);
    await pictureField(editor).getByLabel('Picture URL').fill(used.url); // an address typed by hand works too
    await pictureField(editor).getByLabel(/^Alt text/).fill(`A red square ${tag}`);
    await editor.getByRole('button', { name: /^Create service/ }).click();
    await expect(editor).toHaveURL(/\/admin\/services\/uses-it-/);
    const serviceId = new URL(editor.url()).pathname.split('/').pop()!;
    expect(await (await page.request.get(`/service/${serviceId}`)).text()).toContain(`/media/${used.id}-w400.webp`);

    // Deleting it from the stale page is refused with the reason, and the card now says where it is used.
    await usedCard.getByRole('button', { name: /^Delete/ }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    const inUse = `This image cannot be deleted: it is used by Service “${serviceName}” (picture). Replace it there first.`;
    await expect(page.getByText(inUse)).toBeVisible();
    await expect(usedCard.getByRole('link', { name: `Service “${serviceName}” (picture)` })).toBeVisible();
    await expect(usedCard.getByRole('button', { name: /^Delete/ })).toHaveCount(0);
    const refused = await page.request.delete(`/api/admin/media/${used.id}`, { headers: { origin: baseURL! } });
    expect(refused.status()).toBe(409);
    expect(await refused.json()).toMatchObject({ code: 'storage/in-use', message: inUse });
    expect((await page.request.get(used.url)).status()).toBe(200);

    // Once the service no longer shows it, it can go.
    await pictureField(editor).getByRole('button', { name: /^Remove/ }).click();
    await editor.getByRole('button', { name: /^Save/ }).click();
    await expect(editor.getByText('All changes saved')).toBeVisible();
    await editor.close();
    await gotoHydrated(page, `/admin/media?q=${tag}`);
    for (const [item, name] of [[used, `used-${tag}.png`], [unused, `unused-${tag}.png`]] as const) {
      const itemCard = page.locator(`[data-media-item="${item.id}"]`);
      await expect(itemCard.getByText('Not used on the site.')).toBeVisible();
      await itemCard.getByRole('button', { name: /^Delete/ }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
      await expect(page.getByText(`Deleted “${name}”.`)).toBeVisible();
      await expect(itemCard).toHaveCount(0);
      expect((await page.request.get(item.url)).status()).toBe(404);
    }
  });

  test('an image is answered alike from the database and from memory; a held one is a 304 without its bytes; a deleted one is gone at once', async ({ page, request, baseURL }) => {
    const colour = `#${Math.floor(Math.random() * 0xffffff).toString(16).padStart(6, '0')}`;
    const uploaded = await page.request.post('/api/admin/media', {
      headers: { origin: baseURL! },
      multipart: { file: { name: `cache-${unique()}.png`, mimeType: 'image/png', buffer: await sharp({ create: { width: 1000, height: 700, channels: 3, background: colour } }).png().toBuffer() } },
    });
    expect(uploaded.status()).toBe(201);
    const { id } = (await uploaded.json()) as { id: string };
    // Headers that say when and how, not what: everything else must be the same whichever way it is served.
    const what = (res: { headers(): Record<string, string> }) => Object.entries(res.headers()).filter(([name]) => !['date', 'connection', 'keep-alive'].includes(name)).sort();

    for (const file of [`${id}.webp`, `${id}-w400.webp`]) {
      const fromDatabase = await request.get(`/media/${file}`); // the first request: through Astro
      const fromMemory = await request.get(`/media/${file}`); // then from the media cache, before Astro
      expect(fromDatabase.status(), file).toBe(200);
      expect(fromMemory.status(), file).toBe(200);
      expect(what(fromMemory), file).toEqual(what(fromDatabase));
      expect(fromMemory.headers()['cache-control']).toBe(IMMUTABLE);
      expect(fromMemory.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
      expect(fromMemory.headers()['x-content-type-options']).toBe('nosniff');
      expect((await fromMemory.body()).equals(await fromDatabase.body()), file).toBe(true);

      const held = await request.get(`/media/${file}`, { headers: { 'If-None-Match': fromMemory.headers()['etag']! } });
      expect(held.status(), file).toBe(304);
      expect((await held.body()).length).toBe(0);
      expect(held.headers()['cache-control']).toBe(IMMUTABLE);
      expect(held.headers()['etag']).toBe(fromMemory.headers()['etag']);
      expect(held.headers()['x-frame-options']).toBe('DENY');
    }

    expect((await page.request.delete(`/api/admin/media/${id}`, { headers: { origin: baseURL! } })).status()).toBe(204);
    for (const file of [`${id}.webp`, `${id}-w400.webp`, `${id}-w800.webp`]) expect((await request.get(`/media/${file}`)).status(), file).toBe(404);
  });
});

test.describe('refused', () => {
  const png = () => sharp({ create: { width: 10, height: 10, channels: 3, background: '#000' } }).png().toBuffer();

  test('a visitor gets 401 storage/unauthenticated from the media API', async ({ request, baseURL }) => {
    const res = await request.post('/api/admin/media', { headers: { origin: baseURL! }, multipart: { file: { name: 'x.png', mimeType: 'image/png', buffer: await png() } } });
    expect(res.status()).toBe(401);
    expect(res.headers()['cache-control']).toBe('private, no-store');
    expect(await res.json()).toEqual({ code: 'storage/unauthenticated', message: expect.stringContaining('Log in again') });
    expect((await request.get('/api/admin/media')).status()).toBe(401);
  });

  test.describe('a member', () => {
    test.use({ storageState: MEMBER_STATE });
    test('gets 403 storage/unauthorized for uploads, the list, alt text and delete; nothing is stored', async ({ request, baseURL, playwright }) => {
      const name = `member-${unique()}.png`;
      const res = await request.post('/api/admin/media', { headers: { origin: baseURL! }, multipart: { file: { name, mimeType: 'image/png', buffer: await png() } } });
      expect(res.status()).toBe(403);
      expect(await res.json()).toEqual({ code: 'storage/unauthorized', message: 'Only an admin can manage images.' });
      expect((await request.get('/api/admin/media')).status()).toBe(403);
      const id = '0'.repeat(32);
      expect((await request.patch(`/api/admin/media/${id}`, { headers: { origin: baseURL! }, data: { alt: 'x' } })).status()).toBe(403);
      expect((await request.delete(`/api/admin/media/${id}`, { headers: { origin: baseURL! } })).status()).toBe(403);
      expect((await request.get('/admin/media', { maxRedirects: 0 })).headers()['location']).toBe('/dashboard');

      const admin = await playwright.request.newContext({ baseURL, storageState: ADMIN_STATE });
      const listed = (await (await admin.get(`/api/admin/media?q=${name}`)).json()) as { total: number };
      await admin.dispose();
      expect(listed.total).toBe(0);
    });
  });
});
