/**
 * The automatic website audit's crawler (issue 22): fetches the requester's site through the safe fetch,
 * within limits of pages, files, links, bytes and time, and returns what it saw as a SiteSnapshot for the
 * checks to judge. It never throws for anything the site does: a failure is recorded on the exchange it
 * affected, and a step it could not take is in `skipped` with the reason.
 */
import { BrowserBoundError } from './browser/bounds';
import { createCrawlBudget } from './budget';
import { CRAWL_LIMITS, CRAWL_STEPS, type CrawlContext, type CrawlLimits, type CrawlStep } from './crawl-context';
import { fetchBounded } from './fetch-bounded';
import { checkLinks } from './links';
import { crawlPages, fetchPage, type CrawledPage } from './pages';
import { weighResources } from './resources';
import { fetchHttpVersion, fetchSiteFiles } from './site-files';
import type { FetchedResponse, LighthouseResult, SiteSnapshot } from './snapshot';

export { CRAWL_LIMITS, CRAWL_STEPS, type CrawlLimits };

export type CrawlOptions = Partial<CrawlLimits> & {
  /** Says who is asking, e.g. "Acme website audit (+https://acme.example)". */
  userAgent: string;
  signal?: AbortSignal | undefined;
  /** Real-browser scores of the home page, when the server has a Chromium. */
  lighthouse?: ((url: string, signal: AbortSignal) => Promise<LighthouseResult>) | undefined;
};

/** Read by the site's owner and the requester alike: no server set-up in it (AUDIT_CHROMIUM_PATH is in the README). */
export const NO_BROWSER = 'this audit did not load the page in a real browser.';

/** Lighthouse beside the crawl, given up when the audit's time runs out. */
async function measure(ctx: CrawlContext, lighthouse: CrawlOptions['lighthouse'], url: string): Promise<LighthouseResult | undefined> {
  if (!lighthouse) {
    ctx.skip(CRAWL_STEPS.lighthouse, NO_BROWSER);
    return undefined;
  }
  const { signal } = ctx.budget;
  // The budget's signal lives as long as this crawl: its listener needs no removing.
  const stopped = new Promise<undefined>((resolve) => {
    if (signal.aborted) resolve(undefined);
    signal.addEventListener('abort', () => resolve(undefined), { once: true });
  });
  try {
    const result = await Promise.race([lighthouse(url, signal), stopped]);
    if (!result) ctx.skip(CRAWL_STEPS.lighthouse, `Lighthouse did not finish: ${ctx.budget.stopReason()}.`);
    return result;
  } catch (err) {
    // A page stopped at the browser's bounds is told as such ("Lighthouse stopped: the page used too much memory …").
    const reason = err instanceof BrowserBoundError ? err.message : `Lighthouse could not measure the page: ${err instanceof Error ? err.message : String(err)}`;
    ctx.skip(CRAWL_STEPS.lighthouse, reason);
    return undefined;
  }
}

/** How an https address fails when the site has no working https at all (refused, reset, not TLS, a bad certificate). */
const NO_HTTPS = new Set(['network', 'tls-failed']);

/**
 * The home page, over plain http when its https address does not connect: a small business's site without
 * a certificate is still audited (the https check then fails with what https gave). A site that answers
 * https with an error, or fails after a redirect, is judged as it answered.
 */
async function fetchHome(ctx: CrawlContext, startUrl: string): Promise<{ home: CrawledPage; httpsAttempt?: FetchedResponse }> {
  const home = await fetchPage(ctx, startUrl, 0);
  const { failure, redirects, requestedUrl } = home.page;
  // Only an address that was asked (a valid one) fails this way.
  if (!failure || !NO_HTTPS.has(failure.code) || redirects.length > 0 || !/^https:/i.test(requestedUrl)) return { home };
  const url = new URL(requestedUrl);
  url.protocol = 'http:';
  const plain = await fetchPage(ctx, url.href, 0);
  if (plain.page.failure) return { home };
  const { html: _html, depth: _depth, ...attempt } = home.page;
  return { home: plain, httpsAttempt: attempt };
}

/** Why nothing beyond the home page was looked at, or undefined when the crawl can go on. */
function homeDeadEnd({ page, references }: CrawledPage): { reason: string; steps: CrawlStep[] } | undefined {
  if (page.failure) return { reason: `The home page could not be read (${page.failure.message}).`, steps: Object.values(CRAWL_STEPS) };
  if (references) return undefined;
  const type = page.headers['content-type']?.split(';')[0]?.trim();
  return {
    reason: `The home page is not an HTML page (${type ? `it is ${type}` : 'it has no content type'}), so it has no links or files to follow.`,
    steps: [CRAWL_STEPS.pages, CRAWL_STEPS.resources, CRAWL_STEPS.links, CRAWL_STEPS.lighthouse],
  };
}

export async function crawlSite(startUrl: string, options: CrawlOptions): Promise<SiteSnapshot> {
  const { userAgent, signal, lighthouse, ...chosen } = options;
  const limits: CrawlLimits = { ...CRAWL_LIMITS, ...chosen };
  const startedAt = new Date().toISOString();
  const budget = createCrawlBudget({ concurrency: limits.concurrency, timeoutMs: limits.auditTimeoutMs, signal });
  const skipped: SiteSnapshot['skipped'] = [];
  const settings = { userAgent, allowedPorts: limits.allowedPorts, requestTimeoutMs: limits.requestTimeoutMs, budget };
  const ctx: CrawlContext = {
    limits,
    budget,
    fetch: (request) => fetchBounded(request, settings),
    skip: (check, reason) => skipped.push({ check, reason }),
  };
  const finished = (rest: Omit<SiteSnapshot, 'startUrl' | 'startedAt' | 'finishedAt' | 'skipped'>): SiteSnapshot => ({
    startUrl,
    startedAt,
    finishedAt: new Date().toISOString(),
    ...rest,
    skipped,
  });

  try {
    const { home, httpsAttempt } = await fetchHome(ctx, startUrl);
    const deadEnd = homeDeadEnd(home);
    for (const step of deadEnd?.steps ?? []) ctx.skip(step, deadEnd!.reason);
    if (home.page.failure) return finished({ home: home.page, pages: [home.page], resources: [], resourcesSeen: 0, links: [] });

    const homeUrl = home.page.url;
    const [pages, weighed, files, httpVersion, lighthouseResult] = await Promise.all([
      crawlPages(ctx, home),
      weighResources(ctx, home),
      fetchSiteFiles(ctx, homeUrl),
      fetchHttpVersion(ctx, homeUrl),
      home.references ? measure(ctx, lighthouse, homeUrl) : undefined,
    ]);
    const checked = await checkLinks(ctx, pages, homeUrl);
    return finished({
      home: home.page,
      httpsAttempt,
      pages: pages.map((crawled) => crawled.page),
      ...weighed,
      ...checked,
      ...files,
      httpVersion,
      lighthouse: lighthouseResult,
    });
  } finally {
    budget.dispose();
  }
}
