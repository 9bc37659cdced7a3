/**
 * The landing page's reads, shaped for its hot path: each list comes back with its total from one query
 * (`count(*) over ()` is computed before LIMIT), and the included services of the previewed packages come
 * from one join. Columns match the public catalog reads, so no price ever leaves this module.
 */
import { asc, desc, eq, getTableColumns, inArray, sql } from 'drizzle-orm';
import { isBestValue } from '../../../shared/packages';
import { db, dbHandle } from '../../db';
import { articles, demos, packageServices, packages, services, type Article } from '../../db/schema';
import { publicPackageColumns, publicServiceColumns, type PublicDemo, type PublicPackage, type PublicService } from '../catalog/repository';

export interface Preview<T> {
  items: T[];
  total: number;
}

export interface IncludedService {
  id: string;
  name: string;
  shortText: string;
}

export interface PackagePreview extends PublicPackage {
  includedServices: IncludedService[];
  bestValue: boolean;
}

/** Enough HTML for the 20-word excerpt fallback of an article card, however heavy its markup. */
const EXCERPT_SOURCE_CHARS = 4000;

const total = sql<number>`cast(count(*) over () as integer)`.as('total');

function split<T extends { total: number }>(rows: T[]): Preview<Omit<T, 'total'>> {
  return {
    total: rows[0]?.total ?? 0,
    items: rows.map(({ total: _total, ...item }) => item),
  };
}

export async function previewServices(limit: number): Promise<Preview<PublicService>> {
  const rows = await db()
    .select({ ...publicServiceColumns, total })
    .from(services)
    .orderBy(asc(services.order), asc(services.createdAt))
    .limit(limit);
  return split(rows);
}

export async function previewDemos(limit: number): Promise<Preview<PublicDemo>> {
  const rows = await db()
    .select({ ...getTableColumns(demos), total })
    .from(demos)
    .orderBy(asc(demos.order), asc(demos.createdAt))
    .limit(limit);
  return split(rows);
}

export async function previewPublishedArticles(limit: number): Promise<Preview<Article>> {
  const rows = await db()
    .select({
      ...getTableColumns(articles),
      content: sql<string>`case when ${articles.excerpt} = '' then left(${articles.content}, ${sql.raw(String(EXCERPT_SOURCE_CHARS))}) else '' end`,
      total,
    })
    .from(articles)
    .where(eq(articles.published, true))
    .orderBy(desc(articles.createdAt), desc(articles.id))
    .limit(limit);
  return split(rows);
}

/**
 * Active packages with their included services (in package order) and the BEST VALUE decision. The setup
 * price is read only to apply the rule and is dropped before the result leaves this function.
 */
export async function previewActivePackages(limit: number): Promise<Preview<PackagePreview>> {
  const rows = await db()
    .select({ ...publicPackageColumns, priceSetup: packages.priceSetup, total })
    .from(packages)
    .where(eq(packages.isActive, true))
    .orderBy(asc(packages.order), asc(packages.createdAt))
    .limit(limit);
  if (rows.length === 0) return { items: [], total: 0 };

  const included = await db()
    .select({
      packageId: packageServices.packageId,
      id: services.id,
      name: services.name,
      shortText: services.shortText,
    })
    .from(packageServices)
    .innerJoin(services, eq(services.id, packageServices.serviceId))
    .where(
      inArray(
        packageServices.packageId,
        rows.map((r) => r.id),
      ),
    )
    .orderBy(asc(packageServices.packageId), asc(packageServices.position));
  const byPackage = new Map<string, IncludedService[]>(rows.map((r) => [r.id, []]));
  for (const { packageId, ...service } of included) byPackage.get(packageId)?.push(service);

  return {
    total: rows[0]!.total,
    items: rows.map(({ total: _total, priceSetup, ...pkg }) => {
      const includedServices = byPackage.get(pkg.id) ?? [];
      const includedServiceIds = includedServices.map((s) => s.id);
      return { ...pkg, includedServiceIds, includedServices, bestValue: isBestValue({ includedServiceIds, priceSetup }) };
    }),
  };
}

/** What one landing render needs from the database, as read by {@link readLandingSnapshot}. */
export interface LandingSnapshot {
  /** The stored landing-page config document (blockOrder, hidden), or null. */
  landingConfig: unknown;
  /** The stored site-content document, or null. */
  siteContent: unknown;
  services: Preview<PublicService>;
  packages: Preview<PackagePreview>;
  demos: Preview<PublicDemo>;
  articles: Preview<Article>;
  faqs: { id: string; question: string; answer: string }[];
}

type Json = Record<string, unknown>;
const dated = <T>(row: Json): T =>
  ({ ...row, createdAt: new Date(row.createdAt as string), updatedAt: new Date(row.updatedAt as string) }) as T;

const KEY = /^[A-Za-z][A-Za-z0-9_-]*$/;

