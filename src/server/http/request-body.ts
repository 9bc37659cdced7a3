/**
 * Reading a request body a stranger sent, for every route that takes one (Actions, API routes, form
 * posts, /api/auth): at most `limit` bytes whether or not Content-Length was declared (a chunked upload
 * is counted as it arrives), JSON that must parse, and no key that names a member of Object.prototype
 * (`__proto__`, `constructor`, `toString`…), which libraries downstream may trip over, and no text that
 * no database column can hold (a NUL character or half of a surrogate pair: PostgreSQL refuses both, deep
 * inside whichever query meets them first). Each failure is the client's error, answered 400 or 413,
 * never a 500.
 */

import { MAX_FORM_FIELDS, MAX_URLENCODED_BYTES } from './body-policy';

export type BodyErrorCode = 'REQUEST_TOO_LARGE' | 'TOO_MANY_FIELDS' | 'INVALID_JSON' | 'FORBIDDEN_KEY' | 'UNSTORABLE_TEXT' | 'UNREADABLE_BODY';

export const BODY_ERROR_MESSAGES: Record<BodyErrorCode, string> = {
  REQUEST_TOO_LARGE: 'The request is too large.',
  TOO_MANY_FIELDS: `The form has too many fields (at most ${MAX_FORM_FIELDS}).`,
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
    this.status = code === 'REQUEST_TOO_LARGE' || code === 'TOO_MANY_FIELDS' ? 413 : 400;
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

export const isUrlEncodedContentType = (contentType: string | null) => /^application\/x-www-form-urlencoded\s*(;|$)/i.test(contentType?.trim() ?? '');

/**
 * The most a body of this type may be on a route that takes `limit`: url-encoded forms are held to
 * MAX_URLENCODED_BYTES whatever the route allows.
 */
export const limitForType = (limit: number, contentType: string | null) =>
  isUrlEncodedContentType(contentType) ? Math.min(limit, MAX_URLENCODED_BYTES) : limit;

const AMPERSAND = 0x26;

/** Fields of a url-encoded body, counted on its bytes before anything parses it. */
function urlEncodedFieldCount(bytes: Uint8Array): number {
  let count = bytes.byteLength > 0 ? 1 : 0;
  for (const byte of bytes) if (byte === AMPERSAND) count++;
  return count;
}

/**
 * A form body, read and parsed within the caps: `limit` bytes (MAX_URLENCODED_BYTES for url-encoded),
 * MAX_FORM_FIELDS fields, text fields following the JSON rule on text. For routes that take a form
 * themselves; the middleware checks forms the same way (checkRequestBody).
 */
export async function readFormCapped(request: Request, limit: number): Promise<FormData> {
  const type = request.headers.get('content-type');
  if (!isFormContentType(type)) throw new BodyError('UNREADABLE_BODY');
  return parseFormBody(type!, await readBodyCapped(request, limitForType(limit, type)));
}

async function parseFormBody(type: string, bytes: Uint8Array<ArrayBuffer>): Promise<FormData> {
  if (isUrlEncodedContentType(type) && urlEncodedFieldCount(bytes) > MAX_FORM_FIELDS) throw new BodyError('TOO_MANY_FIELDS');
  let form: FormData;
  try {
    form = await new Request('http://form.invalid/', { method: 'POST', headers: { 'content-type': type }, body: bytes }).formData();
  } catch {
    throw new BodyError('UNREADABLE_BODY');
  }
  let fields = 0;
  for (const [key, value] of form) {
    if (++fields > MAX_FORM_FIELDS) throw new BodyError('TOO_MANY_FIELDS');
    if (isUnstorableText(key) || (typeof value === 'string' && isUnstorableText(value))) throw new BodyError('UNSTORABLE_TEXT');
  }
  return form;
}

/**
 * Checks a body without consuming it (reads a clone), so what runs next reads it as sent. Every body must
 * fit in `limit` (url-encoded forms in MAX_URLENCODED_BYTES); JSON must parse (without prototype keys) and
 * forms must parse within the form caps. Only for small bodies: the clone keeps a copy until it is read.
 */
export async function checkRequestBody(request: Request, limit: number): Promise<BodyError | undefined> {
  if (!request.body) return undefined;
  try {
    const type = request.headers.get('content-type');
    const bytes = await readBodyCapped(request.clone(), limitForType(limit, type));
    if (isJsonContentType(type)) parseJsonBody(bytes);
    else if (isFormContentType(type)) await parseFormBody(type!, bytes);
    return undefined;
  } catch (err) {
    if (err instanceof BodyError) return err;
    throw err;
  }
}
