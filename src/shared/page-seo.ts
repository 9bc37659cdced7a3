/**
 * What each public page says about itself in its <head> (title, description) when an admin stored nothing
 * for it, and the pages /admin/seo edits. One definition: the pages render these values, and the admin's
 * search-result preview falls back to the same ones, so the preview shows what the head will carry.
 */
import { SEO_TITLE_MAX } from './constants';
import { POLICY_TITLES, type PolicyKind } from './policies';

interface SiteNames {
  siteName: string;
  tagline: string;
  hero: { headline: string; subheadline: string; rotatingPhrases: readonly string[] };
}

export interface OwnSeo {
  title: string;
  description: string;
}

/** The list pages' own texts (the description is also the lead under each page's heading). */
export const LIST_PAGE_SEO = {
  '/services': {
    title: 'Services',
    description:
      'AI automations for lead outreach, nurturing, appointment reminders and lead-capture funnels — built and run for clinics, coaches and small businesses.',
  },
  '/packages': {
    title: 'Packages',
    description:
      'Ready-made automation packages with setup and a monthly plan: everything you need to answer, follow up and book more clients.',
  },
  '/demos': {
    title: 'Demo builds',
    description: 'Working demo builds of our automations: see how enquiries are answered, followed up and booked before you commit.',
  },
  '/articles': {
    title: 'Articles',
    description: 'Practical guides on answering leads faster, following up without chasing, and filling your calendar.',
  },
  '/free-audit': {
    title: 'Free online presence audit',
    description:
      'Tell us about your business and get a free review of your website, listings and follow-up, with what to fix first. No obligation.',
  },
} as const satisfies Record<string, OwnSeo>;

/**
 * The landing page's <title>: the site name with its tagline when that fits the 60-character SEO cut,
 * else with the hero's first sentence, else the name alone — a title is never shown cut mid-word.
 */
export function landingTitle(site: Pick<SiteNames, 'siteName' | 'tagline'> & { hero: Pick<SiteNames['hero'], 'headline' | 'rotatingPhrases'> }): string {
  const candidates = [
    site.tagline && `${site.siteName} | ${site.tagline}`,
    `${site.siteName} | ${site.hero.headline} ${site.hero.rotatingPhrases[0] ?? ''}`.trim(),
  ];
  return candidates.find((t) => t && Array.from(t).length <= SEO_TITLE_MAX) || site.siteName;
}

export function landingSeo(site: SiteNames): OwnSeo {
  return { title: landingTitle(site), description: site.hero.subheadline || site.tagline };
}

export function policyPageSeo(kind: PolicyKind, siteName: string): OwnSeo {
  return {
    title: POLICY_TITLES[kind],
    description:
      kind === 'privacy'
        ? `How ${siteName} collects, uses and protects your personal information, and the rights you have.`
        : `The terms that apply when you use the ${siteName} website and member account.`,
  };
}

/**
 * Stored under this path in seo_pages, the site-wide defaults: what every page gets where neither its
 * stored metadata nor the page itself says anything (keywords, social image, author, a description), and
 * the name written after each page's title. `*` is never a page's path.
 */
export const SEO_DEFAULTS_PATH = '/*';

export interface SeoEditablePage {
  path: string;
  label: string;
  /** Where the page is, or what the entry does. */
  note: string;
}

/** What /admin/seo edits: the public pages that are not a record's own page, and the site defaults. */
export const SEO_EDITABLE_PAGES: readonly SeoEditablePage[] = [
  { path: '/', label: 'Home', note: 'The landing page.' },
  { path: '/services', label: 'Services', note: 'All services.' },
  { path: '/packages', label: 'Packages', note: 'All active packages.' },
  { path: '/demos', label: 'Demos', note: 'All demo builds.' },
  { path: '/articles', label: 'Articles', note: 'The article list, every tag and page of it.' },
  { path: '/free-audit', label: 'Free audit', note: 'The free audit request form.' },
  { path: '/privacy', label: 'Privacy Policy', note: 'The privacy policy.' },
  { path: '/terms', label: 'Terms of Service', note: 'The terms of service.' },
  { path: SEO_DEFAULTS_PATH, label: 'Site defaults', note: 'Used by every page where the page and its own entry say nothing.' },
];

export const isSeoEditablePath = (path: string) => SEO_EDITABLE_PAGES.some((p) => p.path === path);

/** The page's own title and description; undefined for the site defaults (not a page). */
export function ownSeoOf(path: string, site: SiteNames): OwnSeo | undefined {
  if (path === '/') return landingSeo(site);
  if (path === '/privacy' || path === '/terms') return policyPageSeo(path.slice(1) as PolicyKind, site.siteName);
  return (LIST_PAGE_SEO as Record<string, OwnSeo>)[path];
}
