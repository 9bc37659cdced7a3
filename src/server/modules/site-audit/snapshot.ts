/**
 * What the automatic website audit saw (issue 22): the crawler (crawl.ts) fills a SiteSnapshot through the
 * safe fetch, the checks (checks/) judge it without any network, so every check is tested against saved
 * HTML and headers. Everything here is plain data (stored as JSON with the run): text from the audited site
 * is kept as text and only ever shown as text.
 */
import type { CrawlStep } from './crawl-context';

/** Why a fetch gave nothing: the safe fetch's code ('address-not-allowed', 'tls-failed', 'timeout' …). */
export interface FetchFailure {
  code: string;
  message: string;
}

/** One hop of a redirect chain: the address that answered with a redirect. */
export interface RedirectHop {
  url: string;
  status: number;
  /**
   * Where the redirect pointed (its Location, resolved; as the server wrote it, cut, when not a valid
   * address). When the exchange failed after this hop, the address the check was refused or not answered
   * at. Absent in runs stored before it was recorded.
   */
  location?: string | undefined;
}

/** One HTTP exchange as the audit saw it (after following redirects, at most five). */
export interface FetchedResponse {
  /** The address asked for. */
  requestedUrl: string;
  /** The address that answered (the last hop); equals requestedUrl without redirects. */
  url: string;
  /** 0 when nothing answered (see `failure`). */
  status: number;
  /** Response headers, names lower-cased, repeated headers joined with ", ". */
  headers: Record<string, string>;
  redirects: RedirectHop[];
  /** From sending the request to the first response byte of the last hop, in ms. */
  timeToFirstByteMs: number;
  /** From sending the request to the last body byte, in ms. */
  totalMs: number;
  /** Body bytes as sent over the wire (compressed when the server compressed). */
  transferBytes: number;
  /** Body bytes after decompression (bounded: see `truncated`). */
  bodyBytes: number;
  /** The body was cut at the crawler's limit (the rest was not read). */
  truncated: boolean;
  failure?: FetchFailure | undefined;
}

/** An HTML page of the audited site (the home page first). */
export interface FetchedPage extends FetchedResponse {
  /** The decoded HTML, undefined when the answer was not HTML (a PDF, an image) or failed. */
  html?: string | undefined;
  /** 0 for the home page, 1 for pages it links to, and so on. */
  depth: number;
}

export type ResourceKind = 'image' | 'script' | 'style' | 'font' | 'other';

/** A file a page loads (img src, script src, stylesheet link …), fetched to weigh it. */
export interface FetchedResource extends FetchedResponse {
  kind: ResourceKind;
  /** The page that references it. */
  pageUrl: string;
  /** Referenced from the document's <head> (render-blocking when a script without async/defer). */
  inHead: boolean;
}

/** An internal link followed to see whether it answers. */
export interface CheckedLink {
  /** The page the link is on. */
  pageUrl: string;
  url: string;
  /** 0 when nothing answered. */
  status: number;
  failure?: FetchFailure | undefined;
  /** Where the link redirected to when the exchange failed there (the check refused it, or it did not answer). */
  redirectedTo?: string | undefined;
}

/** A small text file of the site (robots.txt, sitemap.xml). */
export interface FetchedTextFile extends FetchedResponse {
  /** The body as text, at most the crawler's text limit. */
  text?: string | undefined;
}

export interface SiteSnapshot {
  /** The address as the requester typed it, normalised (scheme added, IDN host in punycode). */
  startUrl: string;
  startedAt: string;
  finishedAt: string;
  /** The home page's exchange; its `failure` or status says when the site did not answer. */
  home: FetchedPage;
  /**
   * When the https address could not connect (no certificate, a broken one, nothing on port 443) and the
   * site was audited over plain http instead: what https gave. Undefined otherwise.
   */
  httpsAttempt?: FetchedResponse | undefined;
  /** Every HTML page fetched, the home page first; bounded by the crawler's page limit. */
  pages: FetchedPage[];
  /** Files the pages load, bounded in count; not every reference is fetched (see `resourcesSeen`). */
  resources: FetchedResource[];
  /** How many distinct files the home page references, fetched or not. */
  resourcesSeen: number;
  links: CheckedLink[];
  /** How many distinct links and form actions of the site the pages have, checked or not (see `links`). */
  linksSeen?: number | undefined;
  robotsTxt?: FetchedTextFile | undefined;
  sitemapXml?: FetchedTextFile | undefined;
  /**
   * The plain-http version of the site's origin (only asked when the site is https): whether it redirects
   * to https. Undefined when not asked.
   */
  httpVersion?: FetchedResponse | undefined;
  /** Steps the crawler could not take here and why (CRAWL_STEPS names them: "Lighthouse", "Links" …). */
  skipped: { check: CrawlStep; reason: string }[];
  /** Real Lighthouse numbers when a Chromium was available. */
  lighthouse?: LighthouseResult | undefined;
}

export interface LighthouseResult {
  performance: number;
  accessibility: number;
  /** Core Web Vitals and friends, in ms (CLS unitless). */
  largestContentfulPaintMs?: number | undefined;
  cumulativeLayoutShift?: number | undefined;
  totalBlockingTimeMs?: number | undefined;
  firstContentfulPaintMs?: number | undefined;
  /** Absent in runs stored before it was kept. */
  speedIndexMs?: number | undefined;
}
