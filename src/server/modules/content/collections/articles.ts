/**
 * Articles in the admin (seed section 3): title, slug (/article/{slug}), excerpt, HTML content, featured
 * image and its alt text, author, tags, published. Listed newest first: the public order is the date, not
 * an admin choice. A draft has no public page, so renaming its slug leaves no redirect behind.
 */
import { eq } from 'drizzle-orm';
import { articleSchema } from '../../../../shared/schemas/catalog';
import type { z } from '../../../../shared/zod';
import { CACHE_TAGS } from '../../../cache/tags';
import { articles } from '../../../db/schema';
import { pictureAltSql } from '../../media-library/picture-alt';
import type { Collection, ListRow, Snapshot } from '../types';
import { iso, tableOps } from './table-ops';

const fields = articleSchema;
type Fields = z.output<typeof fields>;

const ops = tableOps({
  table: articles,
  id: articles.id,
  createdAt: articles.createdAt,
  search: [articles.title, articles.excerpt, articles.slug],
  sorts: { created: articles.createdAt, title: articles.title, updated: articles.updatedAt },
  filters: { published: eq(articles.published, true), draft: eq(articles.published, false) },
  urlKey: articles.slug,
});

/** The article's page; `?preview` for a draft, which only an admin can open. */
export const articleHref = (slug: string, published: boolean) => `/article/${encodeURIComponent(slug)}${published ? '' : '?preview'}`;

function toSnapshot(row: typeof articles.$inferSelect): Snapshot {
  return {
    id: row.id,
    order: 0,
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
    title: row.title,
    slug: row.slug,
    excerpt: row.excerpt,
    content: row.content,
    featuredImage: row.featuredImage,
    featuredImageAlt: row.featuredImageAlt,
    authorName: row.authorName,
    authorImage: row.authorImage,
    tags: row.tags,
    published: row.published,
  };
}

function badgesOf(row: { published: boolean; featuredImage: string; featuredImageAlt: string }): ListRow['badges'] {
  const badges: ListRow['badges'] = [];
  if (!row.published) badges.push({ label: 'Draft', tone: 'neutral' });
  // Imported articles may predate the alt-text rule, and a library picture's alt text can be emptied in the
  // library: the list shows which ones to fix.
  if (row.featuredImage && !row.featuredImageAlt.trim()) badges.push({ label: 'Picture without alt text', tone: 'warning' });
  return badges;
}

export const articlesCollection: Collection<Fields> = {
  type: 'article',
  label: { one: 'article', many: 'articles' },
  adminSlug: 'articles',
  fields,
  htmlFields: ['content'],
  // /articles, /article/{slug}, the landing page's latest four and the sitemap all carry this tag.
  tags: [CACHE_TAGS.articles],
  titleField: 'title',
  urlField: 'slug',
  publicPath: (s) => (s.published === true ? `/article/${encodeURIComponent(String(s.slug))}` : undefined),
  ordered: false,
  list: {
    sorts: [
      { key: 'created', label: 'Date created' },
      { key: 'title', label: 'Title' },
      { key: 'updated', label: 'Last changed' },
    ],
    filters: [
      { key: 'published', label: 'Published' },
      { key: 'draft', label: 'Drafts' },
    ],
  },

  ...ops.storage(toSnapshot),
  async listRows(ex, query) {
    const { rows, total } = await ops.page(ex, query, {
      id: articles.id,
      slug: articles.slug,
      title: articles.title,
      excerpt: articles.excerpt,
      featuredImage: articles.featuredImage,
      featuredImageAlt: pictureAltSql(articles.featuredImage, articles.featuredImageAlt),
      published: articles.published,
      updatedAt: articles.updatedAt,
    });
    return {
      total,
      rows: rows.map((r) => ({
        id: r.id,
        title: r.title,
        subtitle: `/article/${r.slug}${r.excerpt ? ` · ${r.excerpt}` : ''}`,
        badges: badgesOf(r),
        picture: r.featuredImage,
        order: 0,
        updatedAt: iso(r.updatedAt),
        publicPath: articleHref(r.slug, r.published),
      })),
    };
  },
};
