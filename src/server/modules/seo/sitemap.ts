/** sitemap.xml and robots.txt bodies. */
import { listSitemapRows } from './repository';

/** Public list pages, in the order a crawler should find them. */
export const SITEMAP_LIST_PAGES = ['/services', '/packages', '/demos', '/articles', '/free-audit', '/privacy', '/terms'];

/** Paths no crawler should visit: private, per-user or API routes. */
export const DISALLOWED_PATHS = ['/admin', '/dashboard', '/auth', '/verify-email', '/claim-admin', '/api'];

export interface SitemapUrl {
  path: string;
  lastmod?: Date | undefined;
}

const XML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };
export const escapeXml = (s: string) => s.replace(/[&<>"']/g, (c) => XML_ESCAPES[c]!);

/** Ids are text chosen by admins or imported: each becomes one path segment, never a path of its own. */
const segment = (id: string) => encodeURIComponent(id);

const newest = (rows: readonly { updatedAt: Date }[]) =>
  rows.length ? new Date(Math.max(...rows.map((r) => r.updatedAt.getTime()))) : undefined;

export async function sitemapUrls(): Promise<SitemapUrl[]> {
  const rows = await listSitemapRows();
  // A list page changes when any of its items does.
  const listLastmod: Record<string, Date | undefined> = {
    '/services': newest(rows.services),
    '/packages': newest(rows.packages),
    '/demos': newest(rows.demos),
    '/articles': newest(rows.articles),
  };
  return [
    { path: '/' },
    ...SITEMAP_LIST_PAGES.map((path) => ({ path, lastmod: listLastmod[path] })),
    ...rows.services.map((r) => ({ path: `/service/${segment(r.id)}`, lastmod: r.updatedAt })),
    ...rows.packages.map((r) => ({ path: `/package/${segment(r.id)}`, lastmod: r.updatedAt })),
    ...rows.demos.map((r) => ({ path: `/demo/${segment(r.id)}`, lastmod: r.updatedAt })),
    ...rows.articles.map((r) => ({ path: `/article/${segment(r.slug)}`, lastmod: r.updatedAt })),
  ];
}

export function renderSitemap(siteUrl: string, urls: readonly SitemapUrl[]): string {
  const body = urls
    .map((u) => {
      const loc = `<loc>${escapeXml(`${siteUrl}${u.path}`)}</loc>`;
      const lastmod = u.lastmod ? `<lastmod>${u.lastmod.toISOString()}</lastmod>` : '';
      return `  <url>${loc}${lastmod}</url>`;
    })
    .join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${body}\n</urlset>\n`;
}

export function renderRobots(siteUrl: string): string {
  return [
    'User-agent: *',
    'Allow: /',
    ...DISALLOWED_PATHS.map((p) => `Disallow: ${p}`),
    '',
    `Sitemap: ${siteUrl}/sitemap.xml`,
    '',
  ].join('\n');
}
