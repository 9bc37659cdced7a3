/**
 * The route cache reached outside a request: an event from another server process (docs/decisions/022)
 * has no Astro context to call `cache.invalidate` on. The provider registers itself here when Astro
 * creates it; on globalThis because the provider's entry point and the server's modules are built into
 * different chunks. Until Astro created it (or where none is configured: dev, tests) there is nothing to drop.
 */
const ROUTE_CACHE_SYMBOL = Symbol.for('agency.routeCacheProvider');

export interface RouteCacheControl {
  /** Drops the pages stored under any of `tags`. */
  invalidate(tags: readonly string[]): void;
  /** Drops every stored page. */
  clear(): void;
}

export function registerRouteCache(control: RouteCacheControl) {
  Reflect.set(globalThis, ROUTE_CACHE_SYMBOL, control);
}

const registered = () => Reflect.get(globalThis, ROUTE_CACHE_SYMBOL) as RouteCacheControl | undefined;

export const invalidateRouteCache = (tags: readonly string[]) => registered()?.invalidate(tags);

export const clearRouteCache = () => registered()?.clear();
