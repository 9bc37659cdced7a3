/**
 * Narrower copies of stored images for `srcset`: a card 270–400 px wide should not download a 1200 px
 * picture. Variants live at /media/{id}-w{width}.webp, are made on first request and, like the original,
 * never change (the id is the hash of the original's bytes).
 */
import { mediaIdFromUrl } from './content-bundle';

export const MEDIA_VARIANT_WIDTHS = [400, 800] as const;
export type MediaVariantWidth = (typeof MEDIA_VARIANT_WIDTHS)[number];

/**
 * The width the original is announced with in `srcset`. Stored images are at most 1600 px wide; the real
 * width may be less, which only makes the browser pick the original a little later, never blurrier.
 */
const ORIGINAL_DESCRIPTOR = 1600;

/** `sizes` for a card picture: one column on phones, two from 640 px, at most ~384 px in the wider grids. */
export const CARD_IMAGE_SIZES = '(min-width: 1024px) 384px, (min-width: 640px) 50vw, 100vw';

export const mediaVariantUrl = (id: string, width: MediaVariantWidth) => `/media/${id}-w${width}.webp`;

/** `/media/{id}.webp` → its `srcset`; undefined for any other picture URL (nothing to offer). */
export function mediaSrcset(src: string): string | undefined {
  const id = mediaIdFromUrl(src);
  if (!id) return undefined;
  return [...MEDIA_VARIANT_WIDTHS.map((w) => `${mediaVariantUrl(id, w)} ${w}w`), `${src} ${ORIGINAL_DESCRIPTOR}w`].join(', ');
}

/** The file part of a media URL: the original (`{id}.webp`) or one of the variant widths. */
export function parseMediaFile(file: string | undefined): { id: string; width?: MediaVariantWidth } | undefined {
  const match = /^([0-9a-f]{32})(?:-w(\d+))?\.webp$/.exec(file ?? '');
  if (!match) return undefined;
  if (match[2] === undefined) return { id: match[1]! };
  const width = Number(match[2]);
  return (MEDIA_VARIANT_WIDTHS as readonly number[]).includes(width) ? { id: match[1]!, width: width as MediaVariantWidth } : undefined;
}
