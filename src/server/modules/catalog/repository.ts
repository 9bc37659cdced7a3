/**
 * Public reads of services, packages and demos. Price columns are never selected here: public HTML and
 * JSON must not contain prices (PRODUCT.md), so they are read only by the member-only price module.
 */
import { and, asc, count, eq, getTableColumns, inArray } from 'drizzle-orm';
import { db } from '../../db';
import { demos, packageServices, packages, services } from '../../db/schema';
import { pictureAltSql } from '../media-library/picture-alt';

/** Each picture's alt text as pages show it: the media item's for a library picture (decision 033). */
const servicePictureAlt = pictureAltSql(services.picture, services.pictureAlt);
const packagePictureAlt = pictureAltSql(packages.picture, packages.pictureAlt);
const demoPictureAlt = pictureAltSql(demos.profilePicture, demos.profilePictureAlt);

/** Every column of a demo (none is private), its picture's alt text as shown. */
const publicDemoColumns = { ...getTableColumns(demos), profilePictureAlt: demoPictureAlt };

/** Every public column of a service: all but the price. */
export const publicServiceColumns = {
  id: services.id,
  name: services.name,
  picture: services.picture,
  pictureAlt: servicePictureAlt,
  shortText: services.shortText,
  description: services.description,
  benefits: services.benefits,
  order: services.order,
  createdAt: services.createdAt,
  updatedAt: services.updatedAt,
};

/** Every public column of a package: all but its prices. */
export const publicPackageColumns = {
  id: packages.id,
  name: packages.name,
  description: packages.description,
  picture: packages.picture,
  pictureAlt: packagePictureAlt,
  shortText: packages.shortText,
  features: packages.features,
  isActive: packages.isActive,
  order: packages.order,
  createdAt: packages.createdAt,
  updatedAt: packages.updatedAt,
};

export type PublicService = Awaited<ReturnType<typeof listServices>>[number];
export type PublicDemo = Awaited<ReturnType<typeof listDemos>>[number];
export type PublicPackage = Awaited<ReturnType<typeof listActivePackages>>[number];

/**
 * What a card shows (src/components/cards). List pages hand cards whole records; the landing page, whose
 * uncached render is on the hot path, reads only these columns.
 */
export const serviceCardColumns = {
  id: services.id,
  name: services.name,
  picture: services.picture,
  pictureAlt: servicePictureAlt,
  shortText: services.shortText,
  benefits: services.benefits,
};
export const demoCardColumns = {
  id: demos.id,
  name: demos.name,
  profilePicture: demos.profilePicture,
  profilePictureAlt: demoPictureAlt,
  shortText: demos.shortText,
  suitableFor: demos.suitableFor,
};
export const packageCardColumns = {
  id: packages.id,
  name: packages.name,
  picture: packages.picture,
  pictureAlt: packagePictureAlt,
  shortText: packages.shortText,
  features: packages.features,
};
export type ServiceCardFields = Pick<PublicService, keyof typeof serviceCardColumns>;
export type DemoCardFields = Pick<PublicDemo, keyof typeof demoCardColumns>;
export type PackageCardFields = Pick<PublicPackage, keyof typeof packageCardColumns>;

export async function listServices(limit?: number) {
  const q = db().select(publicServiceColumns).from(services).orderBy(asc(services.order), asc(services.createdAt));
  return limit === undefined ? q : q.limit(limit);
}

export async function countServices(): Promise<number> {
  const [row] = await db().select({ n: count() }).from(services);
  return row?.n ?? 0;
}

export async function getService(id: string) {
  const [row] = await db().select(publicServiceColumns).from(services).where(eq(services.id, id));
  return row;
}

export async function listServicesByIds(ids: readonly string[]) {
  if (ids.length === 0) return [];
  return db().select(publicServiceColumns).from(services).where(inArray(services.id, [...ids]));
}

export async function listDemos(limit?: number) {
  const q = db().select(publicDemoColumns).from(demos).orderBy(asc(demos.order), asc(demos.createdAt));
  return limit === undefined ? q : q.limit(limit);
}

export async function countDemos(): Promise<number> {
  const [row] = await db().select({ n: count() }).from(demos);
  return row?.n ?? 0;
}

export async function getDemo(id: string) {
  const [row] = await db().select(publicDemoColumns).from(demos).where(eq(demos.id, id));
  return row;
}

/** includedServiceIds per package, in their stored order. */
async function includedServiceIds(packageIds: string[]): Promise<Map<string, string[]>> {
  const map = new Map<string, string[]>(packageIds.map((id) => [id, []]));
  if (packageIds.length === 0) return map;
  const rows = await db()
    .select({ packageId: packageServices.packageId, serviceId: packageServices.serviceId })
    .from(packageServices)
    .where(inArray(packageServices.packageId, packageIds))
    .orderBy(asc(packageServices.position));
  for (const r of rows) map.get(r.packageId)?.push(r.serviceId);
  return map;
}

export async function listActivePackages(limit?: number) {
  const q = db()
    .select(publicPackageColumns)
    .from(packages)
    .where(eq(packages.isActive, true))
    .orderBy(asc(packages.order), asc(packages.createdAt));
  const rows = await (limit === undefined ? q : q.limit(limit));
  const included = await includedServiceIds(rows.map((r) => r.id));
  return rows.map((r) => ({ ...r, includedServiceIds: included.get(r.id) ?? [] }));
}

export async function countActivePackages(): Promise<number> {
  const [row] = await db().select({ n: count() }).from(packages).where(eq(packages.isActive, true));
  return row?.n ?? 0;
}

export async function getActivePackage(id: string) {
  return getPackage(id, { activeOnly: true });
}

/** A package whatever its status: for an admin's preview (pages/preview.ts); visitors get getActivePackage. */
export async function getPackage(id: string, { activeOnly = false } = {}) {
  const [row] = await db()
    .select(publicPackageColumns)
    .from(packages)
    .where(activeOnly ? and(eq(packages.id, id), eq(packages.isActive, true)) : eq(packages.id, id));
  if (!row) return undefined;
  const included = await includedServiceIds([row.id]);
  return { ...row, includedServiceIds: included.get(row.id) ?? [] };
}

/** Active packages that include a service (shown on the service's detail page). */
export async function listActivePackagesIncluding(serviceId: string) {
  const rows = await db()
    .select({ id: packages.id })
    .from(packageServices)
    .innerJoin(packages, eq(packages.id, packageServices.packageId))
    .where(and(eq(packageServices.serviceId, serviceId), eq(packages.isActive, true)));
  const ids = new Set(rows.map((r) => r.id));
  return (await listActivePackages()).filter((p) => ids.has(p.id));
}
