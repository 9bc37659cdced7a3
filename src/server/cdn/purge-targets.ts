/**
 * How each supported CDN or caching proxy is told to drop the pages carrying some tags (docs/decisions/024).
 * The tags are the route cache's (src/server/cache/tags.ts), sent on every public page in Surrogate-Key,
 * Cache-Tag and CDN-Tag (src/server/cache/shared-cache.ts).
 *  - Cloudflare: purge by Cache-Tag, API token with the zone's "Cache Purge" permission, 30 tags a call.
 *  - Fastly: surrogate-key purge of the service, API token with purge_select, 256 keys a call.
 *  - Bunny: pull zone purge by CDN-Tag, the account's API key, one tag a call.
 *  - Varnish (or nginx with a purge module): `PURGE` to the operator's address with the tags in a
 *    Surrogate-Key request header; docs/deploy/varnish.vcl bans every object whose Surrogate-Key holds one.
 */
import type { AppConfig } from '../config';

export type PurgeTarget =
  | { kind: 'cloudflare' | 'fastly' | 'bunny'; zone: string; token: string }
  | { kind: 'varnish'; url: string };

export interface PurgeRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  body?: string;
}

/** The target the operator configured, or undefined when no purge is sent. config.ts checks the pieces. */
export function purgeTargetFrom(cfg: Pick<AppConfig, 'CDN_PURGE' | 'CDN_PURGE_URL' | 'CDN_PURGE_ZONE' | 'CDN_PURGE_TOKEN'>): PurgeTarget | undefined {
  switch (cfg.CDN_PURGE) {
    case undefined:
      return undefined;
    case 'varnish':
      return { kind: 'varnish', url: cfg.CDN_PURGE_URL! };
    default:
      return { kind: cfg.CDN_PURGE, zone: cfg.CDN_PURGE_ZONE!, token: cfg.CDN_PURGE_TOKEN! };
  }
}

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

const JSON_HEADERS = { 'Content-Type': 'application/json', Accept: 'application/json' };

/** The HTTP requests that purge `tags` (already without duplicates) on `target`. */
export function purgeRequests(target: PurgeTarget, tags: readonly string[]): PurgeRequest[] {
  if (tags.length === 0) return [];
  switch (target.kind) {
    case 'cloudflare':
      return chunks(tags, 30).map((part) => ({
        url: `https://api.cloudflare.com/client/v4/zones/${encodeURIComponent(target.zone)}/purge_cache`,
        method: 'POST',
        headers: { ...JSON_HEADERS, Authorization: `Bearer ${target.token}` },
        body: JSON.stringify({ tags: part }),
      }));
    case 'fastly':
      return chunks(tags, 256).map((part) => ({
        url: `https://api.fastly.com/service/${encodeURIComponent(target.zone)}/purge`,
        method: 'POST',
        headers: { Accept: 'application/json', 'Fastly-Key': target.token, 'Surrogate-Key': part.join(' ') },
      }));
    case 'bunny':
      return tags.map((tag) => ({
        url: `https://api.bunny.net/pullzone/${encodeURIComponent(target.zone)}/purgeCache`,
        method: 'POST',
        headers: { ...JSON_HEADERS, AccessKey: target.token },
        body: JSON.stringify({ CacheTag: tag }),
      }));
    case 'varnish':
      return [{ url: target.url, method: 'PURGE', headers: { 'Surrogate-Key': tags.join(' ') } }];
  }
}
