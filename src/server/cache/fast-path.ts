/**
 * Lets server.mjs answer route-cache hits before Astro's pipeline runs. A hit needs nothing from Astro —
 * the stored response already carries the middleware's headers — so building a Request, routing and
 * streaming through web streams would only add latency. server.mjs finds the lookup under this
 * process-wide symbol; the name is repeated there, keep both in step.
 */
import type { ByteLimitedStore } from './byte-store';
import { hasUnstorableQuery } from './page-queries';

export const FAST_PATH_SYMBOL = Symbol.for('agency.routeCache');
/** The store itself, for the metrics (its size in bytes and pages). */
export const ROUTE_CACHE_STORE_SYMBOL = Symbol.for('agency.routeCacheStore');

export interface FastPathHit {
  status: number;
  headers: [string, string][];
  body: Uint8Array;
}

export type FastPathLookup = (requestUrl: string) => FastPathHit | undefined;

export function registerFastPath(store: ByteLimitedStore, keyOf: (url: URL) => string) {
  const lookup: FastPathLookup = (requestUrl) => {
    let url: URL;
    try {
      url = new URL(requestUrl, 'http://localhost');
    } catch {
      return undefined;
    }
    if (hasUnstorableQuery(url)) return undefined;
    const entry = store.get(keyOf(url));
    return entry && { status: entry.status, headers: entry.headers, body: new Uint8Array(entry.body) };
  };
  Reflect.set(globalThis, FAST_PATH_SYMBOL, lookup);
  Reflect.set(globalThis, ROUTE_CACHE_STORE_SYMBOL, store);
}
