/**
 * An LRU store bounded by the bytes it holds rather than by entry count, so a few large pages cannot
 * push the process past its memory budget (PRODUCT.md: route cache 41943040 bytes, never below 1048576).
 */
export const MIN_CACHE_BYTES = 1_048_576;
export const DEFAULT_CACHE_BYTES = 41_943_040;

export interface CachedPage {
  body: ArrayBuffer;
  status: number;
  headers: [string, string][];
  storedAt: number;
  maxAgeSeconds: number;
  tags: string[];
}

function sizeOf(key: string, entry: CachedPage): number {
  let bytes = entry.body.byteLength + key.length * 2;
  for (const [k, v] of entry.headers) bytes += (k.length + v.length) * 2;
  return bytes;
}

export class ByteLimitedStore {
  #entries = new Map<string, { entry: CachedPage; bytes: number }>();
  #bytes = 0;
  readonly maxBytes: number;

  constructor(maxBytes = DEFAULT_CACHE_BYTES) {
    this.maxBytes = Math.max(MIN_CACHE_BYTES, Number.isFinite(maxBytes) ? maxBytes : DEFAULT_CACHE_BYTES);
  }

  get bytes() {
    return this.#bytes;
  }

  get size() {
    return this.#entries.size;
  }

  get(key: string, now = Date.now()): CachedPage | undefined {
    const hit = this.#entries.get(key);
    if (!hit) return undefined;
    if ((now - hit.entry.storedAt) / 1000 > hit.entry.maxAgeSeconds) {
      this.delete(key);
      return undefined;
    }
    this.#entries.delete(key); // most recently used goes last
    this.#entries.set(key, hit);
    return hit.entry;
  }

  set(key: string, entry: CachedPage): boolean {
    const bytes = sizeOf(key, entry);
    this.delete(key);
    if (bytes > this.maxBytes) return false;
    while (this.#bytes + bytes > this.maxBytes) {
      const oldest = this.#entries.keys().next().value;
      if (oldest === undefined) break;
      this.delete(oldest);
    }
    this.#entries.set(key, { entry, bytes });
    this.#bytes += bytes;
    return true;
  }

  delete(key: string): void {
    const hit = this.#entries.get(key);
    if (!hit) return;
    this.#bytes -= hit.bytes;
    this.#entries.delete(key);
  }

  deleteWhere(match: (key: string, entry: CachedPage) => boolean): void {
    for (const [key, { entry }] of [...this.#entries]) if (match(key, entry)) this.delete(key);
  }
}