/** The snapshot statement, with its constants written in (checked), so it can be prepared once as is. */
function snapshotSql(limit: number, keys: { landing: string; site: string }): string {
  if (!Number.isInteger(limit) || limit < 0 || !KEY.test(keys.landing) || !KEY.test(keys.site)) {
    throw new Error('landing snapshot: invalid limit or config key');
  }
  return `
    select
      (select value from app_config where key = '${keys.landing}') as "landingConfig",
      (select value from app_config where key = '${keys.site}') as "siteContent",
      (select count(*) from services)::int as "servicesTotal",
      (select coalesce(json_agg(s), '[]'::json) from (
        select id, name, picture, short_text as "shortText", description, benefits, sort_order as "order",
               created_at as "createdAt", updated_at as "updatedAt"
        from services order by sort_order, created_at limit ${limit}) s) as services,
      (select count(*) from packages where is_active)::int as "packagesTotal",
      (select coalesce(json_agg(p), '[]'::json) from (
        select pk.id, pk.name, pk.description, pk.picture, pk.short_text as "shortText", pk.features,
               pk.is_active as "isActive", pk.sort_order as "order", pk.created_at as "createdAt",
               pk.updated_at as "updatedAt", pk.price_setup as "priceSetup",
               (select coalesce(json_agg(json_build_object('id', sv.id, 'name', sv.name, 'shortText', sv.short_text)
                                         order by ps.position), '[]'::json)
                from package_services ps join services sv on sv.id = ps.service_id
                where ps.package_id = pk.id) as "includedServices"
        from packages pk where pk.is_active order by pk.sort_order, pk.created_at limit ${limit}) p) as packages,
      (select count(*) from demos)::int as "demosTotal",
      (select coalesce(json_agg(d), '[]'::json) from (
        select id, name, profile_picture as "profilePicture", short_text as "shortText", description,
               suitable_for as "suitableFor", sort_order as "order", created_at as "createdAt", updated_at as "updatedAt"
        from demos order by sort_order, created_at limit ${limit}) d) as demos,
      (select count(*) from articles where published)::int as "articlesTotal",
      (select coalesce(json_agg(a), '[]'::json) from (
        -- A card shows the excerpt, or the first 20 words of the content when there is none: the
        -- body is only needed (and its head is enough) in that case.
        select id, slug, title, excerpt,
               case when excerpt = '' then left(content, ${EXCERPT_SOURCE_CHARS}) else '' end as content,
               featured_image as "featuredImage",
               featured_image_alt as "featuredImageAlt", author_name as "authorName", author_image as "authorImage",
               tags, published, created_at as "createdAt", updated_at as "updatedAt"
        from articles where published order by created_at desc, id desc limit ${limit}) a) as articles,
      (select coalesce(json_agg(f), '[]'::json) from (
        select id, question, answer from faqs order by sort_order, created_at) f) as faqs`;
}

/** PGlite: the name of the snapshot statement prepared on each database (tests open several). */
const preparedOn = new WeakMap<object, Map<string, string>>();
let preparedCount = 0;

/**
 * Runs the statement. PGlite plans every query from scratch, and planning this one costs ~5 ms while
 * executing it costs ~1 ms, so on PGlite (one connection per process) it is PREPAREd once and EXECUTEd
 * after. PostgreSQL plans it natively in a fraction of a millisecond and may hand each query to another
 * pooled connection, so it runs as a plain query there.
 */
async function runSnapshot(text: string): Promise<unknown> {
  const database = db();
  if (dbHandle()?.kind === 'postgres') return database.execute(sql.raw(text));
  let byText = preparedOn.get(database);
  if (!byText) preparedOn.set(database, (byText = new Map()));
  let name = byText.get(text);
  if (!name) {
    name = `landing_snapshot_${++preparedCount}`;
    await database.execute(sql.raw(`prepare ${name} as ${text}`));
    byText.set(text, name);
  }
  try {
    return await database.execute(sql.raw(`execute ${name}`));
  } catch (err) {
    // E.g. a migration changed a table under it: prepare again next time.
    byText.delete(text);
    throw err;
  }
}

/**
 * Everything above in ONE statement: on PGlite every query pays a fixed cost, and the uncached landing
 * render must reach 300 req/s on two cores. The separate reads above stay the fallback: when this
 * statement fails, each section is read (and may fail) on its own.
 */
export async function readLandingSnapshot(limit: number, configKeys: { landing: string; site: string }): Promise<LandingSnapshot> {
  const result = await runSnapshot(snapshotSql(limit, configKeys));
  const row = (result as unknown as { rows: Json[] }).rows[0]!;
  const list = (key: string) => (typeof row[key] === 'string' ? JSON.parse(row[key] as string) : row[key]) as Json[];
  return {
    landingConfig: row.landingConfig ?? null,
    siteContent: row.siteContent ?? null,
    services: { total: row.servicesTotal as number, items: list('services').map((r) => dated<PublicService>(r)) },
    demos: { total: row.demosTotal as number, items: list('demos').map((r) => dated<PublicDemo>(r)) },
    articles: { total: row.articlesTotal as number, items: list('articles').map((r) => dated<Article>(r)) },
    packages: {
      total: row.packagesTotal as number,
      items: list('packages').map(({ priceSetup, includedServices, ...r }) => {
        const included = includedServices as IncludedService[];
        const includedServiceIds = included.map((s) => s.id);
        const pkg = dated<PublicPackage>({ ...r, includedServiceIds });
        return { ...pkg, includedServices: included, bestValue: isBestValue({ includedServiceIds, priceSetup: priceSetup as number | null }) };
      }),
    },
    faqs: list('faqs') as LandingSnapshot['faqs'],
  };
}
