/**
 * The media library (src/server/modules/media-library, /api/admin/media): admin-only uploads validated by
 * decoding, EXIF gone, width and height stored, the seed's storage errors with clear messages, the quota,
 * alt text, search, and no deleting an image a page still shows. Through the route handlers where the
 * answer matters (status, code, message), through the module for the rules.
 */
import { and, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { GET as listRoute, POST as uploadRoute } from '../../src/pages/api/admin/media/index';
import { DELETE as deleteRoute, GET as itemRoute, PATCH as patchRoute } from '../../src/pages/api/admin/media/[id]';
import { parseConfig } from '../../src/server/config';
import { mediaFastPath } from '../../src/server/media/fast-path';
import { mediaResponse } from '../../src/server/media/serve';
import { activityLog, appConfig, articles, media } from '../../src/server/db/schema';
import { guardDecision } from '../../src/server/guards';
import { readSession } from '../../src/server/guards/session';
import { createRecord } from '../../src/server/modules/content/service';
import { deleteMedia, libraryPage, updateMediaAlt, uploadMedia } from '../../src/server/modules/media-library/service';
import { storageRefusal } from '../../src/shared/media-library';
import { createAuthHarness, type AuthHarness, type Browser } from '../support/auth';
import { EXIF_SECRETS, photoJpeg, pngBomb } from '../support/image-files';

/** The operator's MEDIA_QUOTA_BYTES as the routes read it (config() is parsed once per process). */
const operator = vi.hoisted(() => ({ quotaBytes: undefined as number | undefined }));
vi.mock('../../src/server/config', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/server/config')>();
  return { ...real, config: () => (operator.quotaBytes === undefined ? real.config() : { ...real.config(), MEDIA_QUOTA_BYTES: operator.quotaBytes }) };
});

let h: AuthHarness;
let admin: { browser: Browser; userId: string };
let member: { browser: Browser; userId: string };
beforeEach(async () => {
  h = await createAuthHarness();
  admin = await h.signUpVerified({ email: 'owner@example.com' });
  member = await h.signUpVerified({ email: 'member@example.com' });
});
afterEach(() => {
  operator.quotaBytes = undefined;
  return h.close();
});

// ---- Files ---------------------------------------------------------------------------------------------

const png = (width: number, height: number) => sharp({ create: { width, height, channels: 4, background: '#2553e0aa' } }).png().toBuffer();

// ---- Calling the routes ----------------------------------------------------------------------------------

const BASE = 'http://localhost:4321/api/admin/media';
type Who = 'visitor' | 'member' | 'admin';
const localsOf = (who: Who) => (who === 'visitor' ? {} : { user: { id: who === 'admin' ? admin.userId : member.userId } });

/** The multipart body as bytes, the way the server's adapter hands it over (a stream of what arrived). */
async function uploadRequest(file: Uint8Array | Buffer, name: string, type: string, alt?: string) {
  const form = new FormData();
  form.set('file', new File([new Uint8Array(file)], name, { type }));
  if (alt !== undefined) form.set('alt', alt);
  const encoded = new Response(form);
  return new Request(BASE, { method: 'POST', headers: { 'content-type': encoded.headers.get('content-type')! }, body: await encoded.arrayBuffer() });
}

async function upload(who: Who, file: Uint8Array | Buffer, name = 'photo.jpg', type = 'image/jpeg', alt?: string) {
  const res = await uploadRoute({ locals: localsOf(who), request: await uploadRequest(file, name, type, alt) } as never);
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function route(handler: typeof itemRoute, who: Who, id: string, init?: RequestInit) {
  const res = await handler({ locals: localsOf(who), params: { id }, request: new Request(`${BASE}/${id}`, init) } as never);
  return { status: res.status, body: res.status === 204 ? undefined : ((await res.json()) as Record<string, unknown>) };
}

const patchAlt = (who: Who, id: string, alt: unknown) =>
  route(patchRoute, who, id, { method: 'PATCH', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ alt }) });

const storedRow = async (id: string) => (await h.handle.db.select().from(media).where(eq(media.id, id)))[0];
const mediaActivity = () => h.handle.db.select().from(activityLog).where(eq(activityLog.entityType, 'media')).orderBy(activityLog.at);

// ---- Tests ---------------------------------------------------------------------------------------------

