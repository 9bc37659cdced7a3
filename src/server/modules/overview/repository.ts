/** Counts of the content tables for the admin overview (Drizzle only), read in parallel. */
import { count, sql } from 'drizzle-orm';
import { db } from '../../db';
import type { Database } from '../../db/client';
import { articles, demos, faqs, media, packages, services } from '../../db/schema';
import { pictureAltSql } from '../media-library/picture-alt';

export interface ContentCounts {
  services: number;
  packages: { active: number; inactive: number };
  demos: number;
  /** featuredImageWithoutAlt: articles whose featured image has no alt text (required wherever the seed has one). */
  articles: { published: number; drafts: number; featuredImageWithoutAlt: number };
  faqs: number;
  /** Stored images (originals; the narrower variants are made on request and not stored). */
  images: number;
}

const n = (v: unknown) => Number(v ?? 0);

export async function countContent(ex: Pick<Database, 'select'> = db()): Promise<ContentCounts> {
  const [[s], [p], [d], [a], [f], [m]] = await Promise.all([
    ex.select({ all: count() }).from(services),
    ex
      .select({ active: sql<number>`count(*) filter (where ${packages.isActive})`, inactive: sql<number>`count(*) filter (where not ${packages.isActive})` })
      .from(packages),
    ex.select({ all: count() }).from(demos),
    ex
      .select({
        published: sql<number>`count(*) filter (where ${articles.published})`,
        drafts: sql<number>`count(*) filter (where not ${articles.published})`,
        featuredImageWithoutAlt: sql<number>`count(*) filter (where ${articles.featuredImage} <> '' and trim(${pictureAltSql(articles.featuredImage, articles.featuredImageAlt)}) = '')`,
      })
      .from(articles),
    ex.select({ all: count() }).from(faqs),
    ex.select({ all: count() }).from(media),
  ]);
  return {
    services: n(s?.all),
    packages: { active: n(p?.active), inactive: n(p?.inactive) },
    demos: n(d?.all),
    articles: { published: n(a?.published), drafts: n(a?.drafts), featuredImageWithoutAlt: n(a?.featuredImageWithoutAlt) },
    faqs: n(f?.all),
    images: n(m?.all),
  };
}
