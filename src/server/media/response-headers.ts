/**
 * What every /media answer carries, built in one place for both ways it is served: through Astro
 * (serve.ts, whose middleware then finds nothing to change) and straight from server.mjs (fast-path.ts).
 * The security headers and `Vary` are the middleware's own, so both ways answer with the same headers.
 */
import type { MediaVariantWidth } from '../../shared/media-variants';
import { applySecurityHeaders } from '../security-headers';
import { MEDIA_CONTENT_TYPE } from './process';

/** The URL names the bytes (a content hash), so browsers and CDNs may keep them a year without asking. */
export const IMMUTABLE_CACHE_CONTROL = 'public, max-age=31536000, immutable';

export interface MediaFile {
  id: string;
  width?: MediaVariantWidth;
}

/** The cache key and the ETag's value: `{id}` or `{id}-w{width}`, never changing what it names. */
export const mediaKey = ({ id, width }: MediaFile) => (width ? `${id}-w${width}` : id);

export const etagOf = (file: MediaFile) => `"${mediaKey(file)}"`;

/**
 * Whether the browser already holds these bytes: its If-None-Match lists this URL's ETag (weak or strong).
 * Decided from the URL alone — the ETag is the content hash, so no read is needed to know it still matches.
 * `*` ("whatever you have") is not an ETag the client holds: it would confirm that the image exists,
 * so it is left to the caller, which knows.
 */
export function holdsEtag(ifNoneMatch: string | null | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.split(',').some((t) => t.trim().replace(/^W\//, '') === etag);
}

/** The headers of a 200 (with its length) or a 304 (without), as name/value pairs in sending order. */
export function mediaHeaders(etag: string, length: number | undefined, https = false): [string, string][] {
  const headers = new Headers({ 'Content-Type': MEDIA_CONTENT_TYPE, 'Cache-Control': IMMUTABLE_CACHE_CONTROL, ETag: etag });
  if (length !== undefined) headers.set('Content-Length', String(length));
  applySecurityHeaders(headers, { https });
  // The middleware adds it to every public response (cached pages go out gzip-encoded); kept for sameness.
  headers.set('Vary', 'Accept-Encoding');
  return [...headers];
}
