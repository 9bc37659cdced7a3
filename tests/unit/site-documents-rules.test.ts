/**
 * The pure rules behind the site-wide documents' editors: the landing layout an admin edits and its
 * stored form, the preview's ?layout= value, the SEO entry schema and the head texts the /admin/seo
 * preview shows, and the character limits read from the schemas.
 */
import { describe, expect, it } from 'vitest';
import {
  blocksFromLayoutParam,
  configFromLayout,
  DEFAULT_LANDING_LAYOUT,
  LANDING_BLOCKS,
  landingLayoutSchema,
  layoutFromConfig,
  layoutParam,
  visibleBlocks,
} from '../../src/shared/landing';
import { ownSeoOf, SEO_DEFAULTS_PATH } from '../../src/shared/page-seo';
import { EMPTY_SEO_ENTRY, headTexts, seoEntrySchema } from '../../src/shared/seo';
import { documentFieldErrors, maxLengthAt } from '../../src/shared/site-documents';
import { COPYRIGHT_YEAR } from '../../src/shared/constants';
import { copyrightYearSchema, resolveSiteContent, siteContentSchema } from '../../src/shared/site-content';

describe('landing layout', () => {
  it('opens a stored config with unknown names dropped and the blocks it leaves out listed last, hidden', () => {
    const layout = layoutFromConfig({ blockOrder: ['cta', 'bogus', 'hero'], hidden: ['hero', 'nope'] });
    expect(layout.order).toEqual(['cta', 'hero', ...LANDING_BLOCKS.filter((b) => b !== 'cta' && b !== 'hero')]);
    expect(layout.hidden).toEqual(LANDING_BLOCKS.filter((b) => b !== 'cta'));
    expect(visibleBlocks(layout)).toEqual(['cta']);
  });

  it('opens nothing stored as the default layout, and stores a layout in the seed config shape', () => {
    expect(layoutFromConfig(undefined)).toEqual(DEFAULT_LANDING_LAYOUT);
    const layout = { order: [...LANDING_BLOCKS].reverse(), hidden: ['faqs', 'hero'] as const };
    expect(configFromLayout({ order: layout.order, hidden: [...layout.hidden] })).toEqual({ blockOrder: layout.order, hidden: ['hero', 'faqs'] });
  });

  it('accepts every block once, in any order; refuses a missing, repeated or unknown block', () => {
    expect(landingLayoutSchema.safeParse({ order: [...LANDING_BLOCKS].reverse(), hidden: ['cta'] }).success).toBe(true);
    expect(landingLayoutSchema.safeParse({ order: LANDING_BLOCKS.slice(1), hidden: [] }).success).toBe(false);
    expect(landingLayoutSchema.safeParse({ order: [...LANDING_BLOCKS.slice(1), 'cta'], hidden: [] }).success).toBe(false);
    expect(landingLayoutSchema.safeParse({ order: [...LANDING_BLOCKS.slice(1), 'popup'], hidden: [] }).success).toBe(false);
    expect(landingLayoutSchema.safeParse({ order: [...LANDING_BLOCKS], hidden: ['cta', 'cta'] }).success).toBe(false);
  });

  it('the preview value round-trips the visible blocks; unknown names are skipped, empty shows none', () => {
    expect(blocksFromLayoutParam(layoutParam(['faqs', 'hero']))).toEqual(['faqs', 'hero']);
    expect(blocksFromLayoutParam('hero,<script>,cta')).toEqual(['hero', 'cta']);
    expect(blocksFromLayoutParam('')).toEqual([]);
  });
});

