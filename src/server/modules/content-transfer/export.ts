/**
 * Exporting every public entity as one content file (format version 1). Importing the result into an
 * empty database and exporting again gives the same file, apart from `exportedAt`.
 *
 * The images are most of a file's bytes (a library near its quota is hundreds of MB in base64), so the
 * file is written as a stream: the records in one consistent read, then the images a few at a time
 * (contentFileText). Nothing holds the whole file in memory.
 */
import { CONTENT_FORMAT, CONTENT_FORMAT_VERSION, type ContentBundleInput } from '../../../shared/content-bundle';
import { LANDING_BLOCKS } from '../../../shared/landing';
import { db } from '../../db';
import { policyConfigKey } from '../pages/service';
import { LANDING_CONFIG_KEY, SITE_CONTENT_KEY } from '../site/service';
import { readAllContent, readMediaData } from './repository';

type ContentFile = ContentBundleInput & { exportedAt: string };
type MediaEntry = NonNullable<ContentBundleInput['media']>[number];
type MediaHeader = Omit<MediaEntry, 'data'>;

/** Images read per query while streaming: a few MB at most. */
const MEDIA_BATCH = 8;

const iso = (d: Date) => d.toISOString();
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const strings = (v: unknown): string[] | undefined =>
  Array.isArray(v) && v.every((x) => typeof x === 'string') ? (v as string[]) : undefined;

function landingPageConfig(stored: unknown) {
  const doc = isObject(stored) ? stored : {};
  return { blockOrder: strings(doc.blockOrder) ?? [...LANDING_BLOCKS], hidden: strings(doc.hidden) ?? [] };
}

function policyPage(stored: unknown) {
  if (!isObject(stored) || typeof stored.html !== 'string' || stored.html.trim() === '') return undefined;
  const updatedAt = typeof stored.updatedAt === 'string' ? stored.updatedAt : undefined;
  return updatedAt ? { html: stored.html, updatedAt } : { html: stored.html };
}

/** Every record, and the images without their bytes. */
async function readContentFile(now: Date): Promise<Omit<ContentFile, 'media'> & { media: MediaHeader[] }> {
  // One transaction: a consistent snapshot even while admins keep editing (PostgreSQL).
  const all = await db().transaction((tx) => readAllContent(tx), { isolationLevel: 'repeatable read' });

  const included = new Map<string, string[]>();
  for (const link of all.packageServices) {
    const list = included.get(link.packageId) ?? [];
    list.push(link.serviceId);
    included.set(link.packageId, list);
  }

  const pages: NonNullable<ContentBundleInput['pages']> = {};
  for (const kind of ['privacy', 'terms'] as const) {
    const page = policyPage(all.config.get(policyConfigKey(kind)));
    if (page) pages[kind] = page;
  }

  return {
    format: CONTENT_FORMAT,
    version: CONTENT_FORMAT_VERSION,
    exportedAt: iso(now),
    services: all.services.map((s) => ({
      id: s.id,
      name: s.name,
      picture: s.picture,
      pictureAlt: s.pictureAlt,
      price: s.price,
      shortText: s.shortText,
      description: s.description,
      benefits: s.benefits,
      order: s.order,
      createdAt: iso(s.createdAt),
      updatedAt: iso(s.updatedAt),
    })),
    demos: all.demos.map((d) => ({
      id: d.id,
      name: d.name,
      profilePicture: d.profilePicture,
      profilePictureAlt: d.profilePictureAlt,
      shortText: d.shortText,
      description: d.description,
      suitableFor: d.suitableFor,
      order: d.order,
      createdAt: iso(d.createdAt),
      updatedAt: iso(d.updatedAt),
    })),
    packages: all.packages.map((p) => ({
      id: p.id,
      name: p.name,
      description: p.description,
      picture: p.picture,
      pictureAlt: p.pictureAlt,
      shortText: p.shortText,
      priceSetup: p.priceSetup,
      priceMonthly: p.priceMonthly,
      includedServiceIds: included.get(p.id) ?? [],
      features: p.features,
      isActive: p.isActive,
      order: p.order,
      createdAt: iso(p.createdAt),
      updatedAt: iso(p.updatedAt),
    })),
    articles: all.articles.map((a) => ({
      id: a.id,
      slug: a.slug,
      title: a.title,
      excerpt: a.excerpt,
      content: a.content,
      featuredImage: a.featuredImage,
      featuredImageAlt: a.featuredImageAlt,
      authorName: a.authorName,
      authorImage: a.authorImage,
      tags: a.tags,
      published: a.published,
      createdAt: iso(a.createdAt),
      updatedAt: iso(a.updatedAt),
    })),
    faqs: all.faqs.map((f) => ({ id: f.id, question: f.question, answer: f.answer, order: f.order, createdAt: iso(f.createdAt) })),
    landingPageConfig: landingPageConfig(all.config.get(LANDING_CONFIG_KEY)),
    siteContent: isObject(all.config.get(SITE_CONTENT_KEY)) ? (all.config.get(SITE_CONTENT_KEY) as Record<string, unknown>) : {},
    seo: all.seo.map((s) => ({
      path: s.path,
      title: s.title,
      description: s.description,
      keywords: s.keywords,
      image: s.image,
      url: s.url,
      type: s.type,
      author: s.author,
      publishedTime: s.publishedTime ? iso(s.publishedTime) : null,
      modifiedTime: s.modifiedTime ? iso(s.modifiedTime) : null,
      siteNameAfterTitle: s.siteNameAfterTitle,
    })),
    pages,
    media: all.media.map((m) => ({ id: m.id, contentType: m.contentType as 'image/webp', width: m.width, height: m.height, alt: m.alt })),
  };
}

