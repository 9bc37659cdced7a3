import { BEST_VALUE_MIN_SERVICES, BEST_VALUE_MIN_SETUP_PRICE } from './constants';

/** BEST VALUE: at least 3 included services and a setup price of at least 1000 (seed section 4). */
export function isBestValue(pkg: { includedServiceIds: readonly string[]; priceSetup: number | null }): boolean {
  return (
    pkg.includedServiceIds.length >= BEST_VALUE_MIN_SERVICES &&
    pkg.priceSetup !== null &&
    pkg.priceSetup >= BEST_VALUE_MIN_SETUP_PRICE
  );
}
