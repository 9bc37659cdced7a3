/**
 * What the admin's "Backup and move" page (/admin/content/transfer) and its two routes agree on: where
 * they are, how large a content file may be, what the import answers, and how files are named.
 */

export const CONTENT_EXPORT_PATH = '/api/admin/content/export';
export const CONTENT_IMPORT_PATH = '/api/admin/content/import';

const MiB = 1024 * 1024;

/** Room in a content file for everything but its images: the records, texts and layout. */
export const CONTENT_FILE_TEXT_BYTES = 64 * MiB;

/** The most any content file may be, whatever the media quota (the route's declared ceiling). */
export const MAX_CONTENT_FILE_BYTES = 4 * 1024 * MiB;

/**
 * How large a content file this site imports: its records, plus every image its media quota allows, in
 * base64 (4 bytes for 3), so any backup the site made restores through the same page.
 */
export function contentFileLimitBytes(mediaQuotaBytes: number): number {
  return Math.min(MAX_CONTENT_FILE_BYTES, CONTENT_FILE_TEXT_BYTES + Math.ceil(Math.max(0, mediaQuotaBytes) / 3) * 4);
}

/**
 * The most values (objects, arrays, array items and fields) a content file may hold: a thousand articles
 * with every field are about 50,000. Bounds the memory parsing it takes, whatever its size in bytes.
 */
export const MAX_CONTENT_FILE_VALUES = 1_000_000;

/** The import's header naming the uploaded file (for the activity entry and the messages). */
export const FILE_NAME_HEADER = 'x-file-name';

/** `site-content-2025-03-14.json`: the export's download name. */
export const contentFileName = (at: Date) => `site-content-${at.toISOString().slice(0, 10)}.json`;

const MAX_FILE_NAME = 120;

/**
 * A file name as the admin's browser sent it, safe to show and to log: URI-decoded, path and control
 * characters removed, at most 120 characters; "content file" when nothing usable is left.
 */
export function cleanFileName(raw: string | null | undefined): string {
  let name = raw ?? '';
  try {
    name = decodeURIComponent(name);
  } catch {
    // A malformed escape: keep the raw text, cleaned below.
  }
  const cleaned = name
    .replace(/^.*[\\/]/, '')
    .replace(/[\u0000-\u001f\u007f<>"]/g, '')
    .trim()
    .slice(0, MAX_FILE_NAME);
  return cleaned || 'content file';
}

export interface ImportProblem {
  /** `services[2].name`: the record's section, position and field. */
  path: string;
  message: string;
}

/** What POST CONTENT_IMPORT_PATH answers (JSON), besides the guard's 401/403 and a 413 for a large file. */
export type ImportAnswer =
  | { ok: true; message: string; activityId: string }
  | { ok: false; code: 'INVALID_CONTENT'; message: string; problems: ImportProblem[] }
  | { ok: false; code: 'INVALID_FILE' | 'EMPTY_FILE' | 'IMPORT_FAILED'; message: string };

export const nothingImportedMessage = (problems: number, fileName: string) =>
  `Nothing was imported: ${problems} problem${problems === 1 ? '' : 's'} in ${fileName}.`;
