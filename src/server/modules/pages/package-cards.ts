/**
 * Everything a PackageCard needs besides the package: its included services (in includedServiceIds order)
 * and the server-side BEST VALUE decision. One query for all services of all packages on the page.
 */
import { inIncludedOrder } from '../../../shared/cards';
import { bestValuePackageIds } from '../catalog/best-value';
import { listServicesByIds, type PublicPackage } from '../catalog/repository';
import { loggedOnly } from '../logged-only';

export interface PackageCardData {
  pkg: PublicPackage;
  includedServices: { id: string; name: string; shortText: string }[];
  bestValue: boolean;
}

export async function loadPackageCards(pkgs: readonly PublicPackage[]): Promise<PackageCardData[]> {
  if (pkgs.length === 0) return [];
  const ids = [...new Set(pkgs.flatMap((p) => p.includedServiceIds))];
  const [services, bestValue] = await Promise.all([
    loggedOnly('included services', () => listServicesByIds(ids), []),
    // Without the decision, no badge is the safe answer. Only these packages: the public pages hand active
    // ones, an admin's preview an inactive one.
    loggedOnly('best value packages', () => bestValuePackageIds(pkgs.map((p) => p.id)), new Set<string>()),
  ]);
  const slim = services.map((s) => ({ id: s.id, name: s.name, shortText: s.shortText }));
  return pkgs.map((pkg) => ({
    pkg,
    includedServices: inIncludedOrder(pkg.includedServiceIds, slim),
    bestValue: bestValue.has(pkg.id),
  }));
}
