/**
 * The audited site's pages: the home page, then its same-site links breadth-first, level by level up to the
 * depth and page limits. Within a level, links that look like where a visitor gets in touch (contact,
 * booking, about, services) go first, so the contact form is found when the home page has none.
 */
import { CRAWL_STEPS, startedOnly, type CrawlContext } from './crawl-context';
import { decodeHtml, isHtml } from './decode-html';
import { discoverReferences, sameSite, type PageReferences } from './discover';
import type { FetchedPage } from './snapshot';

export interface CrawledPage {
  page: FetchedPage;
  /** What the page points to; undefined when it is not HTML or failed. */
  references?: PageReferences | undefined;
}

export const PAGE_ACCEPT = 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.8';

const LIKELY_LEAD_PAGE = /contact|book|appointment|schedul|about|service/i;
/** Files, not pages: checked as links, never crawled. */
const NOT_A_PAGE =
  /\.(?:pdf|jpe?g|png|gif|webp|avif|svg|ico|bmp|tiff?|heic|mp[34]|m4a|mov|avi|webm|wav|ogg|zip|rar|7z|gz|tgz|tar|docx?|xlsx?|pptx?|odt|ods|csv|xml|json|txt|rss|css|m?js|woff2?|ttf|otf|eot|exe|dmg|apk)$/i;

export async function fetchPage(ctx: CrawlContext, url: string, depth: number): Promise<CrawledPage> {
  const { response, bytes } = await ctx.fetch({ url, accept: PAGE_ACCEPT, maxBodyBytes: ctx.limits.maxHtmlBytes, body: 'keep' });
  const contentType = response.headers['content-type'];
  const html = bytes && isHtml(contentType, bytes) ? decodeHtml(bytes, contentType) : undefined;
  return { page: { ...response, html, depth }, references: html === undefined ? undefined : discoverReferences(html, response.url) };
}

/** Same-site page links of a level not fetched yet, the likely contact or booking pages first. */
function nextLevel(level: CrawledPage[], siteUrl: string, fetched: ReadonlySet<string>): string[] {
  const links = new Map<string, string>();
  for (const { url, text } of level.flatMap((crawled) => crawled.references?.links ?? [])) {
    if (links.has(url) || fetched.has(url) || !sameSite(url, siteUrl) || NOT_A_PAGE.test(new URL(url).pathname)) continue;
    links.set(url, text);
  }
  const likely = ([url, text]: [string, string]) => LIKELY_LEAD_PAGE.test(new URL(url).pathname) || LIKELY_LEAD_PAGE.test(text);
  const entries = [...links];
  return [...entries.filter(likely), ...entries.filter((entry) => !likely(entry))].map(([url]) => url);
}

/** The home page (fetched, with HTML) and the pages found from it, home first. */
export async function crawlPages(ctx: CrawlContext, home: CrawledPage): Promise<CrawledPage[]> {
  const { maxPages, maxDepth } = ctx.limits;
  const pages = [home];
  const fetched = new Set([home.page.requestedUrl, home.page.url]);
  let level = [home];
  for (let depth = 1; depth <= maxDepth && pages.length < maxPages && level.length > 0 && !ctx.budget.stopReason(); depth++) {
    const urls = nextLevel(level, home.page.url, fetched).slice(0, maxPages - pages.length);
    for (const url of urls) fetched.add(url);
    const runs = urls.map((url) => ctx.budget.run(() => fetchPage(ctx, url, depth)));
    level = await startedOnly(ctx, CRAWL_STEPS.pages, runs, { one: 'page found', many: 'pages found', verb: 'fetched' });
    for (const crawled of level) fetched.add(crawled.page.url);
    pages.push(...level);
  }
  return pages;
}
