/**
 * Field rules shared by the admin forms, the admin Actions and the content file (content-bundle.ts), so
 * a value the editor accepts is one the importer accepts and the other way round. Rules without a message
 * of their own get the project's plain words (src/shared/zod.ts).
 */
import { z } from '../zod';

/** Record ids appear in URLs (/service/{id}): 1–120 URL-safe characters. */
export const recordId = z
  .string()
  .min(1)
  .max(120)
  .regex(/^[A-Za-z0-9._~-]+$/, 'must use only letters, digits and - _ . ~ (it becomes part of a URL)')
  .refine((id) => !/^\.+$/.test(id), 'must not consist of dots only');

/**
 * What a public detail URL accepts (/article/{slug}, parsed by src/shared/query.ts): a letter or digit,
 * then letters, digits, - and _. Imported ids may be looser (recordId); what an admin types is held to this.
 */
export const URL_SLUG_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]*$/;

/** Article tags as /articles?tag= accepts them: letters (any script), digits, spaces and a few joiners. */
export const TAG_PATTERN = /^[\p{L}\p{N}][\p{L}\p{N} &+#.'_-]*$/u;
export const TAG_MAX_LENGTH = 50;

/** Media ids are content hashes: the first 32 hex digits of the SHA-256 of the stored WebP bytes. */
export const MEDIA_ID_PATTERN = /^[0-9a-f]{32}$/;
export const mediaUrl = (id: string) => `/media/${id}.webp`;

/** The media id in a `/media/{id}.webp` URL; undefined for any other URL. */
export function mediaIdFromUrl(url: string): string | undefined {
  const match = /^\/media\/([0-9a-f]{32})\.webp$/.exec(url);
  return match?.[1];
}

/** An image reference: empty (no image), one of our `/media/{id}.webp` files, or an http(s) URL. */
export const imageUrl = z
  .string()
  .max(2048)
  .refine(
    (url) => url === '' || mediaIdFromUrl(url) !== undefined || /^https?:\/\/[^\s/]+[^\s]*$/i.test(url),
    'must be empty, a /media/{id}.webp path or an http(s) URL',
  );

export const text = (max: number) => z.string().max(max);
export const requiredText = (max: number) => z.string().trim().min(1).max(max);
export const textList = (maxItems: number, maxLength: number) => z.array(requiredText(maxLength)).max(maxItems);

/** Prices: a number ≥ 0 or null (no price). Stored with two decimals. */
export const price = z
  .number()
  .min(0)
  .max(99_999_999)
  .nullable()
  .default(null)
  .transform((v) => (v === null ? null : Math.round(v * 100) / 100));

export const order = z.number().int().min(-1_000_000).max(1_000_000).optional();

export const LIMITS = {
  name: 200,
  shortText: 2000,
  html: 100_000,
  articleHtml: 300_000,
  policyHtml: 300_000,
  imageBytes: 10 * 1024 * 1024,
  records: 5000,
} as const;

/** The base64 of the largest image a content file may carry: its longest value. */
export const IMAGE_BASE64_CHARS = Math.ceil(LIMITS.imageBytes / 3) * 4;
