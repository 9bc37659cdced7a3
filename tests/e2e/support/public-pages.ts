import type { APIRequestContext } from '@playwright/test';

/** Every public page of the site: the fixed routes plus every detail page the sitemap lists. */
export const STATIC_PUBLIC_PATHS = ['/', '/services', '/packages', '/demos', '/articles', '/free-audit', '/privacy', '/terms'];

export async function allPublicPaths(request: APIRequestContext): Promise<string[]> {
  const xml = await (await request.get('/sitemap.xml')).text();
  const fromSitemap = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1]!).pathname);
  return [...new Set([...STATIC_PUBLIC_PATHS, ...fromSitemap])];
}

export const VIEWPORTS = {
  phone: { width: 390, height: 844 },
  desktop: { width: 1280, height: 800 },
} as const;
