/**
 * One alt text per picture (decision 033): a library picture's alt text is stored on its media item, an
 * editor that chooses the picture edits it there, every other record showing the picture reuses it, the
 * public reads (cards, detail pages, the landing page) render it, and a picture needs one wherever it is
 * chosen. Also: the migration that moved articles' alt texts, and the content file's round trip.
 */
import fs from 'node:fs';
import path from 'node:path';
import { and, eq, sql } from 'drizzle-orm';
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PATCH as patchRoute } from '../../src/pages/api/admin/media/[id]';
import { activityLog, articles, media, services } from '../../src/server/db/schema';
import { getPublishedArticleBySlug, listPublishedArticles } from '../../src/server/modules/articles/repository';
import { getDemo, getPackage, getService, listServices } from '../../src/server/modules/catalog/repository';
import { createRecord, getForEditor, revertChange, updateRecord } from '../../src/server/modules/content/service';
import { exportContentBundle, importContentBundle } from '../../src/server/modules/content-transfer';
import { loadLandingPage } from '../../src/server/modules/landing/service';
import { uploadMedia } from '../../src/server/modules/media-library/service';
import { ALT_REQUIRED_MESSAGE } from '../../src/shared/schemas/catalog';
import { createAuthHarness, type AuthHarness } from '../support/auth';

let h: AuthHarness;
let admin: string;
beforeEach(async () => {
  h = await createAuthHarness();
  ({ userId: admin } = await h.signUpVerified({ email: 'owner@example.com' }));
});
afterEach(() => h.close());

const png = (color: string) => sharp({ create: { width: 64, height: 36, channels: 3, background: color } }).png().toBuffer();

async function picture(color = '#2553e0', alt = '') {
  const { item } = await uploadMedia(admin, { bytes: await png(color), originalName: `${color}.png`, alt });
  return item;
}

const mediaAlt = async (id: string) => (await h.handle.db.select({ alt: media.alt }).from(media).where(eq(media.id, id)))[0]?.alt;

const patchAlt = async (id: string, alt: string) => {
  const res = await patchRoute({
    locals: { user: { id: admin } },
    params: { id },
    request: new Request(`http://localhost:4321/api/admin/media/${id}`, { method: 'PATCH', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ alt }) }),
  } as never);
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};

const invalidFields = (promise: Promise<unknown>) => promise.then(
  () => undefined,
  (err: { code?: string; fieldErrors?: Record<string, string> }) => (err.code === 'INVALID' ? err.fieldErrors : err),
);

