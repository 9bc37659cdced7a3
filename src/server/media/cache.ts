/**
 * Hot images in memory, so a popular picture is not read out of the database on every request
 * (docs/decisions/019). Originals and variants share one LRU bounded by bytes (MEDIA_CACHE_BYTES);
 * concurrent misses for the same file share one load (single flight); a deleted image is forgotten
 * here at once and by every other server process when the event reaches it (docs/decisions/022);
 * entries also expire after a few minutes, the backstop for an event that could not be sent.
 */
import { onEvent, onResync, publish } from '../events/bus';
import { ByteLimitedStore, type CachedPage } from '../cache/byte-store';
import { MEDIA_VARIANT_WIDTHS } from '../../shared/media-variants';
import { config } from '../config';
import { mediaHeaders } from './response-headers';

/** As long as a cached public page lives (PUBLIC_PAGE_MAX_AGE_SECONDS): the backstop for a deletion event that could not be sent. */
export const MEDIA_CACHE_MAX_AGE_SECONDS = 300;

export interface LoadedImage {
  bytes: Uint8Array;
  /** False for a stand-in served once and not kept (the original when a variant could not be made). */
  keep: boolean;
}

export class MediaCache {
  readonly store: ByteLimitedStore;
  /** One picture may take a quarter of the budget: a few large ones cannot push out every hot one. */
  readonly maxEntryBytes: number;
  readonly #maxAgeSeconds: number;
  readonly #loading = new Map<string, Promise<LoadedImage | undefined>>();
  /** Bumped by every forget(): a load that began before a deletion does not store what it read. */
  #generation = 0;

  constructor(maxBytes: number, maxAgeSeconds = MEDIA_CACHE_MAX_AGE_SECONDS) {
    this.store = new ByteLimitedStore(maxBytes);
    this.maxEntryBytes = Math.floor(this.store.maxBytes / 4);
    this.#maxAgeSeconds = maxAgeSeconds;
  }

  /** The stored answer for `key` ({id} or {id}-w{width}): body plus the 200's headers (without HSTS). */
  get(key: string): CachedPage | undefined {
    return this.store.get(key);
  }

  /**
   * The file's bytes, from memory or from `load` — called once however many requests wait for it at the
   * same moment. Undefined when there is no such image; a failed load rejects every waiter and is not kept.
   */
  load(key: string, load: () => Promise<LoadedImage | undefined>): Promise<LoadedImage | undefined> {
    const hit = this.store.get(key);
    if (hit) return Promise.resolve({ bytes: new Uint8Array(hit.body), keep: true });
    const pending = this.#loading.get(key);
    if (pending) return pending;
    const generation = this.#generation;
    const loading = load().then((image) => {
      if (image?.keep && generation === this.#generation) this.#keep(key, image.bytes);
      return image;
    });
    this.#loading.set(key, loading);
    const done = () => {
      if (this.#loading.get(key) === loading) this.#loading.delete(key);
    };
    loading.then(done, done);
    return loading;
  }

  /** Drops an image and its variants, stored or being loaded. */
  forget(id: string): void {
    this.#generation += 1;
    for (const key of [id, ...MEDIA_VARIANT_WIDTHS.map((w) => `${id}-w${w}`)]) {
      this.store.delete(key);
      this.#loading.delete(key);
    }
  }

  /** Drops everything (events may have been missed). */
  clear(): void {
    this.#generation += 1;
    this.store.deleteWhere(() => true);
    this.#loading.clear();
  }

  #keep(key: string, bytes: Uint8Array): void {
    if (bytes.byteLength > this.maxEntryBytes) return;
    // An exact copy: the driver's buffer may be a slice of a larger one that should not stay alive.
    const body = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
    this.store.set(key, {
      body,
      status: 200,
      headers: mediaHeaders(`"${key}"`, body.byteLength),
      storedAt: Date.now(),
      maxAgeSeconds: this.#maxAgeSeconds,
      tags: [],
    });
  }
}

// On globalThis: server.mjs's fast path, the /media route and the media library (deletions) may sit in
// different chunks of the build, and must all reach the same cache.
const holder = globalThis as unknown as { __agencyMediaCache?: MediaCache };

/** The process's media cache, sized by MEDIA_CACHE_BYTES. */
export function mediaCache(): MediaCache {
  holder.__agencyMediaCache ??= new MediaCache(config().MEDIA_CACHE_BYTES);
  return holder.__agencyMediaCache;
}

const FORGET_TOPIC = 'media.forget';
onEvent<{ id: string }>(FORGET_TOPIC, ({ id }) => holder.__agencyMediaCache?.forget(id));
onResync('media-cache', () => holder.__agencyMediaCache?.clear());

/** A deleted image must not be served from memory any more, by this process or any other. */
export function forgetMedia(id: string): Promise<void> {
  return publish(FORGET_TOPIC, { id });
}
