/**
 * The only reader of price columns besides catalog/best-value.ts (which lets only a yes/no out). Callers
 * must have checked that the reader is a verified member or an admin (PRODUCT.md "Deliberate differences" 1).
 */
import { asc, eq } from 'drizzle-orm';
import { db } from '../../db';
import { packages, services } from '../../db/schema';

export async function listServicePrices() {
  return db()
    .select({ id: services.id, name: services.name, price: services.price })
    .from(services)
    .orderBy(asc(services.order), asc(services.createdAt));
}

/** Active packages only: an inactive package is not offered, so its price is nobody's business. */
export async function listActivePackagePrices() {
  return db()
    .select({ id: packages.id, name: packages.name, priceSetup: packages.priceSetup, priceMonthly: packages.priceMonthly })
    .from(packages)
    .where(eq(packages.isActive, true))
    .orderBy(asc(packages.order), asc(packages.createdAt));
}
