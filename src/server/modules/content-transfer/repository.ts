/**
 * Whole-table reads and upserts for export and import. Every function takes the transaction it runs in,
 * so an import is all-or-nothing and an export is one consistent snapshot. Drizzle only.
 */
import { asc, getTableColumns, inArray, sql, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Database } from '../../db/client';
import { appConfig, articles, demos, faqs, media, packageServices, packages, seoPages, services } from '../../db/schema';

export type Executor = Database;

const ROWS_PER_STATEMENT = 200;

/** `SET col = excluded.col` for every column but the key: an upsert that makes the row equal the file's. */
function takeIncoming(table: PgTable, key: string): Record<string, SQL> {
  return Object.fromEntries(
    Object.entries(getTableColumns(table))
      .filter(([name]) => name !== key)
      .map(([name, column]) => [name, sql.raw(`excluded."${column.name}"`)]),
  );
}

async function upsertRows<T extends PgTable>(tx: Executor, table: T, key: string, rows: T['$inferInsert'][]) {
  const target = getTableColumns(table)[key]!;
  const set = takeIncoming(table, key);
  for (let i = 0; i < rows.length; i += ROWS_PER_STATEMENT) {
    await tx
      .insert(table)
      .values(rows.slice(i, i + ROWS_PER_STATEMENT))
      .onConflictDoUpdate({ target, set });
  }
}

// ---------------------------------------------------------------------------------------------------------
// Reads

/** One query at a time: inside a transaction on PostgreSQL they share one connection (pg refuses overlap). */
export async function readExistingRefs(tx: Executor) {
  const serviceRows = await tx.select({ id: services.id }).from(services);
  const mediaRows = await tx.select({ id: media.id }).from(media);
  const articleRows = await tx.select({ id: articles.id, slug: articles.slug }).from(articles);
  return {
    serviceIds: new Set(serviceRows.map((r) => r.id)),
    mediaIds: new Set(mediaRows.map((r) => r.id)),
    articleSlugs: new Map(articleRows.map((r) => [r.slug, r.id])),
  };
}

/** In turn, not in parallel: a transaction on PostgreSQL is one connection (see readExistingRefs). */
export async function readAllContent(tx: Executor) {
  const serviceRows = await tx.select().from(services).orderBy(asc(services.order), asc(services.createdAt), asc(services.id));
  const demoRows = await tx.select().from(demos).orderBy(asc(demos.order), asc(demos.createdAt), asc(demos.id));
  const packageRows = await tx.select().from(packages).orderBy(asc(packages.order), asc(packages.createdAt), asc(packages.id));
  const links = await tx.select().from(packageServices).orderBy(asc(packageServices.packageId), asc(packageServices.position));
  const articleRows = await tx.select().from(articles).orderBy(asc(articles.createdAt), asc(articles.id));
  const faqRows = await tx.select().from(faqs).orderBy(asc(faqs.order), asc(faqs.createdAt), asc(faqs.id));
  const seoRows = await tx.select().from(seoPages).orderBy(asc(seoPages.path));
  // By id only: created-at differs between installs, the content hash does not. Without the bytes: an
  // export streams them one batch at a time (readMediaData).
  const mediaRows = await tx
    .select({ id: media.id, contentType: media.contentType, width: media.width, height: media.height, alt: media.alt })
    .from(media)
    .orderBy(asc(media.id));
  const configRows = await tx.select({ key: appConfig.key, value: appConfig.value }).from(appConfig);
  return {
    services: serviceRows,
    demos: demoRows,
    packages: packageRows,
    packageServices: links,
    articles: articleRows,
    faqs: faqRows,
    seo: seoRows,
    media: mediaRows,
    config: new Map(configRows.map((r) => [r.key, r.value as unknown])),
  };
}

/** The stored bytes of these images (those that still exist). */
export async function readMediaData(ex: Executor, ids: readonly string[]): Promise<Map<string, Buffer>> {
  if (ids.length === 0) return new Map();
  const rows = await ex.select({ id: media.id, data: media.data }).from(media).where(inArray(media.id, [...ids]));
  return new Map(rows.map((r) => [r.id, r.data]));
}

// ---------------------------------------------------------------------------------------------------------
// Writes

export const upsertServices = (tx: Executor, rows: (typeof services.$inferInsert)[]) => upsertRows(tx, services, 'id', rows);
export const upsertDemos = (tx: Executor, rows: (typeof demos.$inferInsert)[]) => upsertRows(tx, demos, 'id', rows);
export const upsertFaqs = (tx: Executor, rows: (typeof faqs.$inferInsert)[]) => upsertRows(tx, faqs, 'id', rows);
export const upsertSeoPages = (tx: Executor, rows: (typeof seoPages.$inferInsert)[]) => upsertRows(tx, seoPages, 'path', rows);

/** Packages and their includedServiceIds: each package's links are replaced by the file's list, in order. */
export async function upsertPackages(
  tx: Executor,
  rows: (typeof packages.$inferInsert)[],
  includedServiceIds: ReadonlyMap<string, readonly string[]>,
) {
  await upsertRows(tx, packages, 'id', rows);
  const ids = rows.map((r) => r.id);
  if (ids.length === 0) return;
  await tx.delete(packageServices).where(inArray(packageServices.packageId, ids));
  const links = ids.flatMap((packageId) =>
    (includedServiceIds.get(packageId) ?? []).map((serviceId, position) => ({ packageId, serviceId, position })),
  );
  for (let i = 0; i < links.length; i += ROWS_PER_STATEMENT) {
    await tx.insert(packageServices).values(links.slice(i, i + ROWS_PER_STATEMENT));
  }
}

/**
 * Articles keep their ids; slugs may move between them (A takes B's old slug while B gets a new one).
 * The slug column is unique per statement, so the file's articles first get a unique placeholder slug;
 * nobody sees it, the transaction replaces it before it commits.
 */
export async function upsertArticles(tx: Executor, rows: (typeof articles.$inferInsert)[]) {
  const ids = rows.map((r) => r.id);
  if (ids.length === 0) return;
  await tx
    .update(articles)
    .set({ slug: sql`'~import~' || ${articles.id}` })
    .where(inArray(articles.id, ids));
  await upsertRows(tx, articles, 'id', rows);
}

export async function upsertConfigDocuments(tx: Executor, docs: { key: string; value: unknown }[]) {
  if (docs.length === 0) return;
  await tx
    .insert(appConfig)
    .values(docs.map((d) => ({ key: d.key, value: d.value, updatedAt: new Date() })))
    .onConflictDoUpdate({ target: appConfig.key, set: { value: sql`excluded.value`, updatedAt: sql`excluded.updated_at` } });
}
