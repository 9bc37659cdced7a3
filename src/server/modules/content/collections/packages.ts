/**
 * Packages in the admin (seed section 3): name, description, picture, short text, setup and monthly
 * prices, included services (in order, as rows of package_services), features and the active toggle.
 * The snapshot carries includedServiceIds in order, so an update, a duplicate and a revert write them back.
 */
import { asc, count, eq, inArray } from 'drizzle-orm';
import { qualifiesForBestValue } from '../../../../shared/packages';
import { packageSchema } from '../../../../shared/schemas/catalog';
import type { z } from '../../../../shared/zod';
import { CACHE_TAGS } from '../../../cache/tags';
import { packageServices, packages, services } from '../../../db/schema';
import { findRedirect } from '../../redirects/repository';
import type { Collection, Executor, ListRow, Snapshot } from '../types';
import { iso, tableOps } from './table-ops';

const fields = packageSchema;
type Fields = z.output<typeof fields>;

const ops = tableOps({
  table: packages,
  id: packages.id,
  order: packages.order,
  createdAt: packages.createdAt,
  search: [packages.name, packages.shortText, packages.id],
  sorts: { name: packages.name, updated: packages.updatedAt },
  filters: { active: eq(packages.isActive, true), inactive: eq(packages.isActive, false) },
});

const publicPath = (id: string) => `/package/${encodeURIComponent(id)}`;
const SERVICE_PATH = '/service/';

async function includedServiceIds(ex: Executor, packageId: string): Promise<string[]> {
  const rows = await ex
    .select({ serviceId: packageServices.serviceId })
    .from(packageServices)
    .where(eq(packageServices.packageId, packageId))
    .orderBy(asc(packageServices.position));
  return rows.map((r) => r.serviceId);
}

async function existingServiceIds(ex: Executor, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await ex.select({ id: services.id }).from(services).where(inArray(services.id, [...ids]));
  return new Set(rows.map((r) => r.id));
}

/**
 * The ids a restored package can include: each once, a service renamed since followed to its new id (its
 * old page redirects there), and one deleted since left out, as deleting it removed it from every package.
 * Create and update have refused unknown ids before (checkReferences), so there this changes nothing.
 */
async function restorableServiceIds(ex: Executor, ids: readonly string[]): Promise<string[]> {
  const unique = [...new Set(ids)];
  const existing = await existingServiceIds(ex, unique);
  const resolved: string[] = [];
  for (const id of unique) {
    let current: string | undefined = id;
    if (!existing.has(id)) {
      const to = await findRedirect(`${SERVICE_PATH}${encodeURIComponent(id)}`, ex);
      current = to?.startsWith(SERVICE_PATH) ? decodeURIComponent(to.slice(SERVICE_PATH.length)) : undefined;
      if (current !== undefined && !(await existingServiceIds(ex, [current])).has(current)) current = undefined;
    }
    if (current !== undefined && !resolved.includes(current)) resolved.push(current);
  }
  return resolved;
}

async function writeIncludedServices(ex: Executor, packageId: string, ids: readonly string[]) {
  await ex.delete(packageServices).where(eq(packageServices.packageId, packageId));
  const included = await restorableServiceIds(ex, ids);
  if (included.length === 0) return;
  await ex.insert(packageServices).values(included.map((serviceId, position) => ({ packageId, serviceId, position })));
}

/** The package row's columns: everything but the included services, which live in package_services. */
function rowValues({ includedServiceIds: _included, ...row }: Fields) {
  return row;
}

function toSnapshot(row: typeof packages.$inferSelect, included: string[]): Snapshot {
  return {
    id: row.id,
    order: row.order,
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
    name: row.name,
    description: row.description,
    picture: row.picture,
    pictureAlt: row.pictureAlt,
    shortText: row.shortText,
    priceSetup: row.priceSetup,
    priceMonthly: row.priceMonthly,
    includedServiceIds: included,
    features: row.features,
    isActive: row.isActive,
  };
}

