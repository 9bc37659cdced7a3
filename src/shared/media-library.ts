/**
 * The media library's rules shared by the server and the admin islands: the seed's storage error catalogue
 * (seed section 8: 401 unauthenticated, 402 quota exceeded, 403 unauthorized, 404 object-not-found) plus
 * the refusals of a bad file, the upload limits, the alt text rule and the library's URL state.
 */
import { LIMITS, mediaIdFromUrl } from './schemas/fields';
import { z } from './zod';

/** Where the library lives: uploads, the list, and one image (`/api/admin/media/{id}`). */
export const MEDIA_API_PATH = '/api/admin/media';

/** The largest image file an admin may upload (what the server decodes). */
export const MEDIA_UPLOAD_MAX_BYTES = LIMITS.imageBytes;

/** What the file picker offers; the server decides by decoding, never by the name or the type. */
export const MEDIA_ACCEPT = 'image/jpeg,image/png,image/webp,image/gif,image/avif,image/tiff,image/heic,image/heif';
export const MEDIA_FORMATS_TEXT = 'JPEG, PNG, WebP, GIF, AVIF or TIFF';

export const MEDIA_ALT_MAX = 300;
export const mediaAltSchema = z.string().max(MEDIA_ALT_MAX, `Alt text must be at most ${MEDIA_ALT_MAX} characters`);

export const MEDIA_PER_PAGE = 24;

export type StorageErrorCode =
  | 'storage/unauthenticated'
  | 'storage/unauthorized'
  | 'storage/quota-exceeded'
  | 'storage/object-not-found'
  | 'storage/invalid-file'
  | 'storage/file-too-large'
  | 'storage/invalid-request'
  | 'storage/in-use'
  | 'storage/unknown';

export const STORAGE_STATUS: Record<StorageErrorCode, number> = {
  'storage/unauthenticated': 401,
  'storage/quota-exceeded': 402,
  'storage/unauthorized': 403,
  'storage/object-not-found': 404,
  'storage/invalid-file': 400,
  'storage/invalid-request': 400,
  'storage/in-use': 409,
  'storage/file-too-large': 413,
  'storage/unknown': 500,
};

export const STORAGE_MESSAGES = {
  unauthenticated: 'You are signed out. Log in again (in another tab, to keep this page), then retry.',
  unauthorized: 'Only an admin can manage images.',
  notFound: 'This image is no longer in the media library: someone may have deleted it.',
  unknown: 'The upload failed on the server. Please try again.',
} as const;

/** The JSON body of every media API answer that is not a success. */
export interface StorageErrorBody {
  code: StorageErrorCode;
  message: string;
}

/** 1536 → "1.5 KB", 20_971_520 → "20 MB" (binary units, like the limits are set). */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  const shown = value >= 100 || Number.isInteger(value) ? Math.round(value).toString() : value.toFixed(1).replace(/\.0$/, '');
  return `${shown} ${units[unit]}`;
}

/** The 413 message, with the file's size when it is known. */
export function fileTooLargeMessage(size?: number): string {
  const limit = formatBytes(MEDIA_UPLOAD_MAX_BYTES);
  return size && size > MEDIA_UPLOAD_MAX_BYTES
    ? `This file is ${formatBytes(size)}: images can be at most ${limit}. Make it smaller (for example, export it at 2000 pixels wide) and upload it again.`
    : `The file is too large: images can be at most ${limit}.`;
}

export function quotaExceededMessage(usedBytes: number, quotaBytes: number, neededBytes: number): string {
  return `The media library is full: ${formatBytes(usedBytes)} of ${formatBytes(quotaBytes)} used, and this image needs ${formatBytes(neededBytes)}. Delete images you no longer use, or ask your developer to raise MEDIA_QUOTA_BYTES.`;
}

/** The message an island shows for an answer it could not read (a proxy's page, an early refusal). */
export function storageMessageForStatus(status: number): string {
  switch (status) {
    case 401:
      return STORAGE_MESSAGES.unauthenticated;
    case 402:
      return 'The media library is full. Delete images you no longer use.';
    case 403:
      return STORAGE_MESSAGES.unauthorized;
    case 404:
      return STORAGE_MESSAGES.notFound;
    case 413:
      return fileTooLargeMessage();
    default:
      return status >= 500 ? STORAGE_MESSAGES.unknown : 'The image could not be uploaded.';
  }
}

