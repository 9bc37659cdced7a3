/**
 * Turning image bytes into what we store: decoded (which is the validation — a file that does not decode
 * is not an image, whatever its name or header says), auto-rotated, resized to fit, re-encoded as WebP
 * without metadata, and named by the hash of the result so its URL can be cached forever.
 */
import { createHash } from 'node:crypto';
import sharp, { type Sharp } from 'sharp';
import { MEDIA_ID_PATTERN, mediaUrl } from '../../shared/content-bundle';

export const MEDIA_CONTENT_TYPE = 'image/webp';
export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;
/** Decoding cost guard: a small file can still claim a huge canvas ("decompression bomb"). */
const MAX_INPUT_PIXELS = 40_000_000;
const ACCEPTED_FORMATS = new Set(['jpeg', 'png', 'webp', 'gif', 'avif', 'heif', 'tiff']);

export type MediaErrorCode = 'empty' | 'too-large' | 'not-an-image' | 'unsupported-format' | 'too-many-pixels';

export class MediaError extends Error {
  constructor(
    readonly code: MediaErrorCode,
    message: string,
  ) {
    super(message);
  }
}

export interface ProcessedImage {
  id: string;
  url: string;
  contentType: typeof MEDIA_CONTENT_TYPE;
  width: number;
  height: number;
  data: Buffer;
}

export interface ResizeOptions {
  /** The image is scaled down (never up) to fit inside this box, keeping its aspect ratio... */
  maxWidth: number;
  maxHeight: number;
  /** ...or, with 'cover', cropped to exactly fill it (card images with a fixed aspect ratio). */
  fit?: 'inside' | 'cover';
}

/** The encoding of every stored image and of its narrower variants (variants.ts). */
export const WEBP_OPTIONS = { quality: 82, effort: 4 } as const;

export const DEFAULT_RESIZE: ResizeOptions = { maxWidth: 1600, maxHeight: 1600, fit: 'inside' };

/** The content-hash id of stored image bytes. */
export function mediaIdFor(data: Uint8Array): string {
  return createHash('sha256').update(data).digest('hex').slice(0, 32);
}

export function isMediaId(id: string): boolean {
  return MEDIA_ID_PATTERN.test(id);
}

async function encode(pipeline: Sharp, resize: ResizeOptions): Promise<ProcessedImage> {
  const { data, info } = await pipeline
    .rotate()
    .resize({
      width: resize.maxWidth,
      height: resize.maxHeight,
      fit: resize.fit ?? 'inside',
      withoutEnlargement: (resize.fit ?? 'inside') === 'inside',
    })
    .webp(WEBP_OPTIONS)
    .toBuffer({ resolveWithObject: true });
  const id = mediaIdFor(data);
  return { id, url: mediaUrl(id), contentType: MEDIA_CONTENT_TYPE, width: info.width, height: info.height, data };
}

/** Validates uploaded bytes by decoding them and returns the WebP to store. Throws MediaError. */
export async function processImage(input: Uint8Array, resize: ResizeOptions = DEFAULT_RESIZE): Promise<ProcessedImage> {
  if (input.byteLength === 0) throw new MediaError('empty', 'The file is empty.');
  if (input.byteLength > MAX_UPLOAD_BYTES) {
    throw new MediaError('too-large', `The image is larger than ${MAX_UPLOAD_BYTES / 1024 / 1024} MB.`);
  }
  let format: string | undefined;
  let pixels = 0;
  try {
    // Only the header is read here, so no pixel limit yet: a bomb is then refused for its size, in words.
    const meta = await sharp(input, { limitInputPixels: false }).metadata();
    format = meta.format;
    pixels = (meta.width ?? 0) * (meta.height ?? 0);
  } catch {
    throw new MediaError('not-an-image', 'The file is not an image that can be read.');
  }
  // SVG can carry scripts and external references: uploads are raster images only.
  if (!format || !ACCEPTED_FORMATS.has(format)) {
    throw new MediaError('unsupported-format', 'Use a JPEG, PNG, WebP, GIF, AVIF or TIFF image.');
  }
  if (pixels > MAX_INPUT_PIXELS) throw new MediaError('too-many-pixels', 'The image has too many pixels (40 megapixels at most).');
  try {
    return await encode(sharp(input, { limitInputPixels: MAX_INPUT_PIXELS }), resize);
  } catch {
    // Header fine, body broken (truncated or corrupt): decoding is what tells.
    throw new MediaError('not-an-image', 'The image is damaged and cannot be read.');
  }
}

/** Renders SVG we wrote ourselves (demo illustrations) at an exact size. Not for uploaded files. */
export async function rasterizeTrustedSvg(svg: string, width: number, height: number): Promise<ProcessedImage> {
  return encode(sharp(Buffer.from(svg)), { maxWidth: width, maxHeight: height, fit: 'cover' });
}

/** What an imported file claims about stored WebP bytes, checked against the bytes themselves. */
export async function verifyStoredImage(
  data: Buffer,
  claimed: { id: string; width: number; height: number },
): Promise<string | undefined> {
  if (mediaIdFor(data) !== claimed.id) return 'does not match the content hash of its data (the file was changed or truncated)';
  try {
    const meta = await sharp(data).metadata();
    if (meta.format !== 'webp') return 'data is not a WebP image';
    if (meta.width !== claimed.width || meta.height !== claimed.height) {
      return `is ${meta.width}×${meta.height} pixels, not ${claimed.width}×${claimed.height} as stated`;
    }
  } catch {
    return 'data is not an image that can be read';
  }
  return undefined;
}