describe('SEO entry and head texts', () => {
  const site = resolveSiteContent(undefined);

  it('takes the seed fields; refuses a javascript: URL, an unknown type and a date that is not one', () => {
    expect(seoEntrySchema.safeParse({ ...EMPTY_SEO_ENTRY, url: '/services', publishedTime: '2025-03-14T09:30:00.000Z' }).success).toBe(true);
    const bad = seoEntrySchema.safeParse({ ...EMPTY_SEO_ENTRY, url: 'javascript:alert(1)', type: 'video', publishedTime: 'yesterday' });
    expect(bad.success).toBe(false);
    expect(Object.keys(documentFieldErrors(bad.error!.issues)).sort()).toEqual(['publishedTime', 'type', 'url']);
  });

  it('is what the head carries: stored over own, the defaults title after page titles, cut to 60/160', () => {
    const own = ownSeoOf('/services', site)!;
    expect(headTexts({ path: '/services', own, site }).title).toBe(`Services | ${site.siteName}`);
    const texts = headTexts({ path: '/services', stored: { title: 'x'.repeat(70), description: 'y'.repeat(170) }, own, defaults: { title: 'Acme' }, site });
    expect(texts.uncutTitle).toBe(`${'x'.repeat(70)} | Acme`);
    expect(texts.title).toBe(`${'x'.repeat(57)}...`);
    expect(texts.description).toBe(`${'y'.repeat(157)}...`);
  });

  it('falls back for the description: own, then the site defaults, then the tagline', () => {
    const own = { title: 'T', description: '' };
    expect(headTexts({ path: '/x', own, defaults: { description: 'Default words' }, site }).description).toBe('Default words');
    expect(headTexts({ path: '/x', own, site }).description).toBe(site.tagline);
  });

  it('knows each edited page’s own texts; the site defaults are no page', () => {
    expect(ownSeoOf('/privacy', site)?.title).toBe('Privacy Policy');
    expect(ownSeoOf('/', site)?.description).toBe(site.hero.subheadline);
    expect(ownSeoOf(SEO_DEFAULTS_PATH, site)).toBeUndefined();
  });
});

describe('site texts limits and messages', () => {
  it('reads a field’s limit from the schema, through defaults and arrays', () => {
    expect(maxLengthAt(siteContentSchema, ['hero', 'headline'])).toBe(120);
    expect(maxLengthAt(siteContentSchema, ['testimonials', 2, 'quote'])).toBe(600);
    expect(maxLengthAt(siteContentSchema, ['business', 'latitude'])).toBeUndefined();
  });

  it('says which coordinate is out of range, by path, as a sentence', () => {
    const parsed = siteContentSchema.safeParse({ business: { legalName: 'Acme Ltd', latitude: 91, longitude: -181 } });
    expect(parsed.success).toBe(false);
    const errors = documentFieldErrors(parsed.error!.issues);
    expect(errors['business.latitude']).toMatch(/^[A-Z].*90/);
    expect(errors['business.longitude']).toMatch(/^[A-Z].*-180/);
  });
});

describe('the footer’s copyright year', () => {
  const nextYear = new Date().getUTCFullYear() + 1;
  const yearError = (copyrightYear: unknown) => {
    const parsed = siteContentSchema.safeParse({ footer: { copyrightYear } });
    return parsed.success ? undefined : documentFieldErrors(parsed.error.issues)['footer.copyrightYear'];
  };

  it('is the seed’s 2025 until the owner sets another, and a stored one is kept', () => {
    expect(COPYRIGHT_YEAR).toBe(2025);
    expect(resolveSiteContent(undefined).footer.copyrightYear).toBe(2025);
    expect(resolveSiteContent({ footer: { contactEmail: 'a@b.example' } }).footer.copyrightYear).toBe(2025);
    expect(resolveSiteContent({ footer: { copyrightYear: 2019 } }).footer.copyrightYear).toBe(2019);
  });

  it('takes a four-digit year from 1900 to next year', () => {
    for (const year of [1900, 2019, nextYear]) expect(yearError(year), String(year)).toBeUndefined();
  });

  it('refuses anything else with one clear message beside the field', () => {
    const message = `Must be a four-digit year from 1900 to ${nextYear}, such as 2025`;
    for (const year of [1899, nextYear + 1, 25, 20255, 2025.5, '2025', '', null, Number.NaN]) expect(yearError(year), String(year)).toBe(message);
  });

  it('moves its upper bound on with the calendar', () => {
    expect(copyrightYearSchema(new Date('2030-12-31T23:59:59Z')).safeParse(2031).success).toBe(true);
    expect(copyrightYearSchema(new Date('2030-12-31T23:59:59Z')).safeParse(2032).success).toBe(false);
  });
});
