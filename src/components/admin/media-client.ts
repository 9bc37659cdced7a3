/**
 * The admin islands' side of the media library API (/api/admin/media): uploads with progress through
 * XMLHttpRequest (fetch cannot report upload progress) that retry for up to 10 minutes when the network
 * or the server fails (seed section 9), and the library's list, alt text and delete calls, which retry
 * for up to 2 minutes like every idempotent admin call. Every failure comes back as a message to show.
 */
import {
  fileTooLargeMessage,
  MEDIA_API_PATH,
  MEDIA_FORMATS_TEXT,
  MEDIA_UPLOAD_MAX_BYTES,
  storageMessageForStatus,
  type MediaItem,
  type MediaItemWithUsage,
  type MediaPage,
  type MediaUsage,
  type StorageErrorCode,
} from '../../shared/media-library';
import { markOffline, markOnline } from '../../stores/connectivity';
import { IDEMPOTENT_RETRY_MS, retryDelayMs, UPLOAD_RETRY_MS } from './call-action';

export type MediaOutcome<T> =
  | { ok: true; data: T }
  /** `usage`: where an image refused a delete (409 storage/in-use) is shown. */
  | { ok: false; message: string; code?: StorageErrorCode | undefined; usage?: MediaUsage[] | undefined; cancelled?: boolean };

/** Worth trying again: no answer at all, or the server (or a proxy in front of it) failing for now. */
const isTransient = (status: number) => status === 0 || status === 408 || status === 429 || status >= 500;

const OFFLINE = 'The upload could not reach the server. Check the connection and try again.';

/** What can be told before sending anything: too big, empty, or plainly not a picture. */
export function problemWithFile(file: File): string | undefined {
  if (file.size > MEDIA_UPLOAD_MAX_BYTES) return fileTooLargeMessage(file.size);
  if (file.size === 0) return 'The file is empty.';
  // The server decodes every file whatever its type says; this only spares uploading a PDF to hear it.
  if (file.type && !file.type.startsWith('image/')) return `This file is not an image. Use a ${MEDIA_FORMATS_TEXT} image.`;
  if (file.type === 'image/svg+xml') return `SVG images cannot be uploaded. Use a ${MEDIA_FORMATS_TEXT} image.`;
  return undefined;
}

function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
  });
}

interface Answer {
  status: number;
  body: unknown;
}

function failureOf(answer: Answer): { message: string; code?: StorageErrorCode; usage?: MediaUsage[] } {
  const body = answer.body as { code?: unknown; message?: unknown; usage?: unknown } | null;
  if (body && typeof body.message === 'string' && typeof body.code === 'string' && body.code.startsWith('storage/')) {
    return { message: body.message, code: body.code as StorageErrorCode, ...(Array.isArray(body.usage) ? { usage: body.usage as MediaUsage[] } : {}) };
  }
  // An answer the API did not write (an early refusal, a proxy's page): the status says enough.
  return { message: storageMessageForStatus(answer.status) };
}

function parseJson(text: string): unknown {
  try {
    return text ? JSON.parse(text) : null;
  } catch {
    return null;
  }
}

/** One try of an upload: the answer, or status 0 when none came. */
function sendOnce(form: FormData, onProgress: (fraction: number) => void, signal?: AbortSignal): Promise<Answer> {
  return new Promise((resolve) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', MEDIA_API_PATH);
    xhr.responseType = 'text';
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable && e.total > 0) onProgress(e.loaded / e.total);
    };
    xhr.onload = () => resolve({ status: xhr.status, body: parseJson(xhr.responseText) });
    xhr.onerror = () => resolve({ status: 0, body: null });
    xhr.ontimeout = () => resolve({ status: 0, body: null });
    xhr.onabort = () => resolve({ status: -1, body: null });
    signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(form);
  });
}

