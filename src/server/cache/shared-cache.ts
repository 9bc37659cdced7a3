/**
 * Headers for caches shared between visitors (a CDN, Varnish, nginx): docs/decisions/024. Only a response
 * the route cache would also replay to everyone gets them (byte-limited-provider.ts decides), so a CDN
 * never stores anything personal. Browsers keep revalidating (max-age=0); shared caches keep the page for
 * s-maxage and may serve it a little stale while they fetch a new copy. The page's route-cache tags go out
 * in the headers the big CDNs purge by: Surrogate-Key (Fastly, Varnish; space-separated), Cache-Tag
 * (Cloudflare) and CDN-Tag (Bunny; both comma-separated).
 */
import { config } from '../config';

export const SURROGATE_KEY_HEADER = 'Surrogate-Key';
export const CDN_TAG_HEADER = 'CDN-Tag';

export interface SharedCachePolicy {
  maxAgeSeconds: number;
  staleSeconds: number;
}

export function sharedCacheControl({ maxAgeSeconds, staleSeconds }: SharedCachePolicy): string {
  return `public, max-age=0, s-maxage=${maxAgeSeconds}, stale-while-revalidate=${staleSeconds}`;
}

/** Marks a response every visitor may be served from a shared cache, tagged for purging. */
export function applySharedCacheHeaders(headers: Headers, tags: readonly string[], policy: SharedCachePolicy = configuredPolicy()) {
  headers.set('Cache-Control', sharedCacheControl(policy));
  if (tags.length === 0) return;
  headers.set(SURROGATE_KEY_HEADER, tags.join(' '));
  // Astro removes Cache-Tag from what it renders (it takes its provider for the CDN): server.mjs writes it
  // back from Surrogate-Key. Set here too, so the stored copy replayed on a route-cache hit carries it.
  headers.set('Cache-Tag', tags.join(','));
  headers.set(CDN_TAG_HEADER, tags.join(','));
}

function configuredPolicy(): SharedCachePolicy {
  const { CDN_MAX_AGE_SECONDS, CDN_STALE_SECONDS } = config();
  return { maxAgeSeconds: CDN_MAX_AGE_SECONDS, staleSeconds: CDN_STALE_SECONDS };
}