/** Included services per package of a list page, counted in one query. */
async function includedCounts(ex: Executor, packageIds: string[]): Promise<Map<string, number>> {
  if (packageIds.length === 0) return new Map();
  const rows = await ex
    .select({ packageId: packageServices.packageId, n: count() })
    .from(packageServices)
    .where(inArray(packageServices.packageId, packageIds))
    .groupBy(packageServices.packageId);
  return new Map(rows.map((r) => [r.packageId, Number(r.n)]));
}

function badgesOf(isActive: boolean, bestValue: boolean): ListRow['badges'] {
  const badges: ListRow['badges'] = [];
  if (!isActive) badges.push({ label: 'Inactive', tone: 'warning' });
  if (bestValue) badges.push({ label: 'BEST VALUE', tone: 'success' });
  return badges;
}

export const packagesCollection: Collection<Fields> = {
  type: 'package',
  label: { one: 'package', many: 'packages' },
  adminSlug: 'packages',
  fields,
  htmlFields: ['description'],
  // Every page that shows a package carries this tag: /packages, /package/{id}, the service pages (the
  // packages that include it), the landing page and the sitemap.
  tags: [CACHE_TAGS.packages],
  titleField: 'name',
  publicPath: (s) => publicPath(s.id),
  ordered: true,
  list: {
    sorts: [
      { key: 'order', label: 'Public order' },
      { key: 'name', label: 'Name' },
      { key: 'updated', label: 'Last changed' },
    ],
    filters: [
      { key: 'active', label: 'Active' },
      { key: 'inactive', label: 'Inactive' },
    ],
  },

  async checkReferences(ex, f): Promise<Record<string, string>> {
    const seen = new Set<string>();
    const existing = await existingServiceIds(ex, f.includedServiceIds);
    for (const id of f.includedServiceIds) {
      if (seen.has(id)) return { includedServiceIds: `The service “${id}” is included twice: remove one.` };
      if (!existing.has(id)) return { includedServiceIds: `There is no service “${id}” (it may have been deleted or renamed): remove it and pick again.` };
      seen.add(id);
    }
    return {};
  },

  async read(ex, id) {
    const row = await ops.row(ex, id);
    return row && toSnapshot(row, await includedServiceIds(ex, id));
  },
  async insert(ex, id, f, order, restore) {
    await ops.insertRow(ex, id, rowValues(f), order, restore);
    await writeIncludedServices(ex, id, f.includedServiceIds);
  },
  async update(ex, id, f, newId) {
    // A new id follows into package_services by itself (ON UPDATE CASCADE); the list is then replaced.
    await ops.updateRow(ex, id, rowValues(f), newId);
    await writeIncludedServices(ex, newId ?? id, f.includedServiceIds);
  },
  remove: ops.remove,
  ids: ops.ids,
  setOrder: ops.setOrder,
  isTaken: ops.isTaken,
  async listRows(ex, query) {
    const { rows, total } = await ops.page(ex, query, {
      id: packages.id,
      name: packages.name,
      shortText: packages.shortText,
      picture: packages.picture,
      priceSetup: packages.priceSetup,
      isActive: packages.isActive,
      order: packages.order,
      updatedAt: packages.updatedAt,
    });
    const counts = await includedCounts(
      ex,
      rows.map((r) => r.id),
    );
    return {
      total,
      rows: rows.map((r) => {
        const bestValue = qualifiesForBestValue(counts.get(r.id) ?? 0, r.priceSetup);
        return {
          id: r.id,
          title: r.name,
          subtitle: r.shortText,
          badges: badgesOf(r.isActive, bestValue),
          picture: r.picture,
          order: r.order,
          updatedAt: iso(r.updatedAt),
          // Visitors get a 404 for an inactive package; the admin's link opens its preview.
          publicPath: r.isActive ? publicPath(r.id) : `${publicPath(r.id)}?preview`,
        };
      }),
    };
  },
};
