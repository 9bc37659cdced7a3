/**
 * A slow phone in a spec: the page's server-rendered HTML is there to be typed into while its React
 * islands' own modules are held back, until the spec releases them.
 */
import { expect, type Page, type Route } from '@playwright/test';

export interface HeldIslands {
  /** Lets the islands' modules load; resolves once every island on the page has hydrated. */
  release(): Promise<void>;
}

/** Opens `path` with the module of every island on it held back (read from the page's own HTML). */
export async function gotoWithIslandsHeld(page: Page, path: string): Promise<HeldIslands> {
  const html = await (await page.request.get(path)).text();
  const islands = [...html.matchAll(/<astro-island\b[^>]*?\bcomponent-url="([^"]+)"/g)].map((m) => m[1]!);
  expect(islands.length, `${path} has islands`).toBeGreaterThan(0);
  const modules = new Set(islands);
  const held: Route[] = [];
  let released = false;
  const matcher = (url: URL) => modules.has(url.pathname);
  const hold = (route: Route) => (released ? route.continue() : void held.push(route));
  await page.route(matcher, hold);
  // Not 'load': a held module may keep it waiting.
  await page.goto(path, { waitUntil: 'domcontentloaded' });
  await expect(page.locator('astro-island[ssr]')).toHaveCount(islands.length);
  return {
    async release() {
      // Nothing hydrated while the spec typed: the page was the server's HTML all along.
      await expect(page.locator('astro-island[ssr]')).toHaveCount(islands.length);
      released = true;
      await Promise.all(held.splice(0).map((route) => route.continue()));
      await page.unroute(matcher, hold);
      await expect(page.locator('astro-island[ssr]')).toHaveCount(0);
    },
  };
}
