/**
 * Rows of the site-wide documents (Drizzle only): app_config documents by key, seo_pages entries by path,
 * and the content counts of the /admin/content hub. Writes take the caller's transaction; reads inside a
 * write lock the row so two admins' saves of one document run one after the other.
 */
import { eq, inArray, sql } from 'drizzle-orm';
import { db } from '../../db';
import type { Database } from '../../db/client';
import { appConfig, articles, demos, faqs, packages, seoPages, services } from '../../db/schema';

export type Executor = Pick<Database, 'select' | 'insert' | 'update' | 'delete' | 'execute'>;

export interface StoredRow<V> {
  value: V;
  updatedAt: Date;
}

// ---------------------------------------------------------------------------------------------------------
// app_config documents

export async function readConfigRow(ex: Executor, key: string, lock = false): Promise<StoredRow<unknown> | undefined> {
  const query = ex.select({ value: appConfig.value, updatedAt: appConfig.updatedAt }).from(appConfig).where(eq(appConfig.key, key));
  const [row] = await (lock ? query.for('update') : query);
  return row;
}

/**
 * Writes the document: an update of the row the caller read (and locked), or the first insert. False when
 * the row appeared since the caller saw none (another admin's first save won the race).
 */
export async function putConfigRow(ex: Executor, key: string, value: unknown, updatedAt: Date, exists: boolean): Promise<boolean> {
  if (exists) {
    const updated = await ex.update(appConfig).set({ value, updatedAt }).where(eq(appConfig.key, key)).returning({ key: appConfig.key });
    return updated.length === 1;
  }
  const inserted = await ex.insert(appConfig).values({ key, value, updatedAt }).onConflictDoNothing().returning({ key: appConfig.key });
  return inserted.length === 1;
}

export async function deleteConfigRow(ex: Executor, key: string): Promise<void> {
  await ex.delete(appConfig).where(eq(appConfig.key, key));
}

// ---------------------------------------------------------------------------------------------------------
// seo_pages entries

export interface SeoRowValues {
  title: string;
  description: string;
  keywords: string;
  image: string;
  url: string;
  type: string;
  author: string;
  publishedTime: Date | null;
  modifiedTime: Date | null;
  /** null: the title decides whether the site name follows it. */
  siteNameAfterTitle: boolean | null;
}

const seoColumns = {
  title: seoPages.title,
  description: seoPages.description,
  keywords: seoPages.keywords,
  image: seoPages.image,
  url: seoPages.url,
  type: seoPages.type,
  author: seoPages.author,
  publishedTime: seoPages.publishedTime,
  modifiedTime: seoPages.modifiedTime,
  siteNameAfterTitle: seoPages.siteNameAfterTitle,
};

export async function readSeoRow(ex: Executor, path: string, lock = false): Promise<StoredRow<SeoRowValues> | undefined> {
  const query = ex.select({ ...seoColumns, updatedAt: seoPages.updatedAt }).from(seoPages).where(eq(seoPages.path, path));
  const [row] = await (lock ? query.for('update') : query);
  if (!row) return undefined;
  const { updatedAt, ...value } = row;
  return { value, updatedAt };
}

/** As putConfigRow, for one path's entry. */
export async function putSeoRow(ex: Executor, path: string, value: SeoRowValues, updatedAt: Date, exists: boolean): Promise<boolean> {
  if (exists) {
    const updated = await ex.update(seoPages).set({ ...value, updatedAt }).where(eq(seoPages.path, path)).returning({ path: seoPages.path });
    return updated.length === 1;
  }
  const inserted = await ex.insert(seoPages).values({ path, ...value, updatedAt }).onConflictDoNothing().returning({ path: seoPages.path });
  return inserted.length === 1;
}

export async function deleteSeoRow(ex: Executor, path: string): Promise<void> {
  await ex.delete(seoPages).where(eq(seoPages.path, path));
}

/** The stored entries of these paths (a path without an entry is missing from the map). */
export async function readSeoRows(paths: readonly string[], ex: Executor = db()): Promise<Map<string, StoredRow<SeoRowValues>>> {
  if (paths.length === 0) return new Map();
  const rows = await ex
    .select({ path: seoPages.path, ...seoColumns, updatedAt: seoPages.updatedAt })
    .from(seoPages)
    .where(inArray(seoPages.path, [...paths]));
  return new Map(rows.map(({ path, updatedAt, ...value }) => [path, { value, updatedAt }]));
}

// ---------------------------------------------------------------------------------------------------------
// The hub's counts

export interface ContentCounts {
  services: number;
  packages: number;
  activePackages: number;
  demos: number;
  articles: number;
  publishedArticles: number;
  faqs: number;
}

/** Every count the hub shows, in one round trip. */
export async function countContent(ex: Executor = db()): Promise<ContentCounts> {
  const [row] = await ex
    .select({
      services: sql<number>`(select count(*)::int from ${services})`,
      packages: sql<number>`(select count(*)::int from ${packages})`,
      activePackages: sql<number>`(select count(*)::int from ${packages} where ${packages.isActive})`,
      demos: sql<number>`(select count(*)::int from ${demos})`,
      articles: sql<number>`(select count(*)::int from ${articles})`,
      publishedArticles: sql<number>`(select count(*)::int from ${articles} where ${articles.published})`,
      faqs: sql<number>`(select count(*)::int from ${faqs})`,
    })
    .from(sql`(select 1) as anchor`);
  return row!;
}
