/** Public reads of articles: published only, newest first. */
import { and, count, desc, eq, getTableColumns, ne, sql, type SQL } from 'drizzle-orm';
import { db } from '../../db';
import { articles, type Article } from '../../db/schema';
import { pictureAltSql } from '../media-library/picture-alt';

/** The featured image's alt text as pages show it: the media item's for a library picture (decision 033). */
const featuredImageAlt = pictureAltSql(articles.featuredImage, articles.featuredImageAlt);

/** Every column of an article, its featured image's alt text as shown. */
const articleColumns = { ...getTableColumns(articles), featuredImageAlt };

/** What an article card shows (src/components/cards/ArticleCard.astro); `content` only for the excerpt fallback. */
export const articleCardColumns = {
  id: articles.id,
  slug: articles.slug,
  title: articles.title,
  excerpt: articles.excerpt,
  content: articles.content,
  featuredImage: articles.featuredImage,
  featuredImageAlt,
  tags: articles.tags,
  createdAt: articles.createdAt,
};
export type ArticleCardFields = Pick<Article, keyof typeof articleCardColumns>;

const hasTag = (tag: string): SQL => sql`${articles.tags} @> ${JSON.stringify([tag])}::jsonb`;

function publishedWhere(tag?: string) {
  return tag ? and(eq(articles.published, true), hasTag(tag)) : eq(articles.published, true);
}

export async function listPublishedArticles(opts: { limit?: number; offset?: number; tag?: string } = {}) {
  const q = db()
    .select(articleColumns)
    .from(articles)
    .where(publishedWhere(opts.tag))
    .orderBy(desc(articles.createdAt), desc(articles.id))
    .offset(opts.offset ?? 0);
  return opts.limit === undefined ? q : q.limit(opts.limit);
}

export async function countPublishedArticles(tag?: string): Promise<number> {
  const [row] = await db().select({ n: count() }).from(articles).where(publishedWhere(tag));
  return row?.n ?? 0;
}

/** The article at /article/{slug} whether published or not: for an admin's preview only. */
export async function getArticleBySlugForPreview(slug: string) {
  const [row] = await db().select(articleColumns).from(articles).where(eq(articles.slug, slug));
  return row;
}

export async function getPublishedArticleBySlug(slug: string) {
  const [row] = await db()
    .select(articleColumns)
    .from(articles)
    .where(and(eq(articles.slug, slug), eq(articles.published, true)));
  return row;
}

async function tagCounts(where: SQL | undefined): Promise<{ tag: string; count: number }[]> {
  const rows = await db()
    .select({ tag: sql<string>`jsonb_array_elements_text(${articles.tags})`.as('tag') })
    .from(articles)
    .where(where);
  const counts = new Map<string, number>();
  for (const r of rows) counts.set(r.tag, (counts.get(r.tag) ?? 0) + 1);
  return [...counts].map(([tag, n]) => ({ tag, count: n })).sort((a, b) => b.count - a.count || a.tag.localeCompare(b.tag));
}

/** All tags of published articles with how often each is used, most used first. */
export const listPublishedTags = () => tagCounts(eq(articles.published, true));

/** Every tag in use, drafts included, most used first: the admin's suggestions. */
export const listTagsInUse = () => tagCounts(undefined);

/** Up to `limit` other published articles, those sharing the most tags first, then the newest. */
export async function listRelatedArticles(article: { id: string; tags: string[] }, limit = 3) {
  const others = await db()
    .select(articleColumns)
    .from(articles)
    .where(and(eq(articles.published, true), ne(articles.id, article.id)))
    .orderBy(desc(articles.createdAt));
  const shared = (tags: string[]) => tags.filter((t) => article.tags.includes(t)).length;
  return others
    .map((a, i) => ({ a, score: shared(a.tags), i }))
    .sort((x, y) => y.score - x.score || x.i - y.i)
    .slice(0, limit)
    .map((x) => x.a);
}
