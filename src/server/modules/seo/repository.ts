/** Stored SEO metadata per public page (table seo_pages, keyed by path). Drizzle only. */
import { asc, desc, eq, sql } from 'drizzle-orm';
import { db } from '../../db';
import { appConfig, articles, demos, packages, seoPages, services, type SeoPage } from '../../db/schema';

export type StoredSeo = Pick<
  SeoPage,
  'title' | 'description' | 'keywords' | 'image' | 'url' | 'type' | 'author' | 'publishedTime' | 'modifiedTime'
>;

/**
 * The stored metadata of `path` and the site-content document, in one round trip: every uncached page
 * render calls this, so it must not cost two queries. `(select 1)` anchors the two left joins so either
 * row may be missing.
 */
export async function readSeoAndSiteContent(
  path: string,
  siteContentKey: string,
): Promise<{ page: StoredSeo | undefined; siteContent: unknown }> {
  const [row] = await db()
    .select({
      path: seoPages.path,
      title: seoPages.title,
      description: seoPages.description,
      keywords: seoPages.keywords,
      image: seoPages.image,
      url: seoPages.url,
      type: seoPages.type,
      author: seoPages.author,
      publishedTime: seoPages.publishedTime,
      modifiedTime: seoPages.modifiedTime,
      siteContent: appConfig.value,
    })
    .from(sql`(select 1) as anchor`)
    .leftJoin(seoPages, eq(seoPages.path, path))
    .leftJoin(appConfig, eq(appConfig.key, siteContentKey));
  if (!row) return { page: undefined, siteContent: undefined };
  const { path: foundPath, siteContent, ...page } = row;
  return { page: foundPath === null ? undefined : (page as StoredSeo), siteContent: siteContent ?? undefined };
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
