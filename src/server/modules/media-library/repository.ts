/**
 * The media library's data access (Drizzle only): image metadata without the bytes (a page of 24 images
 * must not read 24 pictures), the library's total size, and every place the site shows an image.
 */
import { count, desc, eq, ilike, or, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { appConfig, articles, demos, faqs, media, packages, seoPages, services } from '../../db/schema';
import type { MediaUsage } from '../../../shared/media-library';

export type Executor = Pick<Database, 'select' | 'insert' | 'update' | 'delete' | 'execute'>;

export type MediaInfo = Omit<typeof media.$inferSelect, 'data'>;
export type NewMedia = typeof media.$inferInsert;

const INFO_COLUMNS = {
  id: media.id,
  contentType: media.contentType,
  width: media.width,
  height: media.height,
  size: media.size,
  alt: media.alt,
  originalName: media.originalName,
  createdAt: media.createdAt,
};

/** Uploads wait for each other here, so two at once cannot both fit in the last free megabytes. */
export async function lockMedia(ex: Executor): Promise<void> {
  await ex.execute(sql`lock table ${media} in share row exclusive mode`);
}

export async function usedBytes(ex: Executor): Promise<number> {
  const [row] = await ex.select({ n: sql<string>`coalesce(sum(${media.size}), 0)` }).from(media);
  return Number(row?.n ?? 0);
}

export async function findMediaInfo(ex: Executor, id: string): Promise<MediaInfo | undefined> {
  const [row] = await ex.select(INFO_COLUMNS).from(media).where(eq(media.id, id)).limit(1);
  return row;
}

export async function insertMedia(ex: Executor, row: NewMedia): Promise<void> {
  await ex.insert(media).values(row);
}

export async function setMediaAlt(ex: Executor, id: string, alt: string): Promise<void> {
  await ex.update(media).set({ alt }).where(eq(media.id, id));
}

export async function deleteMediaRow(ex: Executor, id: string): Promise<void> {
  await ex.delete(media).where(eq(media.id, id));
}

const likePattern = (q: string) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Newest first; `q` matches the file name or the alt text. */
export async function listMediaInfo(ex: Executor, q: string, limit: number, offset: number): Promise<{ rows: MediaInfo[]; total: number }> {
  const where: SQL | undefined = q ? or(ilike(media.originalName, likePattern(q)), ilike(media.alt, likePattern(q)), eq(media.id, q.toLowerCase())) : undefined;
  const [rows, [total]] = await Promise.all([
    ex.select(INFO_COLUMNS).from(media).where(where).orderBy(desc(media.createdAt), desc(media.id)).limit(limit).offset(offset),
    ex.select({ n: count() }).from(media).where(where),
  ]);
  return { rows, total: total?.n ?? 0 };
}

// ---------------------------------------------------------------------------------------------------------
// Where images are used

/**
 * Every text column that can hold an image: the image fields themselves and the HTML that can embed one
 * (`<img src="/media/{id}.webp">`, or a variant of it). A media id is 32 hex digits, so finding it in the
 * text is exact enough; one regular expression per table covers a whole page of ids.
 */
interface UsageSource {
  kind: string;
  rows(ex: Executor, pattern: string): Promise<{ key: string; title: string; values: Record<string, string> }[]>;
  editHref(key: string): string | undefined;
}

const matches = (columns: SQL[], pattern: string) => or(...columns.map((c) => sql`${c} ~ ${pattern}`));

function tableSource(
  kind: string,
  adminPath: string | undefined,
  select: (ex: Executor, pattern: string) => Promise<{ key: string; title: string; values: Record<string, string> }[]>,
): UsageSource {
  return { kind, rows: select, editHref: (key) => (adminPath ? `${adminPath}/${encodeURIComponent(key)}` : undefined) };
}

const USAGE_SOURCES: readonly UsageSource[] = [
  tableSource('Service', '/admin/services', async (ex, p) =>
    (
      await ex
        .select({ key: services.id, title: services.name, picture: services.picture, description: services.description })
        .from(services)
        .where(matches([sql`${services.picture}`, sql`${services.description}`], p))
    ).map((r) => ({ key: r.key, title: r.title, values: { picture: r.picture, description: r.description } })),
  ),
  tableSource('Demo', '/admin/demos', async (ex, p) =>
    (
      await ex
        .select({ key: demos.id, title: demos.name, picture: demos.profilePicture, description: demos.description })
        .from(demos)
        .where(matches([sql`${demos.profilePicture}`, sql`${demos.description}`], p))
    ).map((r) => ({ key: r.key, title: r.title, values: { 'profile picture': r.picture, description: r.description } })),
  ),
  tableSource('Package', '/admin/packages', async (ex, p) =>
    (
      await ex
        .select({ key: packages.id, title: packages.name, picture: packages.picture, description: packages.description })
        .from(packages)
        .where(matches([sql`${packages.picture}`, sql`${packages.description}`], p))
    ).map((r) => ({ key: r.key, title: r.title, values: { picture: r.picture, description: r.description } })),
  ),
  tableSource('Article', '/admin/articles', async (ex, p) =>
    (
      await ex
        .select({ key: articles.id, title: articles.title, featured: articles.featuredImage, author: articles.authorImage, content: articles.content })
        .from(articles)
        .where(matches([sql`${articles.featuredImage}`, sql`${articles.authorImage}`, sql`${articles.content}`], p))
    ).map((r) => ({ key: r.key, title: r.title, values: { 'featured image': r.featured, 'author image': r.author, content: r.content } })),
  ),
  tableSource('FAQ', '/admin/faqs', async (ex, p) =>
    (await ex.select({ key: faqs.id, title: faqs.question, answer: faqs.answer }).from(faqs).where(matches([sql`${faqs.answer}`], p))).map((r) => ({
      key: r.key,
      title: r.title,
      values: { answer: r.answer },
    })),
  ),
  {
    kind: 'SEO',
    editHref: () => '/admin/seo',
    rows: async (ex, p) =>
      (await ex.select({ key: seoPages.path, image: seoPages.image }).from(seoPages).where(matches([sql`${seoPages.image}`], p))).map((r) => ({
        key: r.key,
        title: r.key,
        values: { 'share image': r.image },
      })),
  },
  {
    // Site texts (hero, testimonials, policies…) and any other settings document: the JSON path that holds it.
    kind: 'Site texts',
    editHref: () => '/admin/content',
    rows: async (ex, p) =>
      (await ex.select({ key: appConfig.key, value: appConfig.value }).from(appConfig).where(matches([sql`${appConfig.value}::text`], p))).map((r) => ({
        key: r.key,
        title: r.key === 'siteContent' ? '' : r.key,
        values: stringLeaves(r.value),
      })),
  },
];

/** Every string inside a JSON document, by its path ("testimonials.0.photo"). */
function stringLeaves(value: unknown, path = '', out: Record<string, string> = {}): Record<string, string> {
  if (typeof value === 'string') out[path || 'value'] = value;
  else if (Array.isArray(value)) value.forEach((v, i) => stringLeaves(v, path ? `${path}.${i}` : String(i), out));
  else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) stringLeaves(v, path ? `${path}.${k}` : k, out);
  return out;
}

/** Where each of `ids` is used (ids used nowhere map to an empty list). */
export async function findUsage(ex: Executor, ids: readonly string[]): Promise<Map<string, MediaUsage[]>> {
  const usage = new Map<string, MediaUsage[]>(ids.map((id) => [id, []]));
  // Only hex ids reach the pattern: nothing a caller typed becomes part of a regular expression.
  const wanted = ids.filter((id) => /^[0-9a-f]{32}$/.test(id));
  if (wanted.length === 0) return usage;
  const pattern = `(${wanted.join('|')})`;
  const found = await Promise.all(USAGE_SOURCES.map(async (source) => ({ source, rows: await source.rows(ex, pattern) })));
  for (const { source, rows } of found) {
    for (const row of rows) {
      for (const id of wanted) {
        const fields = Object.entries(row.values).filter(([, text]) => text.includes(id)).map(([field]) => field);
        if (fields.length) usage.get(id)!.push({ kind: source.kind, title: row.title, field: fields.join(', '), editHref: source.editHref(row.key) });
      }
    }
  }
  return usage;
}
