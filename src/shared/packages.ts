import { BEST_VALUE_MIN_SERVICES, BEST_VALUE_MIN_SETUP_PRICE } from './constants';

/** The rule as the package editor states it; `formatPrice` writes the site currency. */
export function bestValueRule(formatPrice: (amount: number) => string): string {
  return `A package with at least ${BEST_VALUE_MIN_SERVICES} included services and a setup price of at least ${formatPrice(BEST_VALUE_MIN_SETUP_PRICE)} gets the badge.`;
}

/** BEST VALUE from the number of included services and the setup price (seed section 4). */
export function qualifiesForBestValue(includedServices: number, priceSetup: number | null): boolean {
  return includedServices >= BEST_VALUE_MIN_SERVICES && priceSetup !== null && priceSetup >= BEST_VALUE_MIN_SETUP_PRICE;
}

/** BEST VALUE: at least 3 included services and a setup price of at least 1000 (seed section 4). */
export function isBestValue(pkg: { includedServiceIds: readonly string[]; priceSetup: number | null }): boolean {
  return qualifiesForBestValue(pkg.includedServiceIds.length, pkg.priceSetup);
}

/**
 * What a package still lacks for the badge, in words for the editor ("2 more included services", "a
 * setup price of at least $1,000"); empty when it qualifies. `formatPrice` writes the site currency.
 */
export function bestValueShortfall(includedServices: number, priceSetup: number | null, formatPrice: (amount: number) => string): string[] {
  const missing: string[] = [];
  const more = BEST_VALUE_MIN_SERVICES - includedServices;
  if (more > 0) missing.push(`${more} more included service${more === 1 ? '' : 's'}`);
  if (priceSetup === null || priceSetup < BEST_VALUE_MIN_SETUP_PRICE) {
    missing.push(`a setup price of at least ${formatPrice(BEST_VALUE_MIN_SETUP_PRICE)}${priceSetup === null ? '' : ` (now ${formatPrice(priceSetup)})`}`);
  }
  return missing;
}
