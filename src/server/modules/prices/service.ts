/**
 * Member prices: the answer of /api/prices and the dashboard's price list. Authorization happens in the
 * caller (middleware guard + the route's own check); this module only reads and shapes.
 */
import { bestValuePackageIds } from '../catalog/best-value';
import { getSiteContent } from '../site/service';
import { listActivePackagePrices, listServicePrices } from './repository';

/** A missing price stays null: the island shows "Price on request" rather than a made-up $0. */
export interface PriceSheet {
  currency: string;
  services: Record<string, { price: number | null }>;
  packages: Record<string, { priceSetup: number | null; priceMonthly: number | null }>;
}

export interface PriceList {
  currency: string;
  services: { id: string; name: string; price: number | null }[];
  packages: { id: string; name: string; priceSetup: number | null; priceMonthly: number | null; bestValue: boolean }[];
}

/** Everything a price list shows, in display order (services and active packages by their `order`). */
export async function getPriceList(): Promise<PriceList> {
  const [site, services, packages, bestValue] = await Promise.all([
    getSiteContent(),
    listServicePrices(),
    listActivePackagePrices(),
    bestValuePackageIds(),
  ]);
  return {
    currency: site.currency,
    services,
    packages: packages.map((p) => ({ ...p, bestValue: bestValue.has(p.id) })),
  };
}

/** The /api/prices body: prices keyed by id, for filling the price slots of any page. */
export async function getPriceSheet(): Promise<PriceSheet> {
  const [site, services, packages] = await Promise.all([getSiteContent(), listServicePrices(), listActivePackagePrices()]);
  return {
    currency: site.currency,
    services: Object.fromEntries(services.map((s) => [s.id, { price: s.price }])),
    packages: Object.fromEntries(packages.map((p) => [p.id, { priceSetup: p.priceSetup, priceMonthly: p.priceMonthly }])),
  };
}