describe('who may use the media library', () => {
  it('a visitor gets 401 storage/unauthenticated and a member 403 storage/unauthorized, from the guard and from the route itself', async () => {
    const file = await png(40, 40);
    // The route guard, as the middleware runs it with the session it read…
    for (const [browser, status] of [[undefined, 401], [member.browser, 403], [admin.browser, undefined]] as const) {
      const found = await readSession(new Headers(browser ? { cookie: browser.cookieHeader } : {}), (hs) => h.auth.api.getSession({ headers: hs }));
      const decision = guardDecision('/api/admin/media', found?.user);
      if (status) expect(decision).toMatchObject({ kind: 'deny', status });
      else expect(decision).toEqual({ kind: 'allow' });
    }
    // …answered in the storage catalogue (src/middleware.ts uses storageRefusal for /api/admin/media)…
    expect(storageRefusal(401, 'No user logged in')).toEqual({ code: 'storage/unauthenticated', message: expect.stringContaining('signed out') });
    expect(storageRefusal(403, '')).toEqual({ code: 'storage/unauthorized', message: 'Only an admin can manage images.' });
    // …and the route refuses on its own too, storing nothing.
    expect(await upload('visitor', file)).toEqual({ status: 401, body: { code: 'storage/unauthenticated', message: expect.stringContaining('Log in again') } });
    expect(await upload('member', file)).toEqual({ status: 403, body: { code: 'storage/unauthorized', message: 'Only an admin can manage images.' } });
    expect((await listRoute({ locals: localsOf('member'), url: new URL(BASE) } as never)).status).toBe(403);
    await expect(uploadMedia(member.userId, { bytes: file })).rejects.toMatchObject({ code: 'storage/unauthorized', status: 403 });
    expect(await h.handle.db.select({ id: media.id }).from(media)).toEqual([]);
    expect(await mediaActivity()).toEqual([]);
  });
});