export interface UploadOptions {
  alt?: string | undefined;
  /** 0…1 of the file sent, on every progress event of every try. */
  onProgress?(fraction: number): void;
  /** A try failed for a reason that may pass; the next one starts in `nextInMs`. */
  onRetry?(attempt: number, nextInMs: number): void;
  signal?: AbortSignal;
  retryForMs?: number;
}

/** A stored upload; `created` is false when these exact bytes were already in the library. */
export type UploadedImage = MediaItem & { created: boolean };

/** Uploads one image to the library: the stored image, or why not. */
export async function uploadImage(file: File, options: UploadOptions = {}): Promise<MediaOutcome<UploadedImage>> {
  const problem = problemWithFile(file);
  if (problem) return { ok: false, message: problem, code: file.size > MEDIA_UPLOAD_MAX_BYTES ? 'storage/file-too-large' : 'storage/invalid-file' };
  const form = new FormData();
  form.set('file', file, file.name);
  if (options.alt?.trim()) form.set('alt', options.alt.trim());
  const deadline = Date.now() + (options.retryForMs ?? UPLOAD_RETRY_MS);
  for (let attempt = 1; ; attempt++) {
    options.onProgress?.(0);
    const answer = await sendOnce(form, (f) => options.onProgress?.(f), options.signal);
    if (answer.status === -1 || options.signal?.aborted) return { ok: false, message: 'Upload cancelled.', cancelled: true };
    if (answer.status === 0) markOffline();
    else markOnline();
    if (answer.status >= 200 && answer.status < 300) return { ok: true, data: { ...(answer.body as MediaItem), created: answer.status === 201 } };
    if (!isTransient(answer.status)) return { ok: false, ...failureOf(answer) };
    const wait = retryDelayMs(attempt);
    if (Date.now() + wait > deadline) return { ok: false, message: answer.status === 0 ? OFFLINE : failureOf(answer).message };
    options.onRetry?.(attempt, wait);
    await abortableSleep(wait, options.signal);
    if (options.signal?.aborted) return { ok: false, message: 'Upload cancelled.', cancelled: true };
  }
}

/** A JSON call to the library API, retried while the network or the server fails (all of them are idempotent). */
async function mediaRequest<T>(method: 'GET' | 'PATCH' | 'DELETE', path: string, body?: unknown, retryForMs = IDEMPOTENT_RETRY_MS): Promise<MediaOutcome<T>> {
  const deadline = Date.now() + retryForMs;
  for (let attempt = 1; ; attempt++) {
    let answer: Answer;
    try {
      const res = await fetch(path, {
        method,
        headers: body === undefined ? {} : { 'content-type': 'application/json' },
        body: body === undefined ? null : JSON.stringify(body),
        credentials: 'same-origin',
      });
      markOnline();
      answer = { status: res.status, body: res.status === 204 ? null : parseJson(await res.text()) };
    } catch {
      markOffline();
      answer = { status: 0, body: null };
    }
    if (answer.status >= 200 && answer.status < 300) return { ok: true, data: answer.body as T };
    if (!isTransient(answer.status)) return { ok: false, ...failureOf(answer) };
    const wait = retryDelayMs(attempt);
    if (Date.now() + wait > deadline) {
      return { ok: false, message: answer.status === 0 ? 'The server cannot be reached. Check the connection and try again.' : failureOf(answer).message };
    }
    await abortableSleep(wait);
  }
}

export const listMedia = (q: string, page: number) =>
  mediaRequest<MediaPage>('GET', `${MEDIA_API_PATH}?${new URLSearchParams({ q, page: String(page) }).toString()}`, undefined, 0);

export const setMediaAlt = (id: string, alt: string) => mediaRequest<MediaItem>('PATCH', `${MEDIA_API_PATH}/${id}`, { alt });

export const deleteMediaItem = (id: string) => mediaRequest<null>('DELETE', `${MEDIA_API_PATH}/${id}`);

export type { MediaItem, MediaItemWithUsage, MediaPage };
