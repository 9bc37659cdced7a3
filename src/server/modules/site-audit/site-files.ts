/**
 * What the site's origin says about itself: robots.txt, the sitemap it names (else /sitemap.xml), and,
 * for an https site, what its plain-http address answers (a redirect to https, or the site unprotected).
 */
import { CRAWL_STEPS, TEXT_FILE_BYTES, type CrawlContext, type CrawlStep } from './crawl-context';
import { resolveHttpUrl } from './discover';
import type { FetchedResponse, FetchedTextFile } from './snapshot';

const TEXT_ACCEPT = 'text/plain,application/xml,text/xml;q=0.9,*/*;q=0.8';
const SITEMAP_LINE = /^\s*sitemap\s*:\s*(\S+)/im;

/** Runs a step through the budget, or notes it skipped when the audit stopped before it could start. */
async function step<T>(ctx: CrawlContext, name: CrawlStep, run: () => Promise<T>): Promise<T | undefined> {
  const result = await ctx.budget.run(run);
  if (result === undefined) ctx.skip(name, `Not fetched: ${ctx.budget.stopReason() ?? 'the audit stopped'}.`);
  return result;
}

async function fetchTextFile(ctx: CrawlContext, url: string): Promise<FetchedTextFile> {
  const { response, bytes } = await ctx.fetch({ url, accept: TEXT_ACCEPT, maxBodyBytes: TEXT_FILE_BYTES, body: 'keep' });
  return { ...response, text: bytes?.toString('utf8') };
}

export async function fetchSiteFiles(ctx: CrawlContext, homeUrl: string): Promise<{ robotsTxt?: FetchedTextFile | undefined; sitemapXml?: FetchedTextFile | undefined }> {
  const robotsTxt = await step(ctx, CRAWL_STEPS.robotsTxt, () => fetchTextFile(ctx, new URL('/robots.txt', homeUrl).href));
  const named = robotsTxt?.status === 200 ? resolveHttpUrl(SITEMAP_LINE.exec(robotsTxt.text ?? '')?.[1], homeUrl) : undefined;
  const sitemapXml = await step(ctx, CRAWL_STEPS.sitemap, () => fetchTextFile(ctx, named ?? new URL('/sitemap.xml', homeUrl).href));
  return { robotsTxt, sitemapXml };
}

/** http://<host>/ of an https home page, its redirect not followed: the Location says where it goes. */
export async function fetchHttpVersion(ctx: CrawlContext, homeUrl: string): Promise<FetchedResponse | undefined> {
  const home = new URL(homeUrl);
  if (home.protocol !== 'https:') return undefined;
  const url = `http://${home.hostname}/`;
  return step(ctx, CRAWL_STEPS.httpVersion, async () => (await ctx.fetch({ url, accept: '*/*', followRedirects: false, maxBodyBytes: TEXT_FILE_BYTES, body: 'count' })).response);
}
