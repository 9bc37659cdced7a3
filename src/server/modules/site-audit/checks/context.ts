/**
 * What every check receives (issue 22): the snapshot, its pages parsed once (cheerio, then indexed in one
 * walk), and the URL helpers the checks share. Nothing here touches the network.
 */
import type { AnyNode } from 'domhandler';
import type { CheckedLink, FetchFailure, FetchedPage, FetchedResponse, SiteSnapshot } from '../snapshot';
import { cutText, describeStatus, QUOTE_MAX } from '../text';
import { isHtml, walk, type Element } from './dom';
import { parseHtml } from '../parse-html';

export interface ParsedPage {
  page: FetchedPage;
  /** The address that answered, for resolving the page's relative links. */
  url: string;
  /** How evidence names the page: "/contact" for the site's own pages. */
  label: string;
  root: AnyNode;
  /** Where reading stopped because the page nests too deep (see nesting.ts); undefined when read whole. */
  readUpTo: number | undefined;
  head: Element | undefined;
  body: Element | undefined;
  /** The document's HTML elements with this tag name, in document order. */
  elements(tag: string): readonly Element[];
  /** Elements with this tag name inside <head>. */
  headElements(tag: string): readonly Element[];
}

export interface AuditContext {
  snapshot: SiteSnapshot;
  /** Why the home page cannot be judged (no answer, an error status, not HTML); undefined when it can. */
  homeProblem: string | undefined;
  home: ParsedPage | undefined;
  /** Every page that answered with HTML, the home page first. */
  pages: ParsedPage[];
  /** `href` resolved against `base` (the home page by default); undefined when it is not a valid URL. */
  absoluteUrl(href: string, base?: string): string | undefined;
  /** The URL belongs to the audited site (its host, with or without "www."). */
  sameSite(url: string): boolean;
  /** A URL as evidence shows it: the path for the site's own pages, else the whole address, cut. */
  label(url: string): string;
}

/** The context of a check judged from the home page: only built when the home page answered with HTML. */
export type HomeContext = AuditContext & { home: ParsedPage };

export function isSuccess(response: FetchedResponse): boolean {
  return !response.failure && response.status >= 200 && response.status < 300;
}

/** A response header by its lower-case name, trimmed; '' when absent. */
export function header(response: FetchedResponse, name: string): string {
  return (response.headers[name] ?? '').trim();
}

/** The media type without parameters: "text/html". */
export function mediaType(response: FetchedResponse): string {
  return header(response, 'content-type').split(';')[0]!.trim().toLowerCase();
}

/** The safe fetch's refusals of an address, in a few words: the site sent the check somewhere it may not go. */
const REFUSED: Readonly<Record<string, string>> = {
  'address-not-allowed': 'not a public address',
  'port-not-allowed': 'a port the check does not ask',
  'scheme-not-allowed': 'not an http or https address',
  'invalid-url': 'not a valid address',
  'origin-not-allowed': 'not an address the check may ask',
};

const lowerFirst = (text: string) => text.charAt(0).toLowerCase() + text.slice(1);

/** The exchange failed at the address a redirect pointed to (refused, or no answer there), not at one that answered. */
export function failedAfterRedirect(response: FetchedResponse): boolean {
  return response.failure !== undefined && response.status === 0 && response.redirects.length > 0;
}

/** Why the last redirect of a failed exchange led nowhere: "refused: not a public address", "did not answer: …". */
function notFollowed(failure: FetchFailure): string {
  const refused = REFUSED[failure.code];
  if (refused) return `refused: ${refused}`;
  const message = lowerFirst(cutText(failure.message, 80));
  return failure.code === 'too-many-redirects' ? `not followed: ${message}` : `did not answer: ${message}`;
}

/** A long chain shows its first hops and its last; the middle is counted. */
const SHOWN_HOPS = 4;

/**
 * The redirect chain of an exchange as evidence tells it, each address cut and shown as text:
 * "http://a.test/ (301) → https://a.test/", or for a redirect the check did not follow, where the site
 * tried to send it: "http://a.test/ (302) → http://169.254.169.254/ (refused: not a public address)".
 * Undefined without redirects.
 */
export function describeRedirects(response: FetchedResponse): string | undefined {
  const { redirects } = response;
  const last = redirects.at(-1);
  if (!last) return undefined;
  const hops = redirects.map((hop) => `${cutText(hop.url, 80)} (${hop.status})`);
  const shown = hops.length > SHOWN_HOPS ? [...hops.slice(0, 2), `… ${hops.length - 3} more …`, hops.at(-1)!] : hops;
  const end = failedAfterRedirect(response)
    ? `${last.location === undefined ? 'an address not recorded' : cutText(last.location, 80)} (${notFollowed(response.failure!)})`
    : cutText(response.url, 80);
  return `${shown.join(' → ')} → ${end}`;
}

/** Why the home page cannot be judged, as evidence says it; undefined when it answered with HTML. */
function homeProblemOf(home: FetchedPage): string | undefined {
  if (home.failure && failedAfterRedirect(home)) {
    const message = cutText(home.failure.message);
    if (REFUSED[home.failure.code]) return `The site redirected the check to an address it may not visit: ${message}`;
    if (home.failure.code === 'too-many-redirects') return `The site kept redirecting (${lowerFirst(message)})`;
    return `The address the site redirected to did not answer: ${message}`;
  }
  if (home.failure) return `The site did not answer: ${cutText(home.failure.message)}`;
  if (home.status === 0) return `Nothing answered at ${cutText(home.requestedUrl)}`;
  if (home.status < 200 || home.status >= 300) return `The home page answered ${describeStatus(home.status)}`;
  if (home.html === undefined) return `The home page answered with ${cutText(mediaType(home) || 'an unknown type')}, not a web page`;
  return undefined;
}

