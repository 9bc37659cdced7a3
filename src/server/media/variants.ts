/**
 * Narrower copies of stored images (src/shared/media-variants.ts), made with sharp on first request. They
 * are cheap to remake (~10 ms), kept in the media cache with the originals (cache.ts) and served with the
 * same immutable caching, so browsers and CDNs ask for each one at most once.
 */
import sharp from 'sharp';
import type { MediaVariantWidth } from '../../shared/media-variants';
import { WEBP_OPTIONS } from './process';

/** The original scaled down to `width` (never up: a narrower original comes back re-encoded as is). */
export function mediaVariant(original: Uint8Array, width: MediaVariantWidth): Promise<Buffer> {
  return sharp(original).resize({ width, withoutEnlargement: true }).webp(WEBP_OPTIONS).toBuffer();
}
