/**
 * Importing a content file: validate every record, and only when nothing is wrong write everything in
 * one transaction. Records keep their ids (old links keep working), HTML is sanitized on the way in,
 * images are stored under their content hash. The CLI, the first-run demo seed and the admin import all
 * come through here, so there is one write path for bulk content.
 */
import type { ContentBundle } from '../../../shared/content-bundle';
import { PICTURE_ALT_FIELDS } from '../../../shared/schemas/catalog';
import { db } from '../../db';
import { sanitizeHtml } from '../../html/sanitize';
import { upsertMedia } from '../../media/repository';
import { placePictureAlt } from '../media-library/picture-alt';
import { policyConfigKey } from '../pages/service';
import { LANDING_CONFIG_KEY, SITE_CONTENT_KEY } from '../site/service';
import {
  readExistingRefs,
  upsertArticles,
  upsertConfigDocuments,
  upsertDemos,
  upsertFaqs,
  upsertPackages,
  upsertSeoPages,
  upsertServices,
  type Executor,
} from './repository';
import type { StagedContentFile } from './read-file';
import { validateContentBundle, type Problem } from './validate';
import { plural } from '../../../shared/plural';

export interface ImportSummary {
  services: number;
  demos: number;
  packages: number;
  articles: number;
  faqs: number;
  seo: number;
  media: number;
  pages: number;
  landingPageConfig: boolean;
  siteContent: boolean;
}

export type ImportResult = { ok: true; summary: ImportSummary } | { ok: false; problems: Problem[] };

/** A record's dates: missing createdAt means "now"; missing updatedAt means "as created". */
function dates(record: { createdAt?: Date; updatedAt?: Date }, now: Date) {
  const createdAt = record.createdAt ?? now;
  return { createdAt, updatedAt: record.updatedAt ?? createdAt };
}

/** The images to write: their records, and their bytes one at a time (a file's, or staged on disk). */
interface MediaToWrite {
  records: readonly Omit<NonNullable<ContentBundle['media']>[number], 'data'>[];
  bytes(id: string): Promise<Buffer>;
}

/** The images a parsed file carries in base64. */
function inlineMedia(bundle: ContentBundle): MediaToWrite {
  const media = bundle.media ?? [];
  const data = new Map(media.map((m) => [m.id, m.data]));
  return { records: media, bytes: async (id) => Buffer.from(data.get(id) ?? '', 'base64') };
}

/**
 * One alt text per picture (decision 033): a record's alt text for a library picture becomes that
 * picture's (its media entry is written first) and the record keeps none; an outside picture's stays on
 * the record. Files this site exports carry them that way already; older ones move here.
 */
async function withAltsPlaced<T extends object>(tx: Executor, rows: T[], pairs: readonly { picture: string; alt: string }[]): Promise<T[]> {
  const placed: T[] = [];
  for (const row of rows) {
    const values = { ...row } as Record<string, unknown>;
    for (const { picture, alt } of pairs) {
      values[alt] = (await placePictureAlt(tx, String(values[picture] ?? ''), String(values[alt] ?? ''))).recordAlt;
    }
    placed.push(values as T);
  }
  return placed;
}

