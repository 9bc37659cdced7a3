/**
 * Which packages get the BEST VALUE badge (seed section 4). The rule needs the setup price, which public
 * reads never select; it is applied here, on the server, and only the yes/no leaves this module.
 */
import { count, eq, inArray } from 'drizzle-orm';
import { qualifiesForBestValue } from '../../../shared/packages';
import { db } from '../../db';
import { packageServices, packages } from '../../db/schema';

/**
 * The active packages that qualify; or, given `ids`, those of them that qualify whatever their status (an
 * admin's preview of an inactive package shows the badge it will have once active).
 */
export async function bestValuePackageIds(ids?: readonly string[]): Promise<Set<string>> {
  if (ids?.length === 0) return new Set();
  const rows = await db()
    .select({ id: packages.id, priceSetup: packages.priceSetup, included: count(packageServices.serviceId) })
    .from(packages)
    .leftJoin(packageServices, eq(packageServices.packageId, packages.id))
    .where(ids ? inArray(packages.id, [...ids]) : eq(packages.isActive, true))
    .groupBy(packages.id, packages.priceSetup);
  return new Set(rows.filter((r) => qualifiesForBestValue(Number(r.included), r.priceSetup)).map((r) => r.id));
}