/** A refusal made before the media routes run (route guard, origin, body size), in the storage catalogue. */
export function storageRefusal(status: number, message: string): StorageErrorBody {
  if (status === 401) return { code: 'storage/unauthenticated', message: STORAGE_MESSAGES.unauthenticated };
  if (status === 403) return { code: 'storage/unauthorized', message: message || STORAGE_MESSAGES.unauthorized };
  if (status === 413) return { code: 'storage/file-too-large', message: fileTooLargeMessage() };
  if (status === 404) return { code: 'storage/object-not-found', message: STORAGE_MESSAGES.notFound };
  return { code: status >= 500 ? 'storage/unknown' : 'storage/invalid-request', message };
}

export const isMediaApiPath = (path: string) => path === MEDIA_API_PATH || path.startsWith(`${MEDIA_API_PATH}/`);

// ---------------------------------------------------------------------------------------------------------
// The library as the admin sees it

/** Where an image is used: shown in the library and in the refusal to delete it. */
export interface MediaUsage {
  /** 'Service', 'Article', 'SEO', 'Site texts'… */
  kind: string;
  title: string;
  /** Which field holds it ("picture", "featured image", "content"). */
  field: string;
  /** The admin page that edits it, when there is one. */
  editHref?: string | undefined;
}

export interface MediaItem {
  id: string;
  url: string;
  width: number;
  height: number;
  size: number;
  alt: string;
  originalName: string;
  createdAt: string;
}

export interface MediaItemWithUsage extends MediaItem {
  usage: MediaUsage[];
}

export interface MediaPage {
  items: MediaItemWithUsage[];
  total: number;
  page: number;
  pages: number;
  perPage: number;
}

/** "Service “Lead outreach” (picture)". */
export const describeUsage = (u: MediaUsage) => `${u.kind}${u.title ? ` “${u.title}”` : ''} (${u.field})`;

/** The refusal to delete an image still shown somewhere, naming every place. */
export function inUseMessage(usage: readonly MediaUsage[]): string {
  const shown = usage.slice(0, 5).map(describeUsage);
  const more = usage.length - shown.length;
  const list = more > 0 ? `${shown.join(', ')} and ${more} more` : shown.length > 1 ? `${shown.slice(0, -1).join(', ')} and ${shown.at(-1)}` : shown[0];
  return `This image cannot be deleted: it is used by ${list}. Replace it there first.`;
}

/** The refusal to empty the alt text of a picture pages show (decision 033). */
export function altStillNeededMessage(usage: readonly MediaUsage[]): string {
  const shown = usage.slice(0, 3).map(describeUsage);
  const more = usage.length - shown.length;
  return `This picture needs its alt text: ${shown.join(', ')}${more > 0 ? ` and ${more} more` : ''} show${usage.length === 1 ? 's' : ''} it. Change the text instead of emptying it.`;
}

export interface MediaListQuery {
  q: string;
  page: number;
}

/** `?q=&page=` of /admin/media and of the library API: anything odd falls back to the first page. */
export function parseMediaListQuery(params: URLSearchParams): MediaListQuery {
  const q = (params.get('q') ?? '').trim().slice(0, 100);
  const n = Number(params.get('page') ?? '1');
  return { q, page: Number.isInteger(n) && n >= 1 && n <= 100_000 ? n : 1 };
}

export function mediaListHref(path: string, query: MediaListQuery): string {
  const params = new URLSearchParams();
  if (query.q) params.set('q', query.q);
  if (query.page > 1) params.set('page', String(query.page));
  const qs = params.toString();
  return qs ? `${path}?${qs}` : path;
}

/** The media id an image field's value points at (its own URL or a variant's), if it is ours. */
export function mediaIdOfValue(value: string): string | undefined {
  return mediaIdFromUrl(value.replace(/-w\d+\.webp$/, '.webp'));
}
