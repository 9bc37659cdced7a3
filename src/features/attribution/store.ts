/**
 * Where the visitor came from, kept in session storage (no cookie) from the first page of the visit: that
 * page's path, the referrer's host when it is another site, and the URL's utm_* parameters. Lead forms (the
 * free audit, the chat, sign-up, book-a-call clicks) send it with the lead. Browser-only, dependency-free:
 * it runs on every public page.
 */
export interface Attribution {
  sourcePage?: string;
  referrer?: string;
  utmSource?: string;
  utmMedium?: string;
  utmCampaign?: string;
  utmTerm?: string;
  utmContent?: string;
}

export const ATTRIBUTION_STORAGE_KEY = 'attribution';

const UTM = { utm_source: 'utmSource', utm_medium: 'utmMedium', utm_campaign: 'utmCampaign', utm_term: 'utmTerm', utm_content: 'utmContent' } as const;

/** The visit's attribution, or {} (storage blocked or nothing recorded). */
export function readAttribution(storage: Pick<Storage, 'getItem'> = sessionStorage): Attribution {
  try {
    const value: unknown = JSON.parse(storage.getItem(ATTRIBUTION_STORAGE_KEY) ?? '{}');
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Attribution) : {};
  } catch {
    return {};
  }
}

/** Records the landing page of this visit once; a later page with utm_* parameters (a new campaign click) replaces it. */
export function captureAttribution(location: Pick<Location, 'pathname' | 'search'>, referrer: string, ownHost: string, storage: Pick<Storage, 'getItem' | 'setItem'> = sessionStorage): void {
  try {
    const params = new URLSearchParams(location.search);
    const hasUtm = Object.keys(UTM).some((k) => params.get(k));
    if (storage.getItem(ATTRIBUTION_STORAGE_KEY) !== null && !hasUtm) return;
    const found: Attribution = { sourcePage: location.pathname };
    let host = '';
    try {
      host = referrer ? new URL(referrer).host : '';
    } catch {
      host = '';
    }
    if (host && host !== ownHost) found.referrer = host;
    for (const [param, key] of Object.entries(UTM)) {
      const v = params.get(param);
      if (v) found[key as (typeof UTM)[keyof typeof UTM]] = v.slice(0, 200);
    }
    storage.setItem(ATTRIBUTION_STORAGE_KEY, JSON.stringify(found));
  } catch {
    // Storage blocked (private mode, quota): the lead is still sent, without where it came from.
  }
}
