/**
 * The rules a page's <head> title and description follow (seed section 5: titles cut to 60, descriptions
 * to 160), shared by the server that renders the head and the admin's search-result preview, so the
 * preview is exactly what the head will carry. Also the admin's SEO entry: one schema for form and Action.
 */
import { SEO_DESCRIPTION_MAX, SEO_TITLE_MAX } from './constants';
import { imageUrl, text } from './schemas/fields';
import { z } from './zod';

/** Cut to `max` characters; when longer, the first `max - 3` plus "..." (seed: 60 → 57 + "..."). */
function cutForSnippet(text: string, max: number): string {
  const clean = text.replace(/\s+/g, ' ').trim();
  const chars = Array.from(clean);
  return chars.length > max ? `${chars.slice(0, max - 3).join('')}...` : clean;
}

export const cutSeoTitle = (title: string) => cutForSnippet(title, SEO_TITLE_MAX);
export const cutSeoDescription = (description: string) => cutForSnippet(description, SEO_DESCRIPTION_MAX);

/** The trimmed text, or undefined when there is none (an empty stored field means "not set"). */
export const nonEmpty = (v: string | null | undefined) => (v && v.trim() ? v.trim() : undefined);

/** The separators a title puts before a name ("Services | Autoflow", "Services – Autoflow", "Services: Autoflow"). */
const NAME_SEPARATOR = /[|:·•—–-]$/;

/** Words a name may start with that its short form leaves out ("The Autoflow Agency" → "Autoflow"). */
const LEADING_ARTICLES = new Set(['the', 'a', 'an']);

const normal = (s: string) => s.toLowerCase().replace(/\s+/g, ' ').trim();
const letterCount = (s: string) => s.replace(/[^\p{L}\p{N}]/gu, '').length;

/**
 * The forms of a site name a title may end with, lower case: the name, and each run of its leading words
 * (after a leading "The") of at least four letters: "Autoflow Agency Ltd." → "autoflow agency ltd.",
 * "autoflow", "autoflow agency". The obvious short forms an owner writes after titles.
 */
export function siteNameForms(siteName: string): string[] {
  const parts = normal(siteName).split(' ').filter(Boolean);
  const forms = new Set<string>(parts.length ? [parts.join(' ')] : []);
  const starts = parts.length > 1 && LEADING_ARTICLES.has(parts[0]!) ? [0, 1] : [0];
  for (const start of starts) {
    for (let end = start + 1; end <= parts.length; end++) {
      const form = parts.slice(start, end).join(' ');
      if (letterCount(form) >= 4) forms.add(form);
    }
  }
  return [...forms];
}

/**
 * Whether a title already names the site: it contains one of the names whole, is one of their forms
 * ("Autoflow"), or ends with a form after a separator ("Automation services | Autoflow").
 */
export function titleNamesSite(title: string, siteNames: readonly string[]): boolean {
  const t = normal(title);
  if (!t) return false;
  return siteNames.some((name) => {
    const full = normal(name);
    if (!full) return false;
    if (t.includes(full)) return true;
    return siteNameForms(name).some((form) => {
      if (t === form) return true;
      if (!t.endsWith(form)) return false;
      const before = t.slice(0, t.length - form.length);
      // "… | Autoflow", "…: Autoflow": a separator, not a longer word ending the same way ("Megautoflow").
      return NAME_SEPARATOR.test(before.trimEnd());
    });
  });
}

/**
 * Whether the site name follows a page's title when its SEO entry leaves the choice to the title (stored
 * null): not on the home page (its own title starts with the site name) and not after a title that
 * already names the site; on everywhere else.
 */
export function siteNameFollowsByDefault(title: string, siteNames: readonly string[], path: string): boolean {
  return path !== '/' && !titleNamesSite(title, siteNames);
}

/**
 * The <title> before the cut: "{title} | {siteName}" when the site name follows, the title alone when it
 * does not. `follows` is the page's stored choice; null or undefined leaves it to the title
 * (siteNameFollowsByDefault, which also knows the title by `alsoNamed`, e.g. the site texts' own name when
 * the site defaults write another one after titles).
 */
export function fullTitle(title: string, siteName: string, path: string, follows?: boolean | null, alsoNamed: readonly string[] = []): string {
  const t = title.trim();
  if (!t) return siteName;
  const add = follows ?? siteNameFollowsByDefault(t, [siteName, ...alsoNamed], path);
  return add ? `${t} | ${siteName}` : t;
}