describe('one alt text per picture, on its media item', () => {
  it('a service saved with a library picture stores the alt text on the picture, and the public reads render it', async () => {
    const pic = await picture();
    const created = await createRecord(admin, 'service', { name: 'Lead outreach', picture: pic.url, pictureAlt: '  A phone lighting up with a reply  ' });

    expect(await mediaAlt(pic.id)).toBe('A phone lighting up with a reply');
    // The service's own column keeps nothing: there is one place for the text.
    const [row] = await h.handle.db.select({ own: services.pictureAlt }).from(services).where(eq(services.id, created.id));
    expect(row?.own).toBe('');
    expect(created.snapshot).toMatchObject({ picture: pic.url, pictureAlt: 'A phone lighting up with a reply' });

    expect(await getService(created.id)).toMatchObject({ pictureAlt: 'A phone lighting up with a reply' });
    expect((await listServices()).find((s) => s.id === created.id)).toMatchObject({ pictureAlt: 'A phone lighting up with a reply' });
    const landing = await loadLandingPage();
    expect(landing.services.items.find((s) => s.id === created.id)).toMatchObject({ pictureAlt: 'A phone lighting up with a reply' });
  });

  it('another record choosing the same picture reuses its alt text, and a change made in one editor shows everywhere', async () => {
    const pic = await picture('#14b8a6', 'Teal waves');
    // The editor opens a package with the picture's text; saving it unchanged changes nothing.
    const pkg = await createRecord(admin, 'package', { name: 'Starter', picture: pic.url, pictureAlt: 'Teal waves' });
    expect(pkg.tags).not.toContain('articles');
    const article = await createRecord(admin, 'article', { title: 'Launch', content: '<p>Hi</p>', featuredImage: pic.url, featuredImageAlt: 'Teal waves', published: true });
    const demo = await createRecord(admin, 'demo', { name: 'Clinic bot', profilePicture: pic.url, profilePictureAlt: 'Teal waves' });

    // The article's editor changes the picture's text: the package, the demo and their pages follow.
    const updated = await updateRecord(admin, 'article', article.id, {
      version: article.snapshot!.updatedAt,
      fields: { title: 'Launch', content: '<p>Hi</p>', featuredImage: pic.url, featuredImageAlt: 'Teal waves over a calm sea', published: true },
    });
    // Every page that can show a picture is rendered again, not only the article's.
    expect(updated.tags).toEqual(expect.arrayContaining(['articles', 'services', 'packages', 'demos']));
    expect(await mediaAlt(pic.id)).toBe('Teal waves over a calm sea');
    expect(await getForEditor('package', pkg.id)).toMatchObject({ pictureAlt: 'Teal waves over a calm sea' });
    expect(await getPackage(pkg.id)).toMatchObject({ pictureAlt: 'Teal waves over a calm sea' });
    expect(await getDemo(demo.id)).toMatchObject({ profilePictureAlt: 'Teal waves over a calm sea' });
    expect(await getPublishedArticleBySlug(String(article.snapshot!.slug))).toMatchObject({ featuredImageAlt: 'Teal waves over a calm sea' });
    expect((await listPublishedArticles())[0]).toMatchObject({ featuredImageAlt: 'Teal waves over a calm sea' });

    // Reverting the article's change puts the picture's old text back, everywhere.
    const [entry] = await h.handle.db.select().from(activityLog).where(and(eq(activityLog.entityType, 'article'), eq(activityLog.action, 'update')));
    await revertChange(admin, entry!.id);
    expect(await mediaAlt(pic.id)).toBe('Teal waves');
    expect(await getPackage(pkg.id)).toMatchObject({ pictureAlt: 'Teal waves' });
  });

  it('a picture at an outside address keeps its alt text on the record', async () => {
    const created = await createRecord(admin, 'demo', { name: 'Clinic bot', profilePicture: 'https://images.example.com/bot.jpg', profilePictureAlt: 'A chat window' });
    expect(await getDemo(created.id)).toMatchObject({ profilePictureAlt: 'A chat window' });
    // Removing the picture removes its text with it.
    const next = await updateRecord(admin, 'demo', created.id, { version: created.snapshot!.updatedAt, fields: { name: 'Clinic bot', profilePicture: '', profilePictureAlt: 'A chat window' } });
    expect(next.snapshot).toMatchObject({ profilePicture: '', profilePictureAlt: '' });
  });

  it('every editor that chooses a picture requires its alt text (the article rule, now for services, packages and demos too)', async () => {
    const pic = await picture();
    expect(await invalidFields(createRecord(admin, 'service', { name: 'A', picture: pic.url }))).toEqual({ pictureAlt: ALT_REQUIRED_MESSAGE });
    expect(await invalidFields(createRecord(admin, 'package', { name: 'B', picture: pic.url, pictureAlt: '   ' }))).toEqual({ pictureAlt: ALT_REQUIRED_MESSAGE });
    expect(await invalidFields(createRecord(admin, 'demo', { name: 'C', profilePicture: 'https://images.example.com/c.jpg' }))).toEqual({ profilePictureAlt: ALT_REQUIRED_MESSAGE });
    expect(await invalidFields(createRecord(admin, 'article', { title: 'D', featuredImage: pic.url }))).toEqual({ featuredImageAlt: ALT_REQUIRED_MESSAGE });
    // Nothing was written, not even to the picture.
    expect(await mediaAlt(pic.id)).toBe('');
    // Without a picture no alt text is asked for.
    await expect(createRecord(admin, 'service', { name: 'E' })).resolves.toMatchObject({ id: 'e' });
  });

  it('the media library edits the same text: pages that show the picture change, and a picture in use cannot lose it', async () => {
    const pic = await picture('#f59e0b', 'Amber sky');
    const svc = await createRecord(admin, 'service', { name: 'Reminders', picture: pic.url, pictureAlt: 'Amber sky' });

    expect(await patchAlt(pic.id, 'Amber sky at dusk')).toMatchObject({ status: 200, body: { alt: 'Amber sky at dusk' } });
    expect(await getService(svc.id)).toMatchObject({ pictureAlt: 'Amber sky at dusk' });
    expect(await getForEditor('service', svc.id)).toMatchObject({ pictureAlt: 'Amber sky at dusk' });

    const refused = await patchAlt(pic.id, '');
    expect(refused).toMatchObject({ status: 400, body: { code: 'storage/invalid-request', message: expect.stringContaining('Service “Reminders” (picture)') } });
    expect(await mediaAlt(pic.id)).toBe('Amber sky at dusk');

    // A picture no page shows may have none.
    const unused = await picture('#64748b', 'Grey');
    expect(await patchAlt(unused.id, '')).toMatchObject({ status: 200, body: { alt: '' } });
  });
});

