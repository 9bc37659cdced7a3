/**
 * Narrower copies of stored images (src/shared/media-variants.ts), made with sharp on first request and
 * kept in a small byte-bounded memory cache. They are cheap to remake (~10 ms) and served with the same
 * immutable caching as the original, so browsers and CDNs ask for each one at most once.
 */
import sharp from 'sharp';
import type { MediaVariantWidth } from '../../shared/media-variants';
import { WEBP_OPTIONS } from './process';

/** 8 MB: every card picture of a demo-sized site at both widths, a few times over. */
const CACHE_BYTES = 8 * 1024 * 1024;

const cache = new Map<string, Promise<Buffer>>();
const sizes = new Map<string, number>();
let cachedBytes = 0;

function remember(key: string, made: Promise<Buffer>) {
  cache.set(key, made);
  made.then(
    (bytes) => {
      if (cache.get(key) !== made) return;
      sizes.set(key, bytes.byteLength);
      cachedBytes += bytes.byteLength;
      // Oldest first (Map keeps insertion order; a hit re-inserts).
      for (const [k] of cache) {
        if (cachedBytes <= CACHE_BYTES) break;
        forget(k);
      }
    },
    () => forget(key),
  );
}

function forget(key: string) {
  cache.delete(key);
  cachedBytes -= sizes.get(key) ?? 0;
  sizes.delete(key);
}

/** The original scaled down to `width` (never up: a narrower original comes back re-encoded as is). */
export function mediaVariant(id: string, original: Uint8Array, width: MediaVariantWidth): Promise<Buffer> {
  const key = `${id}-${width}`;
  const hit = cache.get(key);
  if (hit) {
    cache.delete(key);
    cache.set(key, hit);
    return hit;
  }
  const made = sharp(original).resize({ width, withoutEnlargement: true }).webp(WEBP_OPTIONS).toBuffer();
  remember(key, made);
  return made;
}