/**
 * Answers that do not make a link broken: a login wall (401), a form address that only takes posts (405,
 * the crawler checks form actions like links) and the site slowing the crawler down (429).
 */
const NOT_BROKEN = new Set([401, 405, 429]);

/**
 * Refusals a visitor's browser does not share: a redirect to another port, another scheme or an origin the
 * check may not ask may still work for people, so such a link is "not followed", not broken.
 */
const CHECK_ONLY_REFUSALS = new Set(['port-not-allowed', 'scheme-not-allowed', 'origin-not-allowed']);

const redirectFailed = (link: CheckedLink): link is CheckedLink & { failure: FetchFailure; redirectedTo: string } => link.failure !== undefined && link.redirectedTo !== undefined;

/** Where a link the check did not follow redirects, and why ("redirects to http://a.test:8080/ (refused: …)"). */
const redirectEvidence = (link: CheckedLink & { failure: FetchFailure; redirectedTo: string }) => `redirects to ${cutText(link.redirectedTo, 80)} (${notFollowed(link.failure)})`;

/** A link that redirects where the check may not go but visitors may: what happened, else undefined. */
export function linkNotFollowed(link: CheckedLink): string | undefined {
  return redirectFailed(link) && CHECK_ONLY_REFUSALS.has(link.failure.code) ? redirectEvidence(link) : undefined;
}

/**
 * What is wrong with a checked link ("404 Not Found", "no answer: timed out", "redirects to
 * http://169.254.169.254/ (refused: not a public address)"); undefined when it works or was not followed.
 */
export function linkProblem(link: CheckedLink): string | undefined {
  if (redirectFailed(link)) return CHECK_ONLY_REFUSALS.has(link.failure.code) ? undefined : redirectEvidence(link);
  if (link.failure) return `no answer: ${cutText(link.failure.message, 80)}`;
  if (link.status === 0) return 'no answer';
  if (link.status >= 400 && !NOT_BROKEN.has(link.status)) return describeStatus(link.status);
  return undefined;
}

/** The URL without its #fragment, for comparing addresses. */
export function withoutFragment(url: string): string {
  const hash = url.indexOf('#');
  return hash === -1 ? url : url.slice(0, hash);
}

function parseUrl(href: string, base?: string): URL | undefined {
  try {
    return new URL(href.trim(), base);
  } catch {
    return undefined;
  }
}

function siteHost(url: string): string | undefined {
  return parseUrl(url)?.hostname.replace(/^www\./, '');
}

const parsedPages = new WeakMap<FetchedPage, ParsedPage>();

/** The page parsed and indexed once; later audits of the same snapshot reuse it. */
function parsePage(page: FetchedPage & { html: string }, label: (url: string) => string): ParsedPage {
  const known = parsedPages.get(page);
  if (known) return known;
  const { $, readUpTo } = parseHtml(page.html);
  const root = $.root()[0]!;
  const all = new Map<string, Element[]>();
  // Only the HTML document's own elements: inline SVG has its own <title>, <a> and <script>.
  const indexInto = (map: Map<string, Element[]>) => (el: Element) => {
    if (isHtml(el)) push(map, el);
  };
  walk(root, { enter: indexInto(all) });
  const head = all.get('head')?.[0];
  const inHead = new Map<string, Element[]>();
  if (head) walk(head, { enter: indexInto(inHead) });
  const parsed: ParsedPage = {
    page,
    url: page.url,
    label: label(page.url),
    root,
    readUpTo,
    head,
    body: all.get('body')?.[0],
    elements: (tag) => all.get(tag) ?? [],
    headElements: (tag) => inHead.get(tag) ?? [],
  };
  parsedPages.set(page, parsed);
  return parsed;
}

function push(map: Map<string, Element[]>, el: Element): void {
  const list = map.get(el.name);
  if (list) list.push(el);
  else map.set(el.name, [el]);
}

function hasHtml(page: FetchedPage): page is FetchedPage & { html: string } {
  return isSuccess(page) && typeof page.html === 'string';
}

export function createAuditContext(snapshot: SiteSnapshot): AuditContext {
  const hosts = new Set([snapshot.startUrl, snapshot.home.requestedUrl, snapshot.home.url].map(siteHost).filter(Boolean));
  const sameSite = (url: string) => hosts.has(siteHost(url));
  const label = (url: string) => {
    const parsed = parseUrl(url);
    return parsed && sameSite(url) ? cutText(parsed.pathname + parsed.search, QUOTE_MAX) : cutText(url, QUOTE_MAX);
  };
  const homeProblem = homeProblemOf(snapshot.home);
  const home = homeProblem === undefined && hasHtml(snapshot.home) ? parsePage(snapshot.home, label) : undefined;
  const pages = home ? [home] : [];
  const seen = new Set(pages.map((parsed) => parsed.url));
  for (const page of snapshot.pages) {
    if (page === snapshot.home || !hasHtml(page) || seen.has(page.url)) continue;
    seen.add(page.url);
    pages.push(parsePage(page, label));
  }
  return {
    snapshot,
    homeProblem,
    home,
    pages,
    absoluteUrl: (href, base = snapshot.home.url) => parseUrl(href, base)?.href,
    sameSite,
    label,
  };
}