/** An absolute http(s) URL on our origin or elsewhere; anything else (javascript:, data:, junk) is dropped. */
export function absoluteUrl(siteUrl: string, value: string | undefined): string | undefined {
  const v = value?.trim();
  if (!v) return undefined;
  try {
    const url = new URL(v, `${siteUrl}/`);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

export function canonicalUrl(siteUrl: string, path: string): string {
  return `${siteUrl}${canonicalPath(path)}`;
}

/** The page's canonical address: the stored URL when it is a usable one, else the site URL and the path. */
export function canonicalFor(siteUrl: string, path: string, storedUrl: string | null | undefined): string {
  return absoluteUrl(siteUrl, nonEmpty(storedUrl)) ?? canonicalUrl(siteUrl, path);
}

/** The key stored metadata is saved under: the path without query, fragment or trailing slash. */
export function canonicalPath(path: string): string {
  const clean = path.split(/[?#]/)[0] || '/';
  return clean === '/' ? '/' : clean.replace(/\/+$/, '') || '/';
}

export interface HeadTextSources {
  /** The page's path ("/services"). */
  path: string;
  /** What an admin stored for the path (`siteNameAfterTitle` null: the title decides). */
  stored?: { title?: string | null; description?: string | null; siteNameAfterTitle?: boolean | null } | undefined;
  /** What the page says about itself. */
  own: { title: string; description?: string | undefined };
  /** The site defaults entry: its title is the name written after page titles. */
  defaults?: { title?: string | null; description?: string | null } | undefined;
  site: { siteName: string; tagline: string };
}

export interface HeadTexts {
  /** The <title>, cut. */
  title: string;
  /** The meta description, cut. */
  description: string;
  /** The page's title before the site name and the cut (structured data carries it). */
  pageTitle: string;
  /** The title as rendered before the cut ("{title} | {site}" or the title alone): what the 60-character counter counts. */
  uncutTitle: string;
  /** Whether the site name follows the page's title in it. */
  siteNameFollows: boolean;
  /** The name written after titles (the site defaults' title, else the site name). */
  siteNameInTitles: string;
  uncutDescription: string;
}

/**
 * Title and description as the head renders them. Each field: the stored value, else the page's own,
 * else (description) the site default, else the tagline. The site name follows the title when the page's
 * entry says so, or, when it leaves it to the title, unless the title already names the site.
 */
export function headTexts({ path, stored, own, defaults, site }: HeadTextSources): HeadTexts {
  const pageTitle = nonEmpty(stored?.title) ?? own.title;
  const description = nonEmpty(stored?.description) ?? nonEmpty(own.description) ?? nonEmpty(defaults?.description) ?? site.tagline;
  const siteNameInTitles = nonEmpty(defaults?.title) ?? site.siteName;
  const siteNameFollows = stored?.siteNameAfterTitle ?? siteNameFollowsByDefault(pageTitle, [siteNameInTitles, site.siteName], path);
  const uncutTitle = fullTitle(pageTitle, siteNameInTitles, path, siteNameFollows);
  return {
    title: cutSeoTitle(uncutTitle),
    description: cutSeoDescription(description),
    pageTitle,
    uncutTitle,
    uncutDescription: description,
    siteNameFollows,
    siteNameInTitles,
  };
}

// ---------------------------------------------------------------------------------------------------------
// The SEO entry an admin edits (seed section 3: title, description, keywords, image, url, type, author,
// publishedTime, modifiedTime). Stored longer than the cuts: the head cuts, the admin sees where.

export const SEO_LIMITS = { title: 200, description: 1000, keywords: 500, author: 120, url: 2048 } as const;

export const SEO_TYPES = ['website', 'article'] as const;
export type SeoType = (typeof SEO_TYPES)[number];

/** The canonical URL override: empty (the page's own address), a site path, or an http(s) URL. */
export const seoUrl = z
  .string()
  .max(SEO_LIMITS.url)
  .refine((u) => u === '' || /^(https?:\/\/[^\s/]+[^\s]*|\/[^\s]*)$/i.test(u), 'must be empty, a site path or an http(s) URL');

const isoInstant = z.iso.datetime({ offset: true });

/** A date-time as the form sends it: an ISO 8601 instant with its zone, or empty for none. */
const instantOrEmpty = z
  .string()
  .max(40)
  .refine((v) => v === '' || isoInstant.safeParse(v).success, 'must be a date and time, or empty');

export const seoEntrySchema = z.strictObject({
  title: text(SEO_LIMITS.title),
  description: text(SEO_LIMITS.description),
  keywords: text(SEO_LIMITS.keywords),
  image: imageUrl,
  url: seoUrl,
  type: z.enum(SEO_TYPES, { error: 'must be “website” or “article”' }),
  author: text(SEO_LIMITS.author),
  publishedTime: instantOrEmpty,
  modifiedTime: instantOrEmpty,
  /** Whether the site name follows the title; null: the title decides (siteNameFollowsByDefault). */
  siteNameAfterTitle: z.boolean({ error: 'must be on, off or left to the title' }).nullable().default(null),
});

export type SeoEntry = z.infer<typeof seoEntrySchema>;

export const EMPTY_SEO_ENTRY: SeoEntry = {
  title: '',
  description: '',
  keywords: '',
  image: '',
  url: '',
  type: 'website',
  author: '',
  publishedTime: '',
  modifiedTime: '',
  siteNameAfterTitle: null,
};
