import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stripHtml } from '../../src/shared/text';
import { isBestValue } from '../../src/shared/packages';
import { mediaIdFromUrl } from '../../src/shared/content-bundle';
import { db } from '../../src/server/db';
import type { DatabaseHandle } from '../../src/server/db/client';
import { services } from '../../src/server/db/schema';
import { findMedia } from '../../src/server/media/repository';
import { exportContentBundle, importContentBundle, openContentFile } from '../../src/server/modules/content-transfer';
import { listFaqs } from '../../src/server/modules/faqs/repository';
import { seedDemoContentIfFresh } from '../../src/server/seed';
import { freshDatabase } from '../support/db';

const words = (html: string) => stripHtml(html).split(' ').filter(Boolean).length;

describe('first-run demo seed', () => {
  let handle: DatabaseHandle;
  let content: Awaited<ReturnType<typeof exportContentBundle>>;

  beforeAll(async () => {
    handle = await freshDatabase();
    expect(await seedDemoContentIfFresh()).toBe(true);
    content = await exportContentBundle();
  });
  afterAll(async () => {
    await handle.close();
  });

  it('writes six services, so the landing page shows "View All"', () => {
    expect(content.services).toHaveLength(6);
    for (const s of content.services!) {
      expect(s.price).toBeGreaterThan(0);
      expect(s.benefits!.length).toBeGreaterThanOrEqual(4);
      expect(s.benefits!.length).toBeLessThanOrEqual(6);
      expect(s.description).toMatch(/^<p>/);
    }
    const lengths = content.services!.map((s) => s.shortText!.length);
    expect(lengths.some((n) => n > 120)).toBe(true);
    expect(lengths.some((n) => n <= 120)).toBe(true);
  });

  it('writes five active packages and an inactive one, with and without BEST VALUE', () => {
    const active = content.packages!.filter((p) => p.isActive);
    expect(content.packages).toHaveLength(6);
    expect(active).toHaveLength(5);
    const best = content.packages!.map((p) => isBestValue({ includedServiceIds: p.includedServiceIds!, priceSetup: p.priceSetup ?? null }));
    expect(best.filter(Boolean).length).toBeGreaterThanOrEqual(2);
    expect(best.filter((b) => !b).length).toBeGreaterThanOrEqual(2);
    for (const p of content.packages!) {
      expect(p.features!.length).toBeGreaterThanOrEqual(2);
      expect(p.features!.length).toBeLessThanOrEqual(4);
      expect(p.priceSetup).toBeGreaterThan(0);
      expect(p.priceMonthly).toBeGreaterThan(0);
    }
    expect(content.packages!.some((p) => p.shortText!.length > 150)).toBe(true);
  });

  it('writes five demos suitable for two to five kinds of business', () => {
    expect(content.demos).toHaveLength(5);
    for (const d of content.demos!) expect(d.suitableFor!.length).toBeGreaterThanOrEqual(2);
    for (const d of content.demos!) expect(d.suitableFor!.length).toBeLessThanOrEqual(5);
  });

  it('writes six real articles of 400–900 words, one of them a draft, dated over recent months', () => {
    expect(content.articles).toHaveLength(6);
    expect(content.articles!.filter((a) => a.published)).toHaveLength(5);
    for (const a of content.articles!) {
      expect(words(a.content!), a.id).toBeGreaterThanOrEqual(400);
      expect(words(a.content!), a.id).toBeLessThanOrEqual(900);
      expect(a.content).toMatch(/<h2>/);
      expect(a.content).toMatch(/<ul>/);
      expect(a.tags!.length).toBeGreaterThan(0);
      expect(a.authorName).not.toBe('');
    }
    const days = content.articles!.map((a) => (Date.now() - Date.parse(a.createdAt as string)) / 86_400_000);
    expect(Math.max(...days) - Math.min(...days)).toBeGreaterThan(60);
  });

  it('writes no FAQ rows, so the ten built-in answers are used', async () => {
    expect(await listFaqs()).toEqual([]);
  });

  it('stores a generated image for every picture: 16:9 cards and square author avatars', async () => {
    const cards = [
      ...content.services!.map((s) => s.picture!),
      ...content.packages!.map((p) => p.picture!),
      ...content.demos!.map((d) => d.profilePicture!),
      ...content.articles!.map((a) => a.featuredImage!),
    ];
    expect(new Set(cards).size).toBe(cards.length);
    for (const url of cards) {
      const row = await findMedia(mediaIdFromUrl(url)!);
      expect(row, url).toMatchObject({ contentType: 'image/webp', width: 1200, height: 675 });
    }
    for (const url of new Set(content.articles!.map((a) => a.authorImage!))) {
      expect(await findMedia(mediaIdFromUrl(url)!), url).toMatchObject({ width: 192, height: 192 });
    }
  });

  it('streams the same file, image by image, as the whole export would be written', async () => {
    const at = new Date(content.exportedAt);
    const file = await openContentFile(at);
    const pieces: string[] = [];
    for await (const piece of file.text) pieces.push(piece);
    expect(pieces.join('')).toBe(`${JSON.stringify(content, null, 2)}\n`);
    // Each image is its own piece: no piece holds the whole library.
    expect(content.media!.length).toBeGreaterThan(3);
    expect(pieces.length).toBe(content.media!.length + 2);
    expect(file.counts).toMatchObject({ services: 6, media: content.media!.length });
  });

  it('does nothing the second time, and never brings deleted demo content back', async () => {
    expect(await seedDemoContentIfFresh()).toBe(false);
    expect(await exportContentBundle(new Date(content.exportedAt))).toEqual(content);

    await db().delete(services);
    expect(await seedDemoContentIfFresh()).toBe(false);
    expect((await exportContentBundle()).services).toEqual([]);
  });
});

describe('first start of a database that already has content', () => {
  it('leaves imported content alone and does not seed later either', async () => {
    const handle = await freshDatabase();
    try {
      await importContentBundle({ format: 'agency-site-content', version: 1, faqs: [{ id: 'own', question: 'Ours?', answer: '<p>Yes</p>' }] });
      expect(await seedDemoContentIfFresh()).toBe(false);
      await db().delete(services);
      expect(await seedDemoContentIfFresh()).toBe(false);
      const after = await exportContentBundle();
      expect(after.services).toEqual([]);
      expect(after.faqs!.map((f) => f.id)).toEqual(['own']);
    } finally {
      await handle.close();
    }
  });
});
