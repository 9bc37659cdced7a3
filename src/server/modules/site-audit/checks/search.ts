/** Found in search: what Google reads from the home page, robots.txt and the sitemap. */
import type { CheckResult } from '../findings';
import type { FetchedTextFile } from '../snapshot';
import { charCount, cutText, describeStatus, limitLines, plural, quote, tidy } from '../text';
import { header, isSuccess, mediaType, withoutFragment, type AuditContext, type ParsedPage } from './context';
import { fail, pageCheck, pass, perPage, runCategory, skip, warn, type CheckDefinition, type Verdict } from './define';
import { attr, rawText, relTokens, textOf } from './dom';
import { jsonLdOf, type JsonLdNode } from './json-ld';

/** <meta> values by lower-case name or property ("description", "og:title"); the first one wins. */
const metaOf = perPage((page: ParsedPage): Map<string, string> => {
  const values = new Map<string, string>();
  for (const el of page.elements('meta')) {
    const key = (attr(el, 'name') || attr(el, 'property')).trim().toLowerCase();
    if (key && !values.has(key)) values.set(key, attr(el, 'content'));
  }
  return values;
});

/**
 * A text that search results show in full up to `max` characters: missing fails, outside the range warns,
 * and an over-long one is shown the way a result cuts it.
 */
function judgeLength(label: string, value: string | undefined, min: number, max: number): Verdict {
  const text = tidy(value ?? '');
  if (!text) return fail(`No ${label} on the home page`);
  const length = charCount(text);
  const seen = `${label[0]!.toUpperCase()}${label.slice(1)}: ${quote(text)} (${plural(length, 'character')})`;
  if (length > max) return warn(seen, `A search result shows: ${quote(text, max)}`);
  if (length < min) return warn(seen, `Shorter than ${min} characters: it says little about what you offer`);
  return pass(seen);
}

const title = pageCheck({
  id: 'title',
  title: 'Page title',
  why: 'The title is the blue headline of your search result and the name of the browser tab; it is the first thing people read about you on Google.',
  fix: 'Give the home page a title of 10 to 60 characters saying what you do and where, for example "Family Dentist in Leeds | Smile Dental".',
  topic: 'seo',
  judge(ctx) {
    const element = ctx.home.headElements('title')[0] ?? ctx.home.elements('title')[0];
    return judgeLength('title', element ? rawText(element) : undefined, 10, 60);
  },
});

const metaDescription = pageCheck({
  id: 'meta-description',
  title: 'Search result description',
  why: 'The meta description is usually the text under your headline in Google; a good one makes people choose your result.',
  fix: 'Write a description of 50 to 160 characters with what you offer, for whom, and a reason to click ("Same-week appointments, evening hours").',
  topic: 'seo',
  judge: (ctx) => judgeLength('meta description', metaOf(ctx.home).get('description'), 50, 160),
});

const h1 = pageCheck({
  id: 'h1',
  title: 'One main heading',
  why: 'The main heading (H1) tells visitors and Google what the page is about; none leaves them guessing, several blur the message.',
  fix: 'Make the biggest headline on the home page the one H1, saying what you do; turn other H1s into H2 subheadings.',
  topic: 'seo',
  judge(ctx) {
    const headings = ctx.home.elements('h1').map((el) => quote(textOf(el, 400)));
    if (headings.length === 0) return fail('No <h1> heading on the home page');
    if (headings.length === 1) return pass(`H1: ${headings[0]}`);
    return warn(`${headings.length} <h1> headings on the home page:`, ...limitLines(headings));
  },
});

