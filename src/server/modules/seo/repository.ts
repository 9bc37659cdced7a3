/** Stored SEO metadata per public page (table seo_pages, keyed by path). Drizzle only. */
import { asc, desc, eq, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { db } from '../../db';
import { appConfig, articles, demos, packages, seoPages, services, type SeoPage } from '../../db/schema';

export type StoredSeo = Pick<
  SeoPage,
  'title' | 'description' | 'keywords' | 'image' | 'url' | 'type' | 'author' | 'publishedTime' | 'modifiedTime' | 'siteNameAfterTitle'
>;

const seoDefaults = alias(seoPages, 'seo_defaults');

const storedColumns = (t: typeof seoPages | typeof seoDefaults) => ({
  title: t.title,
  description: t.description,
  keywords: t.keywords,
  image: t.image,
  url: t.url,
  type: t.type,
  author: t.author,
  publishedTime: t.publishedTime,
  modifiedTime: t.modifiedTime,
  siteNameAfterTitle: t.siteNameAfterTitle,
});

/**
 * The stored metadata of `path`, the site defaults entry (stored under `defaultsPath`) and the
 * site-content document, in one round trip: every uncached page render calls this, so it must not cost
 * several queries. `(select 1)` anchors the left joins so any of the rows may be missing.
 */
export async function readSeoAndSiteContent(
  path: string,
  siteContentKey: string,
  defaultsPath: string,
): Promise<{ page: StoredSeo | undefined; defaults: StoredSeo | undefined; siteContent: unknown }> {
  const [row] = await db()
    .select({
      page: { path: seoPages.path, ...storedColumns(seoPages) },
      defaults: { path: seoDefaults.path, ...storedColumns(seoDefaults) },
      siteContent: appConfig.value,
    })
    .from(sql`(select 1) as anchor`)
    .leftJoin(seoPages, eq(seoPages.path, path))
    .leftJoin(seoDefaults, eq(seoDefaults.path, defaultsPath))
    .leftJoin(appConfig, eq(appConfig.key, siteContentKey));
  if (!row) return { page: undefined, defaults: undefined, siteContent: undefined };
  const found = (r: { path: string | null } | null): StoredSeo | undefined => {
    if (!r || r.path === null) return undefined;
    const { path: _path, ...stored } = r;
    return stored as StoredSeo;
  };
  return { page: found(row.page), defaults: found(row.defaults), siteContent: row.siteContent ?? undefined };
}

export async function upsertSeoPage(path: string, values: Partial<StoredSeo>): Promise<void> {
  await db()
    .insert(seoPages)
    .values({ path, ...values })
    .onConflictDoUpdate({ target: seoPages.path, set: { ...values, updatedAt: new Date() } });
}

export interface SitemapRows {
  services: { id: string; updatedAt: Date }[];
  packages: { id: string; updatedAt: Date }[];
  demos: { id: string; updatedAt: Date }[];
  articles: { slug: string; updatedAt: Date }[];
}

/** Ids and last-change times of every public detail page: active packages and published articles only. */
export async function listSitemapRows(): Promise<SitemapRows> {
  const [serviceRows, packageRows, demoRows, articleRows] = await Promise.all([
    db().select({ id: services.id, updatedAt: services.updatedAt }).from(services).orderBy(asc(services.order), asc(services.id)),
    db()
      .select({ id: packages.id, updatedAt: packages.updatedAt })
      .from(packages)
      .where(eq(packages.isActive, true))
      .orderBy(asc(packages.order), asc(packages.id)),
    db().select({ id: demos.id, updatedAt: demos.updatedAt }).from(demos).orderBy(asc(demos.order), asc(demos.id)),
    db()
      .select({ slug: articles.slug, updatedAt: articles.updatedAt })
      .from(articles)
      .where(eq(articles.published, true))
      .orderBy(desc(articles.createdAt), asc(articles.id)),
  ]);
  return { services: serviceRows, packages: packageRows, demos: demoRows, articles: articleRows };
}
