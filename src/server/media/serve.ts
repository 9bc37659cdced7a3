/**
 * GET /media/{id}.webp and its narrower variants /media/{id}-w{400|800}.webp. The id is the hash of the
 * original's bytes, so a URL's content never changes: browsers and CDNs may keep it for a year without
 * asking again. Anything that is not a stored image is a 404; a database failure is a 503 to retry, never
 * a 500.
 */
import { parseMediaFile } from '../../shared/media-variants';
import { logger } from '../logger';
import { MEDIA_CONTENT_TYPE } from './process';
import { findMedia } from './repository';
import { mediaVariant } from './variants';

export const IMMUTABLE_CACHE_CONTROL = 'public, max-age=31536000, immutable';

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
  const requested = parseMediaFile(file);
  if (!requested) return notFound();
  const { id, width } = requested;

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

  const etag = `"${width ? `${row.id}-w${width}` : row.id}"`;
  const headers = new Headers({ 'Content-Type': row.contentType, 'Cache-Control': IMMUTABLE_CACHE_CONTROL, ETag: etag });
  if (etagMatches(request.headers.get('If-None-Match'), etag)) return new Response(null, { status: 304, headers });

  let bytes: Uint8Array = row.data;
  if (width) {
    try {
      bytes = await mediaVariant(row.id, row.data, width);
    } catch (err) {
      // The stored original still shows the right picture, only heavier.
      logger.error({ err, id, width }, 'image variant failed; serving the original');
      headers.set('Cache-Control', 'no-store');
    }
  }
  headers.set('Content-Length', String(bytes.byteLength));
  if (request.method === 'HEAD') return new Response(null, { status: 200, headers });
  return new Response(new Uint8Array(bytes), { status: 200, headers });
}
