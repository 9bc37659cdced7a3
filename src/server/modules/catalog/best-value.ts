/**
 * Which active packages get the BEST VALUE badge (seed section 4). The rule needs the setup price, which
 * public reads never select; it is applied here, on the server, and only the yes/no leaves this module.
 */
import { count, eq } from 'drizzle-orm';
import { isBestValue } from '../../../shared/packages';
import { db } from '../../db';
import { packageServices, packages } from '../../db/schema';

export async function bestValuePackageIds(): Promise<Set<string>> {
  const rows = await db()
    .select({ id: packages.id, priceSetup: packages.priceSetup, included: count(packageServices.serviceId) })
    .from(packages)
    .leftJoin(packageServices, eq(packageServices.packageId, packages.id))
    .where(eq(packages.isActive, true))
    .groupBy(packages.id, packages.priceSetup);
  const ids = new Set<string>();
  for (const r of rows) {
    // isBestValue looks at the number of included services only, so a list of that length stands in for the ids.
    if (isBestValue({ includedServiceIds: Array.from({ length: Number(r.included) }, () => ''), priceSetup: r.priceSetup })) {
      ids.add(r.id);
    }
  }
  return ids;
}
