/**
 * The hidden inputs a lead form carries for the attribution: [key in the store, field name the server
 * reads]. The same names as ATTRIBUTION_FIELDS in src/shared/schemas/audit.ts (a unit test keeps them
 * equal), without importing that schema module into the islands that only need the names.
 */
import type { AttributionKey } from './store';

export const ATTRIBUTION_INPUTS: readonly (readonly [AttributionKey, string])[] = [
  ['sourcePage', 'sourcePage'],
  ['referrer', 'referrer'],
  ['utmSource', 'utm_source'],
  ['utmMedium', 'utm_medium'],
  ['utmCampaign', 'utm_campaign'],
  ['utmTerm', 'utm_term'],
  ['utmContent', 'utm_content'],
];
