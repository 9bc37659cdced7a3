/**
 * Which detail pages exist for visitors: services and demos, active packages, published articles (the same
 * rows the sitemap lists). Drizzle only.
 */
import { and, eq } from 'drizzle-orm';
import { db } from '../../db';
import type { Database } from '../../db/client';
import { articles, demos, packages, services } from '../../db/schema';
import type { DetailKind } from '../../../shared/site-routes';

type Reader = Pick<Database, 'select'>;

export type DetailIds = Record<DetailKind, Set<string>>;

/** Every public detail page's id (slug for articles): a few thousand strings at most. */
export async function publicDetailIds(ex: Reader = db()): Promise<DetailIds> {
  const [serviceRows, packageRows, demoRows, articleRows] = await Promise.all([
    ex.select({ id: services.id }).from(services),
    ex.select({ id: packages.id }).from(packages).where(eq(packages.isActive, true)),
    ex.select({ id: demos.id }).from(demos),
    ex.select({ id: articles.slug }).from(articles).where(eq(articles.published, true)),
  ]);
  const ids = (rows: { id: string }[]) => new Set(rows.map((r) => r.id));
  return { service: ids(serviceRows), package: ids(packageRows), demo: ids(demoRows), article: ids(articleRows) };
}

/** Whether one detail page exists for visitors: one primary-key (or unique slug) lookup. */
export async function detailExists(kind: DetailKind, id: string, ex: Reader = db()): Promise<boolean> {
  const query = {
    service: () => ex.select({ id: services.id }).from(services).where(eq(services.id, id)),
    package: () => ex.select({ id: packages.id }).from(packages).where(and(eq(packages.id, id), eq(packages.isActive, true))),
    demo: () => ex.select({ id: demos.id }).from(demos).where(eq(demos.id, id)),
    article: () => ex.select({ id: articles.id }).from(articles).where(and(eq(articles.slug, id), eq(articles.published, true))),
  }[kind];
  return (await query().limit(1)).length > 0;
}
