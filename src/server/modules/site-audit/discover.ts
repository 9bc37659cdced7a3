/**
 * What a page points to, read with cheerio (parsed, never run): the links and form actions the crawl may
 * follow or check, and the files the page loads, each an absolute http(s) address without its fragment,
 * each once, in document order. Which of them belong to the audited site is the crawl's call (sameSite).
 */
import { parseHtml } from './parse-html';
import type { ResourceKind } from './snapshot';

export interface LinkReference {
  url: string;
  /** The link's visible text (or its aria-label / title), whitespace collapsed. */
  text: string;
}

export interface ResourceReference {
  url: string;
  kind: ResourceKind;
  inHead: boolean;
}

export interface PageReferences {
  links: LinkReference[];
  /** Where the page's forms send to (a form without an action sends to the page itself: left out). */
  formActions: string[];
  resources: ResourceReference[];
}

/** The absolute http(s) address `href` means on the page, without its fragment; undefined for anything else. */
export function resolveHttpUrl(href: string | undefined, base: string): string | undefined {
  if (!href?.trim()) return undefined;
  try {
    const url = new URL(href.trim(), base);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
    url.hash = '';
    return url.href;
  } catch {
    return undefined;
  }
}

const hostWithoutWww = (url: string) => new URL(url).hostname.replace(/^www\./, '');

/** The same host, or its www./bare twin: example.com and www.example.com are one site. */
export function sameSite(url: string, siteUrl: string): boolean {
  return hostWithoutWww(url) === hostWithoutWww(siteUrl);
}

/** The first address of a srcset ("a.webp 1x, b.webp 2x" → "a.webp"). */
const firstSrcsetCandidate = (srcset: string | undefined) => srcset?.split(',')[0]?.trim().split(/\s+/)[0];

/** The file an element makes the browser load, if any. */
function loadedFile(tag: string, attr: (name: string) => string | undefined): { href: string | undefined; kind: ResourceKind } | undefined {
  if (tag === 'img') return { href: attr('src') || firstSrcsetCandidate(attr('srcset')), kind: 'image' };
  if (tag === 'script') return { href: attr('src'), kind: 'script' };
  const rel = (attr('rel') ?? '').toLowerCase().split(/\s+/);
  if (rel.includes('stylesheet')) return { href: attr('href'), kind: 'style' };
  // A favicon is not a content image: 'other', so image checks (formats, sizes) leave it alone.
  if (rel.includes('icon')) return { href: attr('href'), kind: 'other' };
  if (rel.includes('preload') && attr('as')?.toLowerCase() === 'font') return { href: attr('href'), kind: 'font' };
  return undefined;
}

function distinctBy<T>(items: T[], key: (item: T) => string): T[] {
  const seen = new Set<string>();
  return items.filter((item) => {
    const id = key(item);
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
}

const isDefined = <T>(value: T | undefined): value is T => value !== undefined;

export function discoverReferences(html: string, pageUrl: string): PageReferences {
  const { $ } = parseHtml(html);
  const base = resolveHttpUrl($('base[href]').first().attr('href'), pageUrl) ?? pageUrl;
  const page = resolveHttpUrl(pageUrl, pageUrl);
  const absolute = (href: string | undefined) => resolveHttpUrl(href, base);

  const links = $('a[href], area[href]')
    .toArray()
    .map((el) => {
      const url = absolute($(el).attr('href'));
      const text = ($(el).text().trim() || $(el).attr('aria-label') || $(el).attr('title') || '').replace(/\s+/g, ' ').trim();
      return url && url !== page ? { url, text } : undefined;
    })
    .filter(isDefined);

  const formActions = $('form[action]')
    .toArray()
    .map((el) => absolute($(el).attr('action')))
    .filter((url): url is string => url !== undefined && url !== page);

  const resources = $('img, script[src], link[href]')
    .toArray()
    .map((el) => {
      const node = $(el);
      const loaded = loadedFile(el.tagName, (name) => node.attr(name));
      const url = absolute(loaded?.href);
      return loaded && url ? { url, kind: loaded.kind, inHead: node.parents('head').length > 0 } : undefined;
    })
    .filter(isDefined);

  return {
    links: distinctBy(links, (link) => link.url),
    formActions: distinctBy(formActions, (url) => url),
    resources: distinctBy(resources, (resource) => resource.url),
  };
}
