/**
 * What the crawl's steps (pages, resources, links, site files) share: the limits, the budget of time and
 * connections, the one way they fetch, and the list of what could not be done and why.
 */
import type { CrawlBudget } from './budget';
import type { Exchange, ExchangeRequest } from './fetch-bounded';

export interface CrawlLimits {
  /** Ports the audit asks (fixture hosts excepted). */
  allowedPorts: readonly number[];
  maxPages: number;
  /** 0 is the home page. */
  maxDepth: number;
  /** Files of the home page weighed. */
  maxResources: number;
  /** Links and form actions checked. */
  maxLinks: number;
  /** One request, last body byte included. */
  requestTimeoutMs: number;
  /** The whole crawl: what is done when it runs out is returned, the rest recorded as skipped. */
  auditTimeoutMs: number;
  /** Decoded bytes of a page kept; a longer page is audited on its first bytes (truncated). */
  maxHtmlBytes: number;
  /** Bytes of a file (image, script …) counted before it is called truncated. */
  maxResourceBytes: number;
  /** Requests at once. */
  concurrency: number;
}

export const CRAWL_LIMITS: Readonly<CrawlLimits> = Object.freeze({
  allowedPorts: [80, 443],
  maxPages: 6,
  maxDepth: 2,
  maxResources: 25,
  maxLinks: 30,
  requestTimeoutMs: 10_000,
  auditTimeoutMs: 45_000,
  maxHtmlBytes: 2 * 1024 * 1024,
  maxResourceBytes: 3 * 1024 * 1024,
  concurrency: 4,
});

/** robots.txt and sitemap.xml are kept as text up to this size. */
export const TEXT_FILE_BYTES = 256 * 1024;

/** The names the crawl gives the checks it could not run (SiteSnapshot.skipped[].check). */
export const CRAWL_STEPS = {
  pages: 'Pages',
  resources: 'Page weight',
  links: 'Links',
  robotsTxt: 'robots.txt',
  sitemap: 'Sitemap',
  httpVersion: 'HTTP to HTTPS redirect',
  lighthouse: 'Lighthouse',
} as const;

export type CrawlStep = (typeof CRAWL_STEPS)[keyof typeof CRAWL_STEPS];

export interface CrawlContext {
  limits: CrawlLimits;
  budget: CrawlBudget;
  fetch(request: ExchangeRequest): Promise<Exchange>;
  skip(check: CrawlStep, reason: string): void;
}

/** How a step names what it did not get to: "page found" / "pages found" / "fetched". */
export interface Unfinished {
  one: string;
  many: string;
  verb: string;
}

/**
 * The results of the runs that started (`budget.run` gives undefined for one that never did); how many did
 * not is noted under `step`: "3 pages found were not fetched: the audit's time limit of 45 seconds ran out."
 */
export async function startedOnly<T>(ctx: CrawlContext, step: CrawlStep, runs: Promise<T | undefined>[], { one, many, verb }: Unfinished): Promise<T[]> {
  const results = await Promise.all(runs);
  const done = results.filter((result) => result !== undefined);
  const missing = results.length - done.length;
  const reason = ctx.budget.stopReason();
  if (missing > 0 && reason) ctx.skip(step, `${missing} ${missing === 1 ? `${one} was` : `${many} were`} not ${verb}: ${reason}.`);
  return done;
}