describe('existing data and the content file', () => {
  /** The data statements of the migration that moved articles' alt texts (its column additions already ran). */
  async function runAltMigration() {
    const file = fs.readdirSync(path.resolve('drizzle')).find((f) => f.endsWith('_picture_alt_on_media.sql'))!;
    const statements = fs.readFileSync(path.resolve('drizzle', file), 'utf8').split('--> statement-breakpoint').filter((s) => /^\s*(--.*\n\s*)*UPDATE/i.test(s));
    expect(statements).toHaveLength(2);
    for (const statement of statements) await h.handle.db.execute(sql.raw(statement));
  }

  it('the migration moves an article’s alt text to its library picture (newest article first) and leaves outside pictures’ alone', async () => {
    const shared = await picture('#0ea5e9', 'Typed in the library');
    const single = await picture('#22c55e');
    const old = (id: string, featuredImage: string, featuredImageAlt: string, updatedAt: string) => ({
      id,
      slug: id,
      title: id,
      featuredImage,
      featuredImageAlt,
      published: true,
      createdAt: new Date('2025-01-01T00:00:00Z'),
      updatedAt: new Date(updatedAt),
    });
    // As the rows were before: each article with its own copy of the text.
    await h.handle.db.insert(articles).values([
      old('older', shared.url, 'Blue sky, older text', '2025-02-01T00:00:00Z'),
      old('newer', shared.url, 'Blue sky, newer text', '2025-03-01T00:00:00Z'),
      old('green', single.url, 'Green field', '2025-02-01T00:00:00Z'),
      old('outside', 'https://images.example.com/x.jpg', 'An outside picture', '2025-02-01T00:00:00Z'),
      old('untold', `/media/${'0'.repeat(32)}.webp`, 'A picture whose row is gone', '2025-02-01T00:00:00Z'),
    ]);

    await runAltMigration();

    expect(await mediaAlt(shared.id)).toBe('Blue sky, newer text');
    expect(await mediaAlt(single.id)).toBe('Green field');
    const own = Object.fromEntries((await h.handle.db.select({ id: articles.id, alt: articles.featuredImageAlt }).from(articles)).map((r) => [r.id, r.alt]));
    expect(own).toEqual({ older: '', newer: '', green: '', outside: 'An outside picture', untold: 'A picture whose row is gone' });
    // What visitors read is the picture's text.
    expect(await getPublishedArticleBySlug('green')).toMatchObject({ featuredImageAlt: 'Green field' });
    expect(await getPublishedArticleBySlug('outside')).toMatchObject({ featuredImageAlt: 'An outside picture' });
  });

  it('the content file round-trips: alt texts on media entries for library pictures, on records for outside ones', async () => {
    const pic = await picture('#a855f7');
    await createRecord(admin, 'service', { name: 'Outreach', picture: pic.url, pictureAlt: 'Purple dots' });
    await createRecord(admin, 'package', { name: 'Starter', picture: 'https://images.example.com/p.jpg', pictureAlt: 'A starter kit' });

    const first = await exportContentBundle(new Date('2025-06-01T00:00:00Z'));
    expect(first.services?.[0]).toMatchObject({ picture: pic.url, pictureAlt: '' });
    expect(first.packages?.[0]).toMatchObject({ pictureAlt: 'A starter kit' });
    expect(first.media?.find((m) => m.id === pic.id)).toMatchObject({ alt: 'Purple dots' });

    // Into an emptied database, and out again: the same file.
    await h.handle.db.execute(sql`truncate services, packages, package_services, demos, articles, media cascade`);
    expect(await importContentBundle(first)).toMatchObject({ ok: true });
    expect(await exportContentBundle(new Date('2025-06-01T00:00:00Z'))).toEqual(first);
    expect(await getService('outreach')).toMatchObject({ pictureAlt: 'Purple dots' });
  });

  it('an older file, whose article carries its library picture’s alt text, moves it to the picture on import', async () => {
    const pic = await picture('#ef4444', 'Red, as the library had it');
    const file = await exportContentBundle();
    const older = {
      ...file,
      articles: [{ id: 'launch', slug: 'launch', title: 'Launch', featuredImage: pic.url, featuredImageAlt: 'A red launch button', published: true }],
    };
    expect(await importContentBundle(older)).toMatchObject({ ok: true });
    expect(await mediaAlt(pic.id)).toBe('A red launch button');
    const [row] = await h.handle.db.select({ alt: articles.featuredImageAlt }).from(articles).where(eq(articles.id, 'launch'));
    expect(row?.alt).toBe('');
    expect((await exportContentBundle()).articles?.[0]).toMatchObject({ featuredImageAlt: '' });
  });
});
