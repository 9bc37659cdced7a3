/**
 * Lets server.mjs answer /media requests that need nothing from the database before Astro's pipeline
 * runs, at about the cost of a built file: a 304 for an ETag the browser already holds (decided from the
 * URL), and a 200 for a file in the media cache. Everything else (a miss, `*`, a bad name) returns
 * undefined and goes through Astro to serve.ts. server.mjs finds the lookup under this process-wide
 * symbol; the name is repeated there, keep both in step.
 */
import type { CachedPage } from '../cache/byte-store';
import { parseMediaFile } from '../../shared/media-variants';
import { mediaCache } from './cache';
import { etagOf, holdsEtag, mediaHeaders, mediaKey } from './response-headers';

export const MEDIA_FAST_PATH_SYMBOL = Symbol.for('agency.media');

export interface MediaFastAnswer {
  status: 200 | 304;
  /** Raw header list (name, value, name, value…), as res.writeHead takes it. Never modify it. */
  headers: string[];
  body?: Uint8Array;
}

export type MediaFastPath = (pathname: string, ifNoneMatch: string | undefined, https: boolean) => MediaFastAnswer | undefined;

const MEDIA_PATH = /^\/media\/([^/]+)$/;

/** An entry's body view and raw headers (plain and HTTPS), made on its first hit: entries never change. */
const prepared = new WeakMap<CachedPage, { body: Uint8Array; http: string[]; https: string[] }>();

function prepare(entry: CachedPage, etag: string) {
  let ready = prepared.get(entry);
  if (!ready) {
    ready = { body: new Uint8Array(entry.body), http: entry.headers.flat(), https: mediaHeaders(etag, entry.body.byteLength, true).flat() };
    prepared.set(entry, ready);
  }
  return ready;
}

/** A 304's headers differ only in the ETag: built once per scheme, the ETag filled in per answer. */
const notModifiedTemplates = new Map<boolean, string[]>();

function notModifiedHeaders(etag: string, https: boolean): string[] {
  let template = notModifiedTemplates.get(https);
  if (!template) {
    template = mediaHeaders('', undefined, https).flat();
    notModifiedTemplates.set(https, template);
  }
  const raw = template.slice();
  raw[raw.indexOf('etag') + 1] = etag;
  return raw;
}

export const mediaFastPath: MediaFastPath = (pathname, ifNoneMatch, https) => {
  const file = parseMediaFile(MEDIA_PATH.exec(pathname)?.[1]);
  if (!file) return undefined;
  const etag = etagOf(file);
  if (holdsEtag(ifNoneMatch, etag)) return { status: 304, headers: notModifiedHeaders(etag, https) };
  const entry = mediaCache().get(mediaKey(file));
  if (!entry) return undefined;
  const ready = prepare(entry, etag);
  return { status: 200, headers: https ? ready.https : ready.http, body: ready.body };
};

/** Called at start-up (startup.ts): from then on server.mjs answers what it can without Astro. */
export function registerMediaFastPath(): void {
  Reflect.set(globalThis, MEDIA_FAST_PATH_SYMBOL, mediaFastPath);
}