async function writeBundle(tx: Executor, bundle: ContentBundle, media: MediaToWrite, now: Date): Promise<ImportSummary> {
  // One image per statement: each carries up to megabytes, and only one is in memory at a time.
  for (const m of media.records) {
    const data = await media.bytes(m.id);
    await upsertMedia([{ id: m.id, contentType: m.contentType, width: m.width, height: m.height, alt: m.alt, size: data.byteLength, data }], tx);
  }

  const services = bundle.services ?? [];
  await upsertServices(
    tx,
    await withAltsPlaced(
      tx,
      services.map((s, i) => ({ ...s, description: sanitizeHtml(s.description), order: s.order ?? i, ...dates(s, now) })),
      PICTURE_ALT_FIELDS.service,
    ),
  );

  const demos = bundle.demos ?? [];
  await upsertDemos(
    tx,
    await withAltsPlaced(
      tx,
      demos.map((d, i) => ({ ...d, description: sanitizeHtml(d.description), order: d.order ?? i, ...dates(d, now) })),
      PICTURE_ALT_FIELDS.demo,
    ),
  );

  const packages = bundle.packages ?? [];
  await upsertPackages(
    tx,
    await withAltsPlaced(
      tx,
      packages.map(({ includedServiceIds: _ids, ...p }, i) => ({
        ...p,
        description: sanitizeHtml(p.description),
        order: p.order ?? i,
        ...dates(p, now),
      })),
      PICTURE_ALT_FIELDS.package,
    ),
    new Map(packages.map((p) => [p.id, p.includedServiceIds])),
  );

  const articles = bundle.articles ?? [];
  await upsertArticles(
    tx,
    await withAltsPlaced(
      tx,
      articles.map((a) => ({ ...a, content: sanitizeHtml(a.content), ...dates(a, now) })),
      PICTURE_ALT_FIELDS.article,
    ),
  );

  const faqs = bundle.faqs ?? [];
  await upsertFaqs(
    tx,
    faqs.map((f, i) => ({ ...f, answer: sanitizeHtml(f.answer), order: f.order ?? i, createdAt: f.createdAt ?? now })),
  );

  const seo = bundle.seo ?? [];
  await upsertSeoPages(tx, seo.map((s) => ({ ...s, updatedAt: now })));

  const docs: { key: string; value: unknown }[] = [];
  if (bundle.landingPageConfig) docs.push({ key: LANDING_CONFIG_KEY, value: bundle.landingPageConfig });
  if (bundle.siteContent) docs.push({ key: SITE_CONTENT_KEY, value: bundle.siteContent });
  for (const kind of ['privacy', 'terms'] as const) {
    const page = bundle.pages?.[kind];
    if (page) {
      docs.push({
        key: policyConfigKey(kind),
        value: { html: sanitizeHtml(page.html), updatedAt: (page.updatedAt ?? now).toISOString() },
      });
    }
  }
  await upsertConfigDocuments(tx, docs);

  return {
    services: services.length,
    demos: demos.length,
    packages: packages.length,
    articles: articles.length,
    faqs: faqs.length,
    seo: seo.length,
    media: media.records.length,
    pages: Number(Boolean(bundle.pages?.privacy)) + Number(Boolean(bundle.pages?.terms)),
    landingPageConfig: Boolean(bundle.landingPageConfig),
    siteContent: Boolean(bundle.siteContent),
  };
}

/**
 * Validates `input` (parsed JSON) and, when every record is valid, upserts it all in one transaction.
 * When anything is invalid nothing is written and every problem is returned.
 */
export async function importContentBundle(input: unknown, now: Date = new Date()): Promise<ImportResult> {
  return db().transaction((tx) => importContentBundleIn(tx, input, now));
}

/** A file read as a stream (read-file.ts), its images staged on disk: the CLI's import. */
export async function importContentFile(file: StagedContentFile, now: Date = new Date()): Promise<ImportResult> {
  return db().transaction((tx) => importContentBundleIn(tx, file.json, now, file.media));
}

/**
 * The same inside a transaction the caller holds (the admin import records itself in it too). `staged`:
 * the images of a file read as a stream (read-file.ts), already checked, their bytes on disk.
 */
export async function importContentBundleIn(tx: Executor, input: unknown, now: Date = new Date(), staged?: StagedContentFile['media']): Promise<ImportResult> {
  // Inside the transaction: the references checked are the ones the writes will see.
  const validation = await validateContentBundle(input, await readExistingRefs(tx), staged);
  if (!validation.ok) return validation;
  return { ok: true, summary: await writeBundle(tx, validation.bundle, staged ?? inlineMedia(validation.bundle), now) };
}

/** "6 services, 5 demos, …" for the CLI and the admin screen. */
export function describeImportSummary(s: ImportSummary): string {
  const parts = [
    plural(s.services, 'service'),
    plural(s.demos, 'demo'),
    plural(s.packages, 'package'),
    plural(s.articles, 'article'),
    plural(s.faqs, 'FAQ'),
    plural(s.seo, 'SEO entry', 'SEO entries'),
    plural(s.media, 'image'),
    plural(s.pages, 'policy page'),
  ];
  if (s.landingPageConfig) parts.push('the landing page layout');
  if (s.siteContent) parts.push('the site texts');
  return parts.join(', ');
}