const canonical = pageCheck({
  id: 'canonical',
  title: 'Preferred address (canonical)',
  why: 'The canonical link tells Google which address is the real one when a page can be reached several ways (with or without www, with tracking codes), so its ranking is not split.',
  fix: 'Tell Google which address is the real one for each page (a "canonical" link with the full https address); SEO plugins do it automatically.',
  topic: 'seo',
  judge(ctx) {
    const link = ctx.home.elements('link').find((el) => relTokens(el).includes('canonical'));
    if (!link) return warn('No <link rel="canonical"> on the home page');
    const href = attr(link, 'href').trim();
    const seen = `Canonical: ${quote(href)}`;
    if (!/^https?:\/\//i.test(href)) return warn(seen, 'It is not a full address (https://…), which search engines may misread');
    if (!ctx.sameSite(href)) return warn(seen, 'It points to another site, so Google may show that site instead of yours');
    return pass(seen);
  },
});

const NOINDEX = /\b(noindex|none)\b/i;

const noindex = pageCheck({
  id: 'noindex',
  title: 'Search engines may list the site',
  why: 'A "noindex" instruction keeps the page out of Google entirely; it is often left over from when the site was being built.',
  fix: 'Remove "noindex" from the robots meta tag or the X-Robots-Tag header (in WordPress: untick "Discourage search engines" under Settings → Reading).',
  topic: 'seo',
  judge(ctx) {
    const found: string[] = [];
    const meta = metaOf(ctx.home);
    for (const name of ['robots', 'googlebot']) {
      const content = meta.get(name);
      if (content !== undefined && NOINDEX.test(content)) found.push(`<meta name="${name}" content=${quote(content)}>`);
    }
    const robotsHeader = header(ctx.snapshot.home, 'x-robots-tag');
    if (NOINDEX.test(robotsHeader)) found.push(`X-Robots-Tag: ${quote(robotsHeader)}`);
    if (found.length > 0) return fail('The home page tells search engines not to list it (an accidental noindex?):', ...found);
    const seen = 'No noindex in the robots meta tag or the X-Robots-Tag header';
    // Not a pass that contradicts the robots.txt check: say that search engines are kept out another way.
    if (robotsTxtBlock(ctx.snapshot.robotsTxt)) return pass(seen, `robots.txt keeps search engines from reading the site, though (see “${ROBOTS_TXT_TITLE}”)`);
    return pass(seen);
  },
});

/** robots.txt as "field: value" lines, comments and blank lines left out. */
function robotsLines(text: string): { field: string; value: string }[] {
  const lines: { field: string; value: string }[] = [];
  for (const raw of text.split(/\r\n|\r|\n/)) {
    const hash = raw.indexOf('#');
    const line = (hash === -1 ? raw : raw.slice(0, hash)).trim();
    const colon = line.indexOf(':');
    if (colon > 0) lines.push({ field: line.slice(0, colon).trim().toLowerCase(), value: line.slice(colon + 1).trim() });
  }
  return lines;
}

const ROOT_RULES = new Set(['/', '/*']);

/** The group for every crawler ("User-agent: *") forbids the whole site and does not allow it back. */
function blocksEveryone(text: string): string | undefined {
  let agents: string[] = [];
  let inRules = false;
  let blocking: string | undefined;
  let allowsRoot = false;
  for (const { field, value } of robotsLines(text)) {
    if (field === 'user-agent') {
      // A user-agent line after rules starts a new group.
      if (inRules) agents = [];
      inRules = false;
      agents.push(value);
      continue;
    }
    if (field !== 'allow' && field !== 'disallow') continue;
    inRules = true;
    if (!agents.includes('*') || !ROOT_RULES.has(value)) continue;
    if (field === 'disallow') blocking ??= `User-agent: * / Disallow: ${value}`;
    else allowsRoot = true;
  }
  return allowsRoot ? undefined : blocking;
}

const looksLikeWebPage = (file: FetchedTextFile) => mediaType(file).includes('html') || (file.text ?? '').trimStart().startsWith('<');

/** The rule of a robots.txt that answered as one and forbids every crawler the whole site; undefined otherwise. */
function robotsTxtBlock(file: FetchedTextFile | undefined): string | undefined {
  if (!file || !isSuccess(file) || looksLikeWebPage(file)) return undefined;
  return blocksEveryone(file.text ?? '');
}

const ROBOTS_TXT_TITLE = 'robots.txt lets search engines in';

const robotsTxt = pageCheck({
  id: 'robots-txt',
  title: ROBOTS_TXT_TITLE,
  why: 'robots.txt is the first file search engines read; a missing one is harmless but untidy, and one that blocks everything hides the whole site from Google.',
  fix: 'Publish a robots.txt at the site root with "User-agent: *", an empty "Disallow:" and a "Sitemap:" line pointing to your sitemap.',
  topic: 'seo',
  judge(ctx) {
    const file = ctx.snapshot.robotsTxt;
    if (!file) return skip('robots.txt was not fetched in this audit.');
    if (file.failure || file.status === 0) return warn(`robots.txt did not answer${file.failure ? `: ${cutText(file.failure.message, 100)}` : ''}`);
    if (!isSuccess(file)) return warn(`robots.txt answered ${describeStatus(file.status)}: there is none`);
    if (looksLikeWebPage(file)) return warn('robots.txt answers with a web page instead of a text file, so there is effectively none');
    const blocked = robotsTxtBlock(file);
    if (blocked) {
      return {
        ...fail(`robots.txt blocks every search engine from the whole site: ${blocked}`),
        fix: 'Remove "Disallow: /" from the "User-agent: *" group of robots.txt (often left over from building the site).',
      };
    }
    return pass(`robots.txt answers (${describeStatus(file.status)}) and lets search engines in`);
  },
});

function sitemapEntries(text: string): string | undefined {
  if (/<urlset[\s>]/i.test(text)) return plural(text.match(/<url[\s>]/gi)?.length ?? 0, 'address', 'addresses');
  if (/<sitemapindex[\s>]/i.test(text)) return plural(text.match(/<sitemap[\s>]/gi)?.length ?? 0, 'sitemap');
  return undefined;
}

const sitemap = pageCheck({
  id: 'sitemap',
  title: 'Sitemap for search engines',
  why: 'A sitemap lists all your pages so search engines find new and updated ones quickly, even those few other pages link to.',
  fix: 'Publish /sitemap.xml (most site builders and SEO plugins generate it), name it in robots.txt and submit it in Google Search Console.',
  topic: 'seo',
  judge(ctx) {
    const file = ctx.snapshot.sitemapXml;
    const checked = file ? withoutFragment(file.url) : undefined;
    if (file && isSuccess(file)) {
      const entries = sitemapEntries(file.text ?? '');
      if (entries) return pass(`${cutText(file.url, 100)} lists ${entries}`);
    }
    const named = robotsLines(ctx.snapshot.robotsTxt?.text ?? '').filter((line) => line.field === 'sitemap' && line.value);
    const elsewhere = named.find((line) => withoutFragment(line.value) !== checked);
    if (elsewhere) return pass(`robots.txt names a sitemap at ${quote(elsewhere.value)} (not fetched in this audit)`);
    if (!file) return warn('No sitemap found: none named in robots.txt, and /sitemap.xml was not fetched');
    if (!isSuccess(file)) return warn(`${cutText(file.url, 100)} answered ${file.status ? describeStatus(file.status) : 'nothing'}, and robots.txt names no other sitemap`);
    return warn(`${cutText(file.url, 100)} answers, but not with a sitemap (no <urlset> or <sitemapindex>)`);
  },
});

const lang = pageCheck({
  id: 'lang',
  title: 'Page language is declared',
  why: 'The lang attribute tells Google and screen readers which language the page is in, so it is shown to the right searchers and read aloud correctly.',
  fix: 'Set the site\'s language in its language settings (for your web person: <html lang="en">), so search engines and screen readers read it right.',
  topic: 'seo',
  judge(ctx) {
    const html = ctx.home.elements('html')[0];
    const value = html ? attr(html, 'lang').trim() : '';
    return value ? pass(`<html lang=${quote(value, 40)}>`) : warn('The <html> tag has no lang attribute');
  },
});

const imageAlt = pageCheck({
  id: 'image-alt',
  title: 'Pictures have descriptions (alt text)',
  why: 'Alt text describes a picture to blind visitors and to Google Images, and shows when the picture fails to load.',
  fix: 'Describe each meaningful picture in its alt text ("Dr. Patel with a patient"); give purely decorative ones an empty alt="".',
  topic: 'seo',
  judge(ctx) {
    const images = ctx.home.elements('img');
    if (images.length === 0) return skip('The home page has no <img> pictures');
    const missing = images.filter((el) => !('alt' in el.attribs));
    const described = images.length - missing.length;
    const share = described / images.length;
    const evidence = [`${described} of ${plural(images.length, 'image')} have alt text`];
    if (missing.length > 0) evidence.push('Without alt:', ...limitLines(missing.map((el) => quote(attr(el, 'src') || attr(el, 'data-src') || '(no src)', 100)), 5));
    if (share >= 0.9) return pass(...evidence);
    return share >= 0.5 ? warn(...evidence) : fail(...evidence);
  },
});

/** The listed <meta> keys: which are there (quoted) and which are missing. */
function metaPresence(page: ParsedPage, keys: readonly string[]): { seen: string[]; missing: string[] } {
  const meta = metaOf(page);
  const seen: string[] = [];
  const missing: string[] = [];
  for (const key of keys) {
    const value = meta.get(key)?.trim();
    if (value) seen.push(`${key}: ${quote(value)}`);
    else missing.push(key);
  }
  return { seen, missing };
}

const openGraph = pageCheck({
  id: 'open-graph',
  title: 'Link previews on social media',
  why: 'When someone shares your site on Facebook, LinkedIn or WhatsApp, the Open Graph tags decide the picture, headline and text of the preview.',
  fix: 'Add og:title, og:description and og:image (a 1200×630 picture) to the home page; SEO plugins have fields for them.',
  topic: 'seo',
  judge(ctx) {
    const { seen, missing } = metaPresence(ctx.home, ['og:title', 'og:description', 'og:image']);
    if (missing.length === 0) return pass(...seen);
    return warn(...seen, `Missing: ${missing.join(', ')}`);
  },
});

const twitterCard = pageCheck({
  id: 'twitter-card',
  title: 'Link previews on X (Twitter)',
  why: 'The twitter:card tag asks X to show a large picture preview instead of a bare link when your site is shared.',
  fix: 'Turn on large link previews for X (Twitter) in your SEO plugin (for your web person: <meta name="twitter:card" content="summary_large_image">).',
  topic: 'seo',
  judge(ctx) {
    const { seen } = metaPresence(ctx.home, ['twitter:card']);
    return seen.length > 0 ? pass(...seen) : warn('No twitter:card meta tag');
  },
});

const BUSINESS_TYPES = new Set(['Organization', 'LocalBusiness', 'Corporation', 'NGO', 'Dentist', 'Physician', 'Hospital', 'Pharmacy', 'Optician', 'Physiotherapy', 'Attorney', 'Notary', 'Restaurant', 'Bakery', 'CafeOrCoffeeShop', 'BarOrPub', 'DaySpa', 'HealthClub', 'ExerciseGym', 'Plumber', 'Electrician', 'Locksmith', 'HousePainter', 'RoofingContractor', 'MovingCompany', 'AutoRepair', 'ChildCare', 'Hotel', 'School']);
/** Subtypes by their ending: HealthAndBeautyBusiness, ClothingStore, ProfessionalService, MedicalClinic … */
const BUSINESS_TYPE_ENDING = /.(Business|Store|Organization|Clinic|Service|Contractor|Agency|Salon)$/;

const isBusiness = (item: JsonLdNode) => item.types.some((type) => BUSINESS_TYPES.has(type) || BUSINESS_TYPE_ENDING.test(type));

const BUSINESS_FIELDS = ['name', 'address', 'telephone'] as const;

function missingFields(node: Record<string, unknown>): string[] {
  return BUSINESS_FIELDS.filter((field) => {
    const value = node[field];
    if (typeof value === 'string') return value.trim() === '';
    return value === undefined || value === null || (typeof value === 'object' && Object.keys(value).length === 0);
  });
}

const structuredData = pageCheck({
  id: 'structured-data',
  title: 'Business details for Google (structured data)',
  why: 'Structured data (JSON-LD) hands Google your business name, address and phone in a form it can trust, for the map pack and rich results.',
  fix: 'Add a LocalBusiness (or a more specific type such as Dentist) JSON-LD block with your name, address, telephone and opening hours; SEO plugins can generate it.',
  topic: 'seo',
  judge(ctx) {
    const { blocks, errors, nodes } = jsonLdOf(ctx.home);
    const found: string[] = [];
    const businesses = nodes.filter(isBusiness).map((item) => ({ item, missing: missingFields(item.node) }));
    businesses.sort((a, b) => a.missing.length - b.missing.length);
    const best = businesses[0];
    if (best) {
      const name = typeof best.item.node.name === 'string' ? ` ${quote(best.item.node.name, 80)}` : '';
      found.push(`${cutText(best.item.types.join('/'), 60)}${name}${best.missing.length === 0 ? ' with name, address and telephone' : ` without ${best.missing.join(', ')}`}`);
    }
    if (errors.length > 0) {
      return { ...fail(`Not valid JSON, so Google ignores them: ${errors.length} of ${plural(blocks, 'JSON-LD block')} on the home page`, ...limitLines(errors), ...found), fix: 'Fix the listed JSON-LD blocks (a stray comma or quote is typical): paste them into validator.schema.org to see the exact spot.' };
    }
    if (!best) return warn(blocks === 0 ? 'No JSON-LD structured data on the home page' : `${plural(blocks, 'JSON-LD block')}, but no Organization or LocalBusiness among them`);
    return best.missing.length === 0 ? pass(...found) : warn(...found);
  },
});

const favicon = pageCheck({
  id: 'favicon',
  title: 'Site icon (favicon)',
  why: 'The small icon shows in browser tabs, bookmarks and next to your site in Google\'s mobile results; without it the site looks unfinished.',
  fix: 'Upload a square icon (your logo mark) in the site builder\'s "site icon" setting, so your tab and bookmarks are recognisable.',
  topic: 'seo',
  judge(ctx) {
    const link = ctx.home.elements('link').find((el) => relTokens(el).includes('icon'));
    if (link) {
      const seen = `<link rel=${quote(attr(link, 'rel'), 40)} href=${quote(attr(link, 'href'), 100)}>`;
      // The icon the tag names was fetched with the page's files: an error there means no icon at all.
      const url = ctx.absoluteUrl(attr(link, 'href'), ctx.home.url);
      const fetched = url === undefined ? undefined : ctx.snapshot.resources.find((resource) => withoutFragment(resource.url) === withoutFragment(url));
      if (fetched && !fetched.failure && fetched.status >= 400) return warn(seen, `The icon answers ${describeStatus(fetched.status)}, so browsers show none`);
      return pass(seen);
    }
    const fetched = ctx.snapshot.resources.find((resource) => isSuccess(resource) && /^https?:\/\/[^/?#]+\/favicon\.ico(?:[?#]|$)/i.test(resource.url));
    if (fetched) return pass(`${cutText(fetched.url, 100)} answers (no <link rel="icon">; browsers look there by default)`);
    return warn('No <link rel="icon"> on the home page and no /favicon.ico fetched');
  },
});

export const SEARCH_CHECKS: readonly CheckDefinition[] = [
  title,
  metaDescription,
  h1,
  canonical,
  noindex,
  robotsTxt,
  sitemap,
  lang,
  imageAlt,
  openGraph,
  twitterCard,
  structuredData,
  favicon,
];

export function searchChecks(ctx: AuditContext): CheckResult[] {
  return runCategory('search', SEARCH_CHECKS, ctx);
}