describe('uploads', () => {
  it('accepts a real JPEG: EXIF (camera, owner, GPS) is gone, orientation applied, width and height stored, recorded', async () => {
    const jpeg = await photoJpeg(1200, 800, 6);
    expect((await sharp(jpeg).metadata()).exif).toBeDefined(); // the test file really carries EXIF
    expect(jpeg.includes('Secret Owner')).toBe(true);

    const { status, body } = await upload('admin', jpeg, 'team photo.jpg', 'image/jpeg', 'Our team at work');
    expect(status).toBe(201);
    const id = body.id as string;
    // Orientation 6 means "rotate 90°": stored upright, so the 1200 × 800 shot is 800 × 1200.
    expect(body).toMatchObject({ url: `/media/${id}.webp`, width: 800, height: 1200, alt: 'Our team at work', originalName: 'team photo.jpg' });

    const row = (await storedRow(id))!;
    expect([row.width, row.height, row.size, row.contentType]).toEqual([800, 1200, row.data.byteLength, 'image/webp']);
    const meta = await sharp(row.data).metadata();
    expect(meta.format).toBe('webp');
    expect([meta.width, meta.height]).toEqual([800, 1200]);
    expect(meta.exif).toBeUndefined();
    expect(meta.icc).toBeUndefined();
    expect(meta.xmp).toBeUndefined();
    for (const secret of [...EXIF_SECRETS, 'Exif']) expect(row.data.includes(secret), secret).toBe(false);

    const [entry] = await mediaActivity();
    expect(entry).toMatchObject({ actorEmail: 'owner@example.com', action: 'upload', entityId: id, summary: 'Uploaded image “team photo.jpg” (800×1200)' });
  });

  it('accepts a real PNG (transparency kept) and scales a large one down to 1600 px', async () => {
    const small = await upload('admin', await png(640, 480), 'logo.png', 'image/png');
    expect(small.status).toBe(201);
    expect(small.body).toMatchObject({ width: 640, height: 480 });
    expect((await sharp((await storedRow(small.body.id as string))!.data).metadata()).hasAlpha).toBe(true);

    const large = await upload('admin', await png(3200, 1800), 'banner.png', 'image/png');
    expect(large.body).toMatchObject({ width: 1600, height: 900 });
  });

  it('the same picture twice is one library entry with one URL (200, nothing more stored)', async () => {
    const file = await png(300, 200);
    const first = await upload('admin', file, 'a.png', 'image/png');
    const again = await upload('admin', file, 'copy of a.png', 'image/png', 'Blue square');
    expect([first.status, again.status]).toEqual([201, 200]);
    expect(again.body.id).toBe(first.body.id);
    expect(again.body.alt).toBe('Blue square'); // an alt given now fills the empty one
    expect(await h.handle.db.select({ id: media.id }).from(media)).toHaveLength(1);
  });

  it('refuses, with a message for the admin, what is not a usable image; nothing is stored', async () => {
    const jpeg = await photoJpeg(600, 400);
    const cases: [string, Uint8Array | Buffer, string, number, RegExp][] = [
      ['a text file renamed .png', Buffer.from('Meeting notes: call the dentist on Monday.\n'.repeat(20)), 'notes.png', 400, /^The file is not an image that can be read\.$/],
      ['a truncated JPEG', jpeg.subarray(0, Math.floor(jpeg.length / 2)), 'cut.jpg', 400, /^The image is damaged and cannot be read\.$/],
      ['a decompression bomb (900 megapixels)', pngBomb(), 'bomb.png', 400, /^The image has too many pixels \(40 megapixels at most\)\.$/],
      ['a decompression bomb under sharp’s own limit (64 megapixels)', pngBomb(8000), 'bomb2.png', 400, /^The image has too many pixels \(40 megapixels at most\)\.$/],
      ['an SVG (could carry script)', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="9" height="9"><script>alert(1)</script></svg>'), 'x.svg', 400, /Use a JPEG, PNG, WebP, GIF, AVIF or TIFF image/],
      ['an empty file', Buffer.alloc(0), 'empty.jpg', 400, /empty/],
    ];
    for (const [what, bytes, name, status, message] of cases) {
      const res = await upload('admin', bytes, name, 'image/png');
      expect(res.status, what).toBe(status);
      expect(res.body.code, what).toBe('storage/invalid-file');
      expect(res.body.message, what).toMatch(message);
    }
    expect(await h.handle.db.select({ id: media.id }).from(media)).toEqual([]);
    expect(await mediaActivity()).toEqual([]);
  });

  it('a file over the limit is a 413 that says the limit: 11 MB reaches the route, 20 MB is cut off while it arrives', async () => {
    const eleven = await upload('admin', Buffer.alloc(11 * 1024 * 1024, 1), 'huge.jpg');
    expect(eleven).toEqual({ status: 413, body: { code: 'storage/file-too-large', message: expect.stringMatching(/^This file is 11 MB: images can be at most 10 MB\./) } });
    const twenty = await upload('admin', Buffer.alloc(20 * 1024 * 1024, 1), 'huger.jpg');
    expect(twenty).toEqual({ status: 413, body: { code: 'storage/file-too-large', message: 'The file is too large: images can be at most 10 MB.' } });
  });

  it('a request that is not an upload form is a 400 saying what to send', async () => {
    const json = await uploadRoute({ locals: localsOf('admin'), request: new Request(BASE, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }) } as never);
    expect(json.status).toBe(400);
    expect(await json.json()).toEqual({ code: 'storage/invalid-request', message: 'Send the image as multipart/form-data with a “file” field.' });
    const form = new FormData();
    form.set('alt', 'no file here');
    const noFile = await uploadRoute({ locals: localsOf('admin'), request: new Request(BASE, { method: 'POST', body: form }) } as never);
    expect(await noFile.json()).toEqual({ code: 'storage/invalid-request', message: 'Choose an image file to upload.' });
  });

  it('past the quota an upload is a 402 storage/quota-exceeded saying how full the library is; a smaller quota is never left half-written', async () => {
    const first = await uploadMedia(admin.userId, { bytes: await png(400, 300), originalName: 'one.png' }, { quotaBytes: 100_000 });
    const err = await uploadMedia(admin.userId, { bytes: await photoJpeg(1600, 1200), originalName: 'two.jpg' }, { quotaBytes: first.item.size + 1000 }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'storage/quota-exceeded', status: 402 });
    expect((err as Error).message).toMatch(/^The media library is full: [\d.]+ (KB|bytes) of [\d.]+ (KB|bytes) used, and this image needs [\d.]+ (KB|MB)\. Delete images you no longer use/);
    expect(await h.handle.db.select({ id: media.id }).from(media)).toEqual([{ id: first.item.id }]);
    // The same bytes again cost nothing, so they are not refused.
    await expect(uploadMedia(admin.userId, { bytes: await png(400, 300) }, { quotaBytes: 0 })).resolves.toMatchObject({ created: false });
  });

  it('the upload route holds the library to MEDIA_QUOTA_BYTES: past it a 402 storage/quota-exceeded the admin can act on, nothing stored', async () => {
    const first = await upload('admin', await png(400, 300), 'one.png', 'image/png');
    expect(first.status).toBe(201);
    operator.quotaBytes = (first.body.size as number) + 1000;
    const refused = await upload('admin', await photoJpeg(1600, 1200), 'two.jpg');
    expect(refused).toEqual({
      status: 402,
      body: { code: 'storage/quota-exceeded', message: expect.stringMatching(/^The media library is full: .+ used, and this image needs .+\. Delete images you no longer use, or ask your developer to raise MEDIA_QUOTA_BYTES\.$/) },
    });
    expect(await h.handle.db.select({ id: media.id }).from(media)).toEqual([{ id: first.body.id }]);
    expect((await mediaActivity()).map((e) => e.action)).toEqual(['upload']);
  });

  it('MEDIA_QUOTA_BYTES: 500 MB by default, a whole number of bytes or the server does not start', () => {
    expect(parseConfig({}).MEDIA_QUOTA_BYTES).toBe(524_288_000);
    expect(parseConfig({ MEDIA_QUOTA_BYTES: '' }).MEDIA_QUOTA_BYTES).toBe(524_288_000);
    expect(parseConfig({ MEDIA_QUOTA_BYTES: '1048576' }).MEDIA_QUOTA_BYTES).toBe(1_048_576);
    expect(() => parseConfig({ MEDIA_QUOTA_BYTES: '500MB' })).toThrow(/MEDIA_QUOTA_BYTES: must be a number of bytes/);
    expect(() => parseConfig({ MEDIA_QUOTA_BYTES: '-1' })).toThrow(/MEDIA_QUOTA_BYTES: must be 0 \(no uploads\) or more/);
    expect(() => parseConfig({ MEDIA_QUOTA_BYTES: '1.5' })).toThrow(/MEDIA_QUOTA_BYTES: must be a whole number of bytes/);
  });
});

