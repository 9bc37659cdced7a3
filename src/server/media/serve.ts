/**
 * GET /media/{id}.webp and its narrower variants /media/{id}-w{400|800}.webp. The id is the hash of the
 * original's bytes, so a URL's content never changes: browsers and CDNs may keep it for a year without
 * asking again, and a browser that asks anyway (If-None-Match with the ETag) is answered 304 without a
 * database read. Hot files come from memory (cache.ts; server.mjs answers those before Astro, see
 * fast-path.ts). Anything that is not a stored image is a 404; a database failure is a 503 to retry,
 * never a 500.
 */
import { parseMediaFile } from '../../shared/media-variants';
import { logger } from '../logger';
import { mediaCache, type LoadedImage } from './cache';
import { MEDIA_CONTENT_TYPE } from './process';
import { findMedia } from './repository';
import { etagOf, holdsEtag, mediaHeaders, mediaKey, type MediaFile } from './response-headers';
import { mediaVariant } from './variants';

export { IMMUTABLE_CACHE_CONTROL } from './response-headers';

function notFound(): Response {
  return new Response('Not found', {
    status: 404,
    // The id may be uploaded later: do not let a cache remember the miss.
    headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' },
  });
}

async function readOriginal(id: string): Promise<LoadedImage | undefined> {
  const row = await findMedia(id);
  return row && row.contentType === MEDIA_CONTENT_TYPE ? { bytes: row.data, keep: true } : undefined;
}

/** The file's bytes: the original from memory or the database, a variant made from it (kept too). */
function loadFile(file: MediaFile): Promise<LoadedImage | undefined> {
  const cache = mediaCache();
  const original = () => cache.load(file.id, () => readOriginal(file.id));
  const { width } = file;
  if (!width) return original();
  return cache.load(mediaKey(file), async () => {
    const source = await original();
    if (!source) return undefined;
    try {
      return { bytes: await mediaVariant(source.bytes, width), keep: true };
    } catch (err) {
      // The stored original still shows the right picture, only heavier; it is not kept as the variant.
      logger.error({ err, id: file.id, width }, 'image variant failed; serving the original');
      return { bytes: source.bytes, keep: false };
    }
  });
}

export async function mediaResponse(name: string | undefined, request: Request): Promise<Response> {
  const file = parseMediaFile(name);
  if (!file) return notFound();
  const etag = etagOf(file);
  const ifNoneMatch = request.headers.get('If-None-Match');
  if (holdsEtag(ifNoneMatch, etag)) return new Response(null, { status: 304, headers: mediaHeaders(etag, undefined) });

  let image: LoadedImage | undefined;
  try {
    image = await loadFile(file);
  } catch (err) {
    logger.error({ err, id: file.id }, 'media read failed');
    return new Response('The image is temporarily unavailable.', {
      status: 503,
      headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store', 'Retry-After': '5' },
    });
  }
  if (!image) return notFound();
  // `*` asks whether the image exists at all: now that it is known to, the browser's copy stands.
  if (ifNoneMatch?.trim() === '*') return new Response(null, { status: 304, headers: mediaHeaders(etag, undefined) });

  const headers = new Headers(mediaHeaders(etag, image.bytes.byteLength));
  if (!image.keep) headers.set('Cache-Control', 'no-store');
  if (request.method === 'HEAD') return new Response(null, { status: 200, headers });
  // Response copies the bytes: what the cache holds stays untouched.
  return new Response(new Uint8Array(image.bytes), { status: 200, headers });
}
