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

type Guard = <T>(label: string, read: () => Promise<T>, fallback: T) => Promise<T>;

/** A render that shows a package without its included services or badge beats an error page. */
const lenient: Guard = loggedOnly;
/** Kept reads (public-content.ts) must fail instead: a degraded card would stay until the next save. */
const strict: Guard = (_label, read) => read();

async function cardsOf(pkgs: readonly PublicPackage[], guard: Guard): Promise<PackageCardData[]> {
  if (pkgs.length === 0) return [];
  const ids = [...new Set(pkgs.flatMap((p) => p.includedServiceIds))];
  const [services, bestValue] = await Promise.all([
    guard('included services', () => listServicesByIds(ids), []),
    // Without the decision, no badge is the safe answer. Only these packages: the public pages hand active
    // ones, an admin's preview an inactive one.
    guard('best value packages', () => bestValuePackageIds(pkgs.map((p) => p.id)), new Set<string>()),
  ]);
  const slim = services.map((s) => ({ id: s.id, name: s.name, shortText: s.shortText }));
  return pkgs.map((pkg) => ({
    pkg,
    includedServices: inIncludedOrder(pkg.includedServiceIds, slim),
    bestValue: bestValue.has(pkg.id),
  }));
}

export const loadPackageCards = (pkgs: readonly PublicPackage[]) => cardsOf(pkgs, lenient);

/** The same cards, or the read's error. */
export const packageCardsOrThrow = (pkgs: readonly PublicPackage[]) => cardsOf(pkgs, strict);
