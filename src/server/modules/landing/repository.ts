/**
 * The landing page's reads, shaped for its hot path: each list comes back with its total from one query
 * (`count(*) over ()` is computed before LIMIT), and the included services of the previewed packages come
 * from one join. Only the columns a card shows are read, so no price ever leaves this module.
 */
import { asc, desc, eq, inArray, sql } from 'drizzle-orm';
import { isBestValue } from '../../../shared/packages';
import { db, dbHandle } from '../../db';
import { articles, demos, packageServices, packages, services } from '../../db/schema';
import { articleCardColumns, type ArticleCardFields } from '../articles/repository';
import { pictureAltSqlText } from '../media-library/picture-alt';
import {
  demoCardColumns,
  packageCardColumns,
  serviceCardColumns,
  type DemoCardFields,
  type PackageCardFields,
  type ServiceCardFields,
} from '../catalog/repository';

export interface Preview<T> {
  items: T[];
  total: number;
}

export interface IncludedService {
  id: string;
  name: string;
  shortText: string;
}

export interface PackagePreview extends PackageCardFields {
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

export async function previewServices(limit: number): Promise<Preview<ServiceCardFields>> {
  const rows = await db()
    .select({ ...serviceCardColumns, total })
    .from(services)
    .orderBy(asc(services.order), asc(services.createdAt))
    .limit(limit);
  return split(rows);
}

export async function previewDemos(limit: number): Promise<Preview<DemoCardFields>> {
  const rows = await db()
    .select({ ...demoCardColumns, total })
    .from(demos)
    .orderBy(asc(demos.order), asc(demos.createdAt))
    .limit(limit);
  return split(rows);
}

export async function previewPublishedArticles(limit: number): Promise<Preview<ArticleCardFields>> {
  const rows = await db()
    .select({
      ...articleCardColumns,
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
    .select({ ...packageCardColumns, priceSetup: packages.priceSetup, total })
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
      return { ...pkg, includedServices, bestValue: isBestValue({ includedServiceIds: includedServices.map((s) => s.id), priceSetup }) };
    }),
  };
}

/** What one landing render needs from the database, as read by {@link readLandingSnapshot}. */
export interface LandingSnapshot {
  /** The stored landing-page config document (blockOrder, hidden), or null. */
  landingConfig: unknown;
  /** The stored site-content document, or null. */
  siteContent: unknown;
  services: Preview<ServiceCardFields>;
  packages: Preview<PackagePreview>;
  demos: Preview<DemoCardFields>;
  articles: Preview<ArticleCardFields>;
  faqs: { id: string; question: string; answer: string }[];
}

type Json = Record<string, unknown>;

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
        select id, name, picture, ${pictureAltSqlText('picture', 'picture_alt')} as "pictureAlt", short_text as "shortText", benefits
        from services order by sort_order, created_at limit ${limit}) s) as services,
      (select count(*) from packages where is_active)::int as "packagesTotal",
      (select coalesce(json_agg(p), '[]'::json) from (
        select pk.id, pk.name, pk.picture, ${pictureAltSqlText('pk.picture', 'pk.picture_alt')} as "pictureAlt", pk.short_text as "shortText", pk.features, pk.price_setup as "priceSetup",
               (select coalesce(json_agg(json_build_object('id', sv.id, 'name', sv.name, 'shortText', sv.short_text)
                                         order by ps.position), '[]'::json)
                from package_services ps join services sv on sv.id = ps.service_id
                where ps.package_id = pk.id) as "includedServices"
        from packages pk where pk.is_active order by pk.sort_order, pk.created_at limit ${limit}) p) as packages,
      (select count(*) from demos)::int as "demosTotal",
      (select coalesce(json_agg(d), '[]'::json) from (
        select id, name, profile_picture as "profilePicture", ${pictureAltSqlText('profile_picture', 'profile_picture_alt')} as "profilePictureAlt", short_text as "shortText", suitable_for as "suitableFor"
        from demos order by sort_order, created_at limit ${limit}) d) as demos,
      (select count(*) from articles where published)::int as "articlesTotal",
      (select coalesce(json_agg(a), '[]'::json) from (
        -- A card shows the excerpt, or the first 20 words of the content when there is none: the
        -- body is only needed (and its head is enough) in that case.
        select id, slug, title, excerpt,
               case when excerpt = '' then left(content, ${EXCERPT_SOURCE_CHARS}) else '' end as content,
               featured_image as "featuredImage", ${pictureAltSqlText('featured_image', 'featured_image_alt')} as "featuredImageAlt", tags,
               created_at as "createdAt"
        from articles where published order by created_at desc, id desc limit ${limit}) a) as articles,
      (select coalesce(json_agg(f), '[]'::json) from (
        select id, question, answer from faqs order by sort_order, created_at) f) as faqs`;
}

/** PGlite: the name of the snapshot statement prepared on each database (tests open several). */
const preparedOn = new WeakMap<object, Map<string, string>>();
let preparedCount = 0;

/**
 * Runs the statement and returns its one row. PGlite plans every query from scratch, and planning this one
 * costs ~5 ms while executing it costs under 1 ms, so on PGlite (one connection per process) it is
 * PREPAREd once and EXECUTEd after, over the simple query protocol: one message instead of the five of a
 * parameterised query (-0.1 ms a render, measured). PostgreSQL plans it natively in a fraction of a
 * millisecond and may hand each query to another pooled connection, so it runs as a plain query there.
 */
async function runSnapshot(text: string): Promise<Json> {
  const handle = dbHandle();
  const client = handle?.pglite;
  if (!client) return ((await db().execute(sql.raw(text))) as unknown as { rows: Json[] }).rows[0]!;
  let byText = preparedOn.get(client);
  if (!byText) preparedOn.set(client, (byText = new Map()));
  let name = byText.get(text);
  if (!name) {
    name = `landing_snapshot_${++preparedCount}`;
    await client.exec(`prepare ${name} as ${text}`);
    byText.set(text, name);
  }
  try {
    const [result] = await client.exec(`execute ${name}`);
    return result!.rows[0] as Json;
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
  const row = await runSnapshot(snapshotSql(limit, configKeys));
  const list = (key: string) => (typeof row[key] === 'string' ? JSON.parse(row[key] as string) : row[key]) as Json[];
  return {
    landingConfig: row.landingConfig ?? null,
    siteContent: row.siteContent ?? null,
    services: { total: row.servicesTotal as number, items: list('services') as unknown as ServiceCardFields[] },
    demos: { total: row.demosTotal as number, items: list('demos') as unknown as DemoCardFields[] },
    articles: {
      total: row.articlesTotal as number,
      items: list('articles').map((r) => ({ ...r, createdAt: new Date(r.createdAt as string) }) as unknown as ArticleCardFields),
    },
    packages: {
      total: row.packagesTotal as number,
      items: list('packages').map(({ priceSetup, includedServices, ...r }) => {
        const included = includedServices as IncludedService[];
        const bestValue = isBestValue({ includedServiceIds: included.map((s) => s.id), priceSetup: priceSetup as number | null });
        return { ...(r as unknown as PackageCardFields), includedServices: included, bestValue };
      }),
    },
    faqs: list('faqs') as LandingSnapshot['faqs'],
  };
}