describe('the library', () => {
  it('lists newest first with paging, searches file names and alt texts, and never reads the bytes', async () => {
    const names = ['beach.png', 'office.png', 'team.png'];
    for (const [i, name] of names.entries()) await uploadMedia(admin.userId, { bytes: await png(100 + i, 100), originalName: name, alt: i === 0 ? 'Sunset over the sea' : '' });
    const all = await libraryPage(admin.userId, { q: '', page: 1 });
    expect(all.items.map((i) => i.originalName)).toEqual(['team.png', 'office.png', 'beach.png']);
    expect(all.items[0]).not.toHaveProperty('data');
    expect((await libraryPage(admin.userId, { q: 'SUNSET', page: 1 })).items.map((i) => i.originalName)).toEqual(['beach.png']);
    expect((await libraryPage(admin.userId, { q: 'offi', page: 1 })).items.map((i) => i.originalName)).toEqual(['office.png']);
    expect((await libraryPage(admin.userId, { q: '100%_', page: 1 })).total).toBe(0);
    const page2 = await libraryPage(admin.userId, { q: '', page: 2 }, 2);
    expect([page2.total, page2.pages, page2.items.map((i) => i.originalName)]).toEqual([3, 2, ['beach.png']]);

    const res = await listRoute({ locals: localsOf('admin'), url: new URL(`${BASE}?q=team&page=1`) } as never);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    expect(await res.json()).toMatchObject({ total: 1, items: [{ originalName: 'team.png', usage: [] }] });
  });

  it('alt text: changed by an admin and recorded; too long is a 400; an unknown image is a 404 storage/object-not-found', async () => {
    const { item } = await uploadMedia(admin.userId, { bytes: await png(50, 50), originalName: 'square.png' });
    expect(await patchAlt('admin', item.id, '  A blue square  ')).toMatchObject({ status: 200, body: { alt: 'A blue square' } });
    expect((await storedRow(item.id))!.alt).toBe('A blue square');
    expect(await patchAlt('admin', item.id, 'x'.repeat(301))).toEqual({ status: 400, body: { code: 'storage/invalid-request', message: 'Alt text must be at most 300 characters' } });
    expect(await patchAlt('member', item.id, 'Hijacked')).toMatchObject({ status: 403, body: { code: 'storage/unauthorized' } });
    expect((await storedRow(item.id))!.alt).toBe('A blue square');

    const missing = '0'.repeat(32);
    const notFound = { code: 'storage/object-not-found', message: 'This image is no longer in the media library: someone may have deleted it.' };
    expect(await patchAlt('admin', missing, 'x')).toEqual({ status: 404, body: notFound });
    expect(await route(deleteRoute, 'admin', missing, { method: 'DELETE' })).toEqual({ status: 404, body: notFound });
    expect(await route(itemRoute, 'admin', missing)).toEqual({ status: 404, body: notFound });
    expect(await route(itemRoute, 'admin', '../../etc/passwd')).toEqual({ status: 404, body: notFound });

    const entries = await mediaActivity();
    expect(entries.map((e) => [e.action, e.summary])).toEqual([
      ['upload', 'Uploaded image “square.png” (50×50)'],
      ['update', 'Changed the alt text of image “square.png”'],
    ]);
    expect(entries[1]).toMatchObject({ before: { alt: '' }, after: { alt: 'A blue square' } });
  });

  it('an image a page shows cannot be deleted: the refusal names every place; once replaced it can be, and that is recorded', async () => {
    const { item } = await uploadMedia(admin.userId, { bytes: await png(120, 90), originalName: 'hero.png' });
    const { item: other } = await uploadMedia(admin.userId, { bytes: await png(121, 90), originalName: 'other.png' });
    const service = await createRecord(admin.userId, 'service', { name: 'Lead outreach', picture: item.url, pictureAlt: 'A hero', shortText: 'x' });
    await h.handle.db.insert(articles).values({ id: 'a1', slug: 'launch', title: 'Our launch', content: `<p>Hi</p><img src="/media/${item.id}-w800.webp" alt="">`, authorImage: item.url });
    await h.handle.db.insert(appConfig).values({ key: 'siteContent', value: { hero: { headline: 'Hi', image: item.url } } }).onConflictDoUpdate({ target: appConfig.key, set: { value: { hero: { headline: 'Hi', image: item.url } } } });

    const refused = await route(deleteRoute, 'admin', item.id, { method: 'DELETE' });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({
      code: 'storage/in-use',
      message: 'This image cannot be deleted: it is used by Service “Lead outreach” (picture), Article “Our launch” (author image, content) and Site texts (hero.image). Replace it there first.',
      usage: [
        { kind: 'Service', title: 'Lead outreach', field: 'picture', editHref: `/admin/services/${service.id}` },
        { kind: 'Article', title: 'Our launch', field: 'author image, content', editHref: '/admin/articles/a1' },
        { kind: 'Site texts', title: '', field: 'hero.image', editHref: '/admin/content' },
      ],
    });
    expect(await storedRow(item.id)).toBeDefined();
    // The library shows the same places; the other image is used nowhere.
    const listed = await libraryPage(admin.userId, { q: '', page: 1 });
    expect(listed.items.find((i) => i.id === item.id)!.usage).toHaveLength(3);
    expect(listed.items.find((i) => i.id === other.id)!.usage).toEqual([]);

    await createRecord(admin.userId, 'service', { name: 'Unrelated', picture: other.url, pictureAlt: 'Another' });
    await h.handle.db.delete(articles);
    await h.handle.db.delete(appConfig).where(eq(appConfig.key, 'siteContent'));
    await expect(deleteMedia(admin.userId, item.id)).rejects.toMatchObject({ code: 'storage/in-use', message: expect.stringContaining('Service “Lead outreach” (picture)') });
    const { updateRecord, getForEditor } = await import('../../src/server/modules/content/service');
    const snapshot = (await getForEditor('service', service.id))!;
    await updateRecord(admin.userId, 'service', service.id, { version: snapshot.updatedAt as string, fields: { name: 'Lead outreach', picture: '', shortText: 'x' } });

    expect(await route(deleteRoute, 'member', item.id, { method: 'DELETE' })).toMatchObject({ status: 403 });
    expect(await route(deleteRoute, 'admin', item.id, { method: 'DELETE' })).toEqual({ status: 204, body: undefined });
    expect(await storedRow(item.id)).toBeUndefined();
    const [deleted] = await h.handle.db.select().from(activityLog).where(and(eq(activityLog.entityType, 'media'), eq(activityLog.action, 'delete')));
    expect(deleted).toMatchObject({ entityId: item.id, summary: 'Deleted image “hero.png”', before: { id: item.id, originalName: 'hero.png', width: 120 } });
    await expect(updateMediaAlt(admin.userId, item.id, 'gone')).rejects.toMatchObject({ code: 'storage/object-not-found', status: 404 });
  });

  it('a deleted image is served no more, not even from memory: the original and its variants are 404 at once', async () => {
    const { item } = await uploadMedia(admin.userId, { bytes: await png(130, 90), originalName: 'gone.png' });
    const files = [`${item.id}.webp`, `${item.id}-w400.webp`, `${item.id}-w800.webp`];
    const serve = (file: string) => mediaResponse(file, new Request(`http://localhost/media/${file}`));
    for (const file of files) expect((await serve(file)).status, file).toBe(200);
    // Now in memory: server.mjs would answer them without the database.
    for (const file of files) expect(mediaFastPath(`/media/${file}`, undefined, false)?.status, file).toBe(200);

    expect(await route(deleteRoute, 'admin', item.id, { method: 'DELETE' })).toEqual({ status: 204, body: undefined });
    for (const file of files) {
      expect(mediaFastPath(`/media/${file}`, undefined, false), file).toBeUndefined();
      expect((await serve(file)).status, file).toBe(404);
    }
  });
});
