/**
 * Reading a request body a stranger sent, for every route that takes one (Actions, API routes, form
 * posts, /api/auth): at most `limit` bytes whether or not Content-Length was declared (a chunked upload
 * is counted as it arrives), JSON that must parse, and no key that names a member of Object.prototype
 * (`__proto__`, `constructor`, `toString`…), which libraries downstream may trip over, and no text that
 * no database column can hold (a NUL character or half of a surrogate pair: PostgreSQL refuses both, deep
 * inside whichever query meets them first). Each failure is the client's error, answered 400 or 413,
 * never a 500.
 */

import { VISIT_BEACON_MAX_BYTES, VISITS_API_PATH } from '../../shared/analytics';
import { CONTENT_IMPORT_PATH, MAX_CONTENT_FILE_BYTES } from '../../shared/content-transfer';
import { PAGE_TIME_MAX_BYTES } from '../../shared/page-time';

/** What a route accepts unless BODY_LIMITS says otherwise. */
export const MAX_BODY_BYTES = 1_048_576;

/**
 * Routes whose bodies have another limit than MAX_BODY_BYTES, by path prefix: larger (uploads, content
 * files) or smaller (beacons, refused before a megabyte is read). The adapter's own limit
 * (astro.config.ts) is the largest of these; the middleware holds every other route to MAX_BODY_BYTES.
 */
export const BODY_LIMITS: ReadonlyArray<{ prefix: string; bytes: number }> = [
  // An image of up to 10 MB (src/shared/media-library.ts) and the multipart form around it, with room to
  // spare, so a file just over the limit still reaches the route and hears the limit in plain words.
  { prefix: '/api/admin/media', bytes: 12 * 1024 * 1024 },
  // A content file carries its images in base64 (src/shared/content-transfer.ts).
  { prefix: CONTENT_IMPORT_PATH, bytes: MAX_CONTENT_FILE_BYTES },
  // A visit beacon (a counted page view) is about 300 bytes (src/shared/analytics.ts).
  { prefix: VISITS_API_PATH, bytes: VISIT_BEACON_MAX_BYTES },
  // A page-time record is about 200 bytes (src/shared/page-time.ts).
  { prefix: '/api/page-views', bytes: PAGE_TIME_MAX_BYTES },
];

/** The largest body any route accepts: the adapter's limit, and server.mjs's early refusal. */
export const LARGEST_BODY_BYTES = Math.max(MAX_BODY_BYTES, ...BODY_LIMITS.map((l) => l.bytes));

export function bodyLimitFor(pathname: string): number {
  return BODY_LIMITS.find((l) => pathname === l.prefix || pathname.startsWith(`${l.prefix}/`))?.bytes ?? MAX_BODY_BYTES;
}

export type BodyErrorCode = 'REQUEST_TOO_LARGE' | 'INVALID_JSON' | 'FORBIDDEN_KEY' | 'UNSTORABLE_TEXT' | 'UNREADABLE_BODY';

export const BODY_ERROR_MESSAGES: Record<BodyErrorCode, string> = {
  REQUEST_TOO_LARGE: 'The request is too large.',
  INVALID_JSON: 'The request body is not valid JSON.',
  FORBIDDEN_KEY: 'The request contains a field that cannot be set.',
  UNSTORABLE_TEXT: 'The request contains characters that are not text (a NUL or a broken Unicode character).',
  UNREADABLE_BODY: 'The request body could not be read.',
};

export class BodyError extends Error {
  readonly status: 400 | 413;
  constructor(readonly code: BodyErrorCode) {
    super(BODY_ERROR_MESSAGES[code]);
    this.name = 'BodyError';
    this.status = code === 'REQUEST_TOO_LARGE' ? 413 : 400;
  }
}

