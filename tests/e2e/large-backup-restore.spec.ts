/**
 * A backup the admin makes restores through the same page, up to the media quota (issue 18): a site with
 * about 65 MB of pictures exports a ~90 MB content file, which the page used to refuse (64 MiB), and whose
 * import held the whole file in memory. Now the file streams in, its images staged on disk one at a time.
 * This spec runs its own server, so it can watch that server's memory while the file goes through.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from './support/fixtures';
import sharp from 'sharp';
import { gotoHydrated, newAccount, signUpViaApi, verificationLink } from './support/accounts';
import { freePort } from './support/free-port';
import { startOwnServer, type OwnServer } from './support/own-server';

const MB = 1024 * 1024;
let base: string;
let dataDir: string;
let workDir: string;
let server: OwnServer;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(180_000);
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agency-large-backup-'));
  workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agency-large-backup-files-'));
  // The embedded database and the default media quota (whatever the suite's environment says).
  server = await startOwnServer(await freePort(), { DATA_DIR: dataDir, DATABASE_URL: '', TRUSTED_PROXY_IP_HEADER: '', MEDIA_QUOTA_BYTES: '' });
  base = server.url;
});

test.afterAll(async () => {
  await server?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.rmSync(workDir, { recursive: true, force: true });
});

/** The server's resident memory in MB (Linux). */
const rssMb = () => Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${server.child.pid}/status`, 'utf8'))?.[1] ?? NaN) / 1024;

/** The highest resident memory seen while `work` runs, sampled every 100 ms. */
async function peakRssDuring<T>(work: () => Promise<T>): Promise<{ result: T; peak: number }> {
  let peak = rssMb();
  const timer = setInterval(() => (peak = Math.max(peak, rssMb())), 100);
  try {
    return { result: await work(), peak: Math.max(peak, rssMb()) };
  } finally {
    clearInterval(timer);
  }
}

/** A photo-sized picture of noise (nothing compresses it): about 5.5 MB of lossless WebP. */
async function noisePicture(seed: number) {
  const width = 1360;
  const height = 1360;
  const pixels = Buffer.alloc(width * height * 3);
  let x = seed * 2654435761;
  for (let i = 0; i < pixels.length; i++) {
    x = (x ^ (x << 13)) >>> 0;
    x = (x ^ (x >>> 17)) >>> 0;
    x = (x ^ (x << 5)) >>> 0;
    pixels[i] = x & 0xff;
  }
  const data = await sharp(pixels, { raw: { width, height, channels: 3 } }).webp({ lossless: true, effort: 0 }).toBuffer();
  return { id: createHash('sha256').update(data).digest('hex').slice(0, 32), contentType: 'image/webp', width, height, alt: `Noise ${seed}`, data: data.toString('base64') };
}

async function importThroughPage(page: Page, file: string, name: string) {
  await gotoHydrated(page, `${base}/admin/content/transfer`);
  await page.getByLabel('Content file (.json)').setInputFiles(file);
  await page.getByRole('button', { name: 'Import', exact: true }).click();
  await page.getByRole('dialog', { name: `Import “${name}”?` }).getByRole('button', { name: 'Import' }).click();
}

test('a ~90 MB backup restores through the Backup and move page in bounded memory, and so does its own export', async ({ page, playwright }) => {
  test.setTimeout(420_000);
  const request = await playwright.request.newContext({ baseURL: base });
  const admin = newAccount('owner');
  expect((await signUpViaApi(request, base, admin)).status()).toBe(200);
  // The only account, verified: the admin by the first-account rule.
  expect((await request.get(await verificationLink(admin.email, undefined, dataDir), { maxRedirects: 0 })).status()).toBe(302);
  await page.context().addCookies((await request.storageState()).cookies);

  // 12 pictures of ~5.5 MB (65 MB, an eighth of the default 500 MB quota), each on a service.
  const media = await Promise.all(Array.from({ length: 12 }, (_, i) => noisePicture(i + 1)));
  const services = media.map((m, i) => ({ id: `big-${i}`, name: `Big picture ${i}`, picture: `/media/${m.id}.webp` }));
  const backup = path.join(workDir, 'large-backup.json');
  fs.writeFileSync(backup, JSON.stringify({ format: 'agency-site-content', version: 1, services, media }));
  const size = fs.statSync(backup).size;
  expect(size).toBeGreaterThan(80 * MB);

  const before = rssMb();
  const first = await peakRssDuring(async () => {
    await importThroughPage(page, backup, 'large-backup.json');
    await expect(page.locator('[data-import-result="imported"]').getByRole('status')).toContainText('12 images', { timeout: 300_000 });
  });
  // Within the memory the server runs with (a 512 MB heap, and the embedded database's own memory): the
  // file never sits in memory whole; its JSON (several times its size) was what took a server down.
  console.log(`large backup: RSS ${before.toFixed(0)} MB → peak ${first.peak.toFixed(0)} MB for a ${(size / MB).toFixed(0)} MB file`);
  expect(first.peak, `RSS ${before.toFixed(0)} → peak ${first.peak.toFixed(0)} MB for a ${(size / MB).toFixed(0)} MB file`).toBeLessThan(1100);
  // What was imported is served: a picture by its content-hash URL, byte for byte.
  const served = await fetch(`${base}/media/${media[3]!.id}.webp`);
  expect(served.status).toBe(200);
  expect(Buffer.from(await served.arrayBuffer()).toString('base64')).toBe(media[3]!.data);
  // Nothing of the import is left in the data folder.
  expect(fs.readdirSync(path.join(dataDir, 'import-staging'))).toEqual([]);

  // The site's own backup of all this (the download streams out) restores through the same page.
  await gotoHydrated(page, `${base}/admin/content/transfer`);
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download the content file' }).click()]);
  const saved = path.join(workDir, download.suggestedFilename());
  await download.saveAs(saved);
  expect(fs.statSync(saved).size).toBeGreaterThan(80 * MB);
  await importThroughPage(page, saved, download.suggestedFilename());
  // Everything on the site: the 12 pictures and services, and the demo content with its own.
  const restored = page.locator('[data-import-result="imported"]').getByRole('status');
  await expect(restored).toContainText(/Imported 18 services, .* \d+ images/, { timeout: 300_000 });
  expect(Number(/(\d+) images/.exec((await restored.textContent()) ?? '')?.[1])).toBeGreaterThan(12);
  expect((await fetch(`${base}/readyz`)).status).toBe(200);
  await request.dispose();
});