/** The images with their bytes, a batch at a time; one deleted since the records were read is left out. */
async function* mediaEntries(headers: readonly MediaHeader[]): AsyncGenerator<MediaEntry> {
  for (let i = 0; i < headers.length; i += MEDIA_BATCH) {
    const batch = headers.slice(i, i + MEDIA_BATCH);
    const data = await readMediaData(db(), batch.map((m) => m.id));
    for (const header of batch) {
      const bytes = data.get(header.id);
      if (bytes) yield { ...header, data: bytes.toString('base64') };
    }
  }
}

export interface ContentFileStream {
  /** Records per section (images as read, before streaming). */
  counts: Record<'services' | 'demos' | 'packages' | 'articles' | 'faqs' | 'media', number>;
  /** The file as text, in pieces: exactly `JSON.stringify(file, null, 2)` and a newline. */
  text: AsyncGenerator<string>;
}

/** Reads the records now and streams the file, each image written as it is read. */
export async function openContentFile(now: Date = new Date()): Promise<ContentFileStream> {
  const { media, ...records } = await readContentFile(now);
  const counts = {
    services: records.services?.length ?? 0,
    demos: records.demos?.length ?? 0,
    packages: records.packages?.length ?? 0,
    articles: records.articles?.length ?? 0,
    faqs: records.faqs?.length ?? 0,
    media: media.length,
  };
  async function* text(): AsyncGenerator<string> {
    const head = JSON.stringify({ ...records, media: [] }, null, 2);
    // `media` is the file's last field: its empty array is where the images go.
    yield head.slice(0, -'[]\n}'.length);
    let first = true;
    for await (const entry of mediaEntries(media)) {
      yield `${first ? '[' : ','}\n    ${JSON.stringify(entry, null, 2).replace(/\n/g, '\n    ')}`;
      first = false;
    }
    yield first ? '[]\n}\n' : '\n  ]\n}\n';
  }
  return { counts, text: text() };
}

/** The whole content file as one object (the seed and the tests; exports stream with contentFileText). */
export async function exportContentBundle(now: Date = new Date()): Promise<ContentFile> {
  const { media, ...records } = await readContentFile(now);
  const entries: MediaEntry[] = [];
  for await (const entry of mediaEntries(media)) entries.push(entry);
  return { ...records, media: entries };
}