/** The body's bytes; BodyError when it is larger than `limit` or the stream breaks. */
export async function readBodyCapped(request: Request, limit: number): Promise<Uint8Array<ArrayBuffer>> {
  const declared = Number(request.headers.get('content-length') ?? 0);
  if (declared > limit) throw new BodyError('REQUEST_TOO_LARGE');
  if (!request.body) return new Uint8Array();
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > limit) {
        // Not awaited: on a clone (a tee branch) cancel settles only once the other branch is cancelled
        // too, which the route that never runs will not do; awaiting it hung every oversize chunked body.
        void reader.cancel().catch(() => {});
        throw new BodyError('REQUEST_TOO_LARGE');
      }
      chunks.push(value);
    }
  } catch (err) {
    if (err instanceof BodyError) throw err;
    // The adapter errors the stream itself when a body outgrows its own limit.
    throw new BodyError(size > limit || /limit|too large/i.test(String(err)) ? 'REQUEST_TOO_LARGE' : 'UNREADABLE_BODY');
  }
  const out = new Uint8Array(size);
  let offset = 0;
  for (const c of chunks) {
    out.set(c, offset);
    offset += c.byteLength;
  }
  return out;
}

const PROTOTYPE_KEYS = new Set([...Object.getOwnPropertyNames(Object.prototype), 'prototype']);

/** The first key, at any depth, that names a member of Object.prototype. */
export function forbiddenKeyIn(value: unknown, depth = 0): string | undefined {
  if (value === null || typeof value !== 'object' || depth > 64) return undefined;
  for (const key of Object.keys(value)) {
    if (PROTOTYPE_KEYS.has(key)) return key;
    const inner = forbiddenKeyIn((value as Record<string, unknown>)[key], depth + 1);
    if (inner !== undefined) return inner;
  }
  return undefined;
}

/** A NUL, or a lone surrogate (not well-formed UTF-16): text no PostgreSQL column accepts. */
export const isUnstorableText = (text: string) => text.includes('\u0000') || !text.isWellFormed();

/** Whether any string, key or value, at any depth, is text no column can hold. */
export function hasUnstorableText(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return isUnstorableText(value);
  if (value === null || typeof value !== 'object' || depth > 64) return false;
  return Object.entries(value).some(([key, inner]) => isUnstorableText(key) || hasUnstorableText(inner, depth + 1));
}

/** JSON text → value; BodyError for text that is not JSON or carries a prototype key. Empty → undefined. */
export function parseJsonBody(bytes: Uint8Array): unknown {
  if (bytes.byteLength === 0) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    throw new BodyError('INVALID_JSON');
  }
  if (forbiddenKeyIn(value) !== undefined) throw new BodyError('FORBIDDEN_KEY');
  if (hasUnstorableText(value)) throw new BodyError('UNSTORABLE_TEXT');
  return value;
}

export const isJsonContentType = (contentType: string | null) =>
  /^application\/([\w.+-]+\+)?json\s*(;|$)/i.test(contentType?.trim() ?? '');

export const isFormContentType = (contentType: string | null) =>
  /^(application\/x-www-form-urlencoded|multipart\/form-data)\s*(;|$)/i.test(contentType?.trim() ?? '');

/**
 * A form body must parse as one: a broken multipart body would otherwise fail in whatever reads it next.
 * Its text fields (not its files) follow the JSON rule on text.
 */
async function parseFormBody(request: Request, bytes: Uint8Array<ArrayBuffer>) {
  let form: FormData;
  try {
    form = await new Request(request.url, { method: 'POST', headers: { 'content-type': request.headers.get('content-type')! }, body: bytes }).formData();
  } catch {
    throw new BodyError('UNREADABLE_BODY');
  }
  for (const [key, value] of form) {
    if (isUnstorableText(key) || (typeof value === 'string' && isUnstorableText(value))) throw new BodyError('UNSTORABLE_TEXT');
  }
}

/**
 * Checks a body without consuming it (reads a clone), so the route that runs next reads it as sent.
 * Every body must fit in `limit`; JSON must parse (without prototype keys) and forms must parse.
 */
export async function checkRequestBody(request: Request, limit = MAX_BODY_BYTES): Promise<BodyError | undefined> {
  if (!request.body) return undefined;
  try {
    const bytes = await readBodyCapped(request.clone(), limit);
    const type = request.headers.get('content-type');
    if (isJsonContentType(type)) parseJsonBody(bytes);
    else if (isFormContentType(type)) await parseFormBody(request, bytes);
    return undefined;
  } catch (err) {
    if (err instanceof BodyError) return err;
    throw err;
  }
}
