/**
 * GET /media/{id}.webp. The id is the hash of the bytes, so a URL's content never changes: browsers and
 * CDNs may keep it for a year without asking again. Anything that is not a stored image is a 404; a
 * database failure is a 503 to retry, never a 500.
 */
import { logger } from '../logger';
import { MEDIA_CONTENT_TYPE } from './process';
import { findMedia } from './repository';

export const IMMUTABLE_CACHE_CONTROL = 'public, max-age=31536000, immutable';

const FILE_NAME = /^([0-9a-f]{32})\.webp$/;

function notFound(): Response {
  return new Response('Not found', {
    status: 404,
    // The id may be uploaded later: do not let a cache remember the miss.
    headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' },
  });
}

function etagMatches(ifNoneMatch: string | null, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.trim() === '*' || ifNoneMatch.split(',').some((t) => t.trim().replace(/^W\//, '') === etag);
}

export async function mediaResponse(file: string | undefined, request: Request): Promise<Response> {
  const id = FILE_NAME.exec(file ?? '')?.[1];
  if (!id) return notFound();

  let row;
  try {
    row = await findMedia(id);
  } catch (err) {
    logger.error({ err, id }, 'media read failed');
    return new Response('The image is temporarily unavailable.', {
      status: 503,
      headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store', 'Retry-After': '5' },
    });
  }
  if (!row || row.contentType !== MEDIA_CONTENT_TYPE) return notFound();

  const etag = `"${row.id}"`;
  const headers = new Headers({
    'Content-Type': row.contentType,
    'Cache-Control': IMMUTABLE_CACHE_CONTROL,
    ETag: etag,
    'Content-Length': String(row.data.byteLength),
  });
  if (etagMatches(request.headers.get('If-None-Match'), etag)) {
    headers.delete('Content-Length');
    return new Response(null, { status: 304, headers });
  }
  if (request.method === 'HEAD') return new Response(null, { status: 200, headers });
  return new Response(new Uint8Array(row.data), { status: 200, headers });
}
