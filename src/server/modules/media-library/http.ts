/**
 * The media API's side of HTTP (src/pages/api/admin/media/*): reading an upload form or a JSON body within
 * its limit, and answering JSON — failures in the storage catalogue ({ code, message }), never a 500 for
 * the client's mistake and never a dependency's text.
 */
import { MEDIA_ITEM_BODY_BYTES, MEDIA_UPLOAD_BODY_BYTES } from '../../http/body-policy';
import { BodyError, parseJsonBody, readBodyCapped, readFormCapped } from '../../http/request-body';
import { logger } from '../../logger';
import { fileTooLargeMessage, MEDIA_UPLOAD_MAX_BYTES, STORAGE_MESSAGES, type StorageErrorBody } from '../../../shared/media-library';
import { MediaLibraryError } from './errors';
import type { UploadInput } from './service';

export function mediaJson(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json', 'Cache-Control': 'private, no-store' },
  });
}

/** Any failure of a media route as its answer. */
export function mediaErrorResponse(err: unknown, request?: Request): Response {
  if (err instanceof MediaLibraryError) {
    const body: StorageErrorBody & { usage?: unknown } = { code: err.code, message: err.message };
    if (err.usage.length) body.usage = err.usage;
    return mediaJson(err.status, body);
  }
  if (err instanceof BodyError) {
    const declared = Number(request?.headers.get('content-length') ?? 0) || undefined;
    return err.status === 413
      ? mediaJson(413, { code: 'storage/file-too-large', message: fileTooLargeMessage(declared) })
      : mediaJson(400, { code: 'storage/invalid-request', message: err.message });
  }
  logger.error({ err }, 'media library request failed');
  return mediaJson(500, { code: 'storage/unknown', message: STORAGE_MESSAGES.unknown });
}

const invalidRequest = (message: string) => new MediaLibraryError('storage/invalid-request', message);

/** The upload form: `file` (the image) and an optional `alt`, read within the route's body limit. */
export async function readUploadForm(request: Request): Promise<UploadInput> {
  const type = request.headers.get('content-type') ?? '';
  if (!/^multipart\/form-data\s*;/i.test(type)) throw invalidRequest('Send the image as multipart/form-data with a “file” field.');
  let form: FormData;
  try {
    form = await readFormCapped(request, MEDIA_UPLOAD_BODY_BYTES);
  } catch (err) {
    if (err instanceof BodyError && err.code === 'UNREADABLE_BODY') throw invalidRequest('The upload could not be read. Please try again.');
    throw err;
  }
  const file = form.get('file');
  if (!(file instanceof File)) throw invalidRequest('Choose an image file to upload.');
  if (file.size > MEDIA_UPLOAD_MAX_BYTES) throw new MediaLibraryError('storage/file-too-large', fileTooLargeMessage(file.size));
  const alt = form.get('alt');
  return { bytes: new Uint8Array(await file.arrayBuffer()), alt: typeof alt === 'string' ? alt : undefined, originalName: file.name };
}

/** A small JSON body (the alt text). */
export async function readJson(request: Request): Promise<Record<string, unknown>> {
  const value = parseJsonBody(await readBodyCapped(request, MEDIA_ITEM_BODY_BYTES));
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw invalidRequest('Send a JSON object.');
  return value as Record<string, unknown>;
}
