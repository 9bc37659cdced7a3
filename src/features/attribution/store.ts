/**
 * Where the visitor came from, kept in session storage (no cookie) from the first page of the visit: that
 * page's path, the referring site's origin when it is another site, and the URL's utm_* parameters. Lead
 * forms (the free audit, the chat, sign-up, book-a-call clicks) send it with the lead; the server cleans it
 * again (cleanAttribution in src/shared/schemas/audit.ts). Browser-only and dependency-free: it runs on
 * every public page, so every byte here is paid on the landing page.
 */
import type { AttributionKey, AuditAttribution } from '../../shared/schemas/audit';

/** The shape the server cleans and stores (types only: nothing of the schema module ships here). */
export type Attribution = AuditAttribution;
export type { AttributionKey };

export const ATTRIBUTION_STORAGE_KEY = 'attribution';

/** The most characters kept of one value: the server keeps UTM values up to UTM_MAX_LENGTH (src/shared/utm.ts). */
export const ATTRIBUTION_VALUE_MAX = 100;

/** The utm_* parameters kept (utm_source → utmSource …). */
const UTM_NAMES = ['source', 'medium', 'campaign', 'term', 'content'] as const;
const utmKey = (name: string) => `utm${name[0]!.toUpperCase()}${name.slice(1)}` as AttributionKey;

type Reader = Pick<Storage, 'getItem'>;
type ReadWriter = Pick<Storage, 'getItem' | 'setItem'>;

/**
 * The visit's attribution, or {} (storage blocked, nothing recorded, or no object under the key). Not
 * checked further: it is only sent back to this site, whose server cleans every value it receives.
 */
export function readAttribution(storage?: Reader): Attribution {
  try {
    const value: unknown = JSON.parse((storage ?? sessionStorage).getItem(ATTRIBUTION_STORAGE_KEY) ?? '{}');
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Attribution) : {};
  } catch {
    return {};
  }
}

/** The referring site's origin ("https://www.google.com": no path, which may carry personal data), unless it is this site. */
function foreignOrigin(referrer: string, ownHost: string): string | undefined {
  try {
    const url = new URL(referrer);
    return /^https?:$/.test(url.protocol) && url.host !== ownHost ? url.origin : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Records the landing page of this visit once; a later page with utm_* parameters (a new campaign click in
 * the same tab) replaces it. Never throws: a blocked storage only means the lead arrives without a source.
 */
export function captureAttribution(location: Pick<Location, 'pathname' | 'search'>, referrer: string, ownHost: string, storage?: ReadWriter): void {
  try {
    const store = storage ?? sessionStorage;
    const params = new URLSearchParams(location.search);
    const found: Attribution = { sourcePage: location.pathname };
    let hasUtm = false;
    for (const name of UTM_NAMES) {
      const v = params.get(`utm_${name}`);
      if (v) {
        found[utmKey(name)] = v.slice(0, ATTRIBUTION_VALUE_MAX);
        hasUtm = true;
      }
    }
    if (store.getItem(ATTRIBUTION_STORAGE_KEY) !== null && !hasUtm) return;
    const origin = foreignOrigin(referrer, ownHost);
    if (origin) found.referrer = origin;
    store.setItem(ATTRIBUTION_STORAGE_KEY, JSON.stringify(found));
  } catch {
    // Storage blocked (private mode, quota): the lead is still sent, without where it came from.
  }
}

/**
 * Fills the lead forms' hidden attribution inputs under `root`: each is marked `data-attribution="<key>"`
 * (utmSource …) and named as the server reads it (ATTRIBUTION_FIELDS in src/shared/schemas/audit.ts).
 */
export function fillAttributionInputs(root: ParentNode, attribution: Attribution): void {
  for (const input of root.querySelectorAll<HTMLInputElement>('input[data-attribution]')) {
    input.value = attribution[input.dataset.attribution as AttributionKey] ?? '';
  }
}

/**
 * Carries the visit's UTM values on a "Book a call" link as it is followed: Calendly and Cal.com keep them
 * with the booking and send them back in their webhooks, so a booking made by a visitor who never left an
 * email is still attributed (issue 23). A link that names UTM values of its own keeps them. Done on the
 * click, not on load: the landing page's script budget pays for a few bytes, not a walk over the links.
 */
export function tagBookingLink(link: HTMLAnchorElement, attribution: Attribution): void {
  try {
    const url = new URL(link.href);
    if (url.search.includes('utm_')) return;
    for (const name of UTM_NAMES) {
      const value = attribution[utmKey(name)];
      if (value) url.searchParams.set(`utm_${name}`, value);
    }
    link.href = url.href;
  } catch {
    // Not a URL the browser can read: the link stays as the admin wrote it.
  }
}
