/**
 * The page title's composition (shared/seo.ts): whether the site name follows a page's title, by the
 * page's stored choice or, left to the title, unless the title already names the site ("… | Autoflow").
 */
import { describe, expect, it } from 'vitest';
import { mergePageSeo } from '../../src/server/modules/seo/service';
import { EMPTY_SEO_ENTRY, fullTitle, headTexts, seoEntrySchema, siteNameFollowsByDefault, siteNameForms, titleNamesSite } from '../../src/shared/seo';
import { resolveSiteContent } from '../../src/shared/site-content';

const NAME = 'Autoflow Agency';
const site = resolveSiteContent({ siteName: NAME, tagline: 'AI automation for clinics' });

describe('whether a title already names the site', () => {
  it('knows the name and its leading-word short forms of four letters or more', () => {
    expect(siteNameForms('Autoflow Agency')).toEqual(['autoflow agency', 'autoflow']);
    expect(siteNameForms('Autoflow Agency Ltd.')).toEqual(['autoflow agency ltd.', 'autoflow', 'autoflow agency']);
    expect(siteNameForms('The Autoflow Agency')).toEqual(['the autoflow agency', 'the autoflow', 'autoflow', 'autoflow agency']);
    expect(siteNameForms('AB Consulting')).toEqual(['ab consulting']);
  });

  it('a title ending with a short form after a separator, the whole name anywhere, or a form alone names it', () => {
    for (const title of ['Services | Autoflow', 'Services | autoflow ', 'Services – Autoflow', 'Services: Autoflow', 'Services|Autoflow', 'Pricing · Autoflow Agency', 'About Autoflow Agency', 'Autoflow']) {
      expect(titleNamesSite(title, [NAME]), title).toBe(true);
    }
  });

  it('a title merely ending with the same letters, or naming something else, does not', () => {
    for (const title of ['Services', 'Services | Megautoflow', 'Workflow automation | Auto', 'Autoflow pricing', 'Services by Autoflow', '']) {
      expect(titleNamesSite(title, [NAME]), title).toBe(false);
    }
  });

  it('left to the title, the name follows on every page but the home page and titles that name the site', () => {
    expect(siteNameFollowsByDefault('Services', [NAME], '/services')).toBe(true);
    expect(siteNameFollowsByDefault('Services | Autoflow', [NAME], '/services')).toBe(false);
    expect(siteNameFollowsByDefault('Clinic automation', [NAME], '/')).toBe(false);
  });
});

describe('the composed title', () => {
  it('the stored choice wins both ways; null leaves it to the title', () => {
    expect(fullTitle('Services | Autoflow', NAME, '/services')).toBe('Services | Autoflow');
    expect(fullTitle('Services | Autoflow', NAME, '/services', null)).toBe('Services | Autoflow');
    expect(fullTitle('Services | Autoflow', NAME, '/services', true)).toBe('Services | Autoflow | Autoflow Agency');
    expect(fullTitle('Services', NAME, '/services', false)).toBe('Services');
    expect(fullTitle('Services', NAME, '/services')).toBe('Services | Autoflow Agency');
    expect(fullTitle('Clinic automation', NAME, '/', true)).toBe('Clinic automation | Autoflow Agency');
  });

  it('the head (and the admin preview, the same function) carries the title exactly as typed when the name does not follow', () => {
    const own = { title: 'Services', description: 'Own' };
    const typed = 'Automation services for clinics and coaches | Autoflow';
    expect(typed.length).toBeLessThanOrEqual(60);
    const left = headTexts({ path: '/services', stored: { title: typed, siteNameAfterTitle: null }, own, site });
    expect(left).toMatchObject({ title: typed, uncutTitle: typed, siteNameFollows: false });
    const off = headTexts({ path: '/services', stored: { title: typed, siteNameAfterTitle: false }, own, site });
    expect(off.title).toBe(typed);
    // Chosen on: the name is added again, and the counter counts (and the cut cuts) what is really shown.
    const on = headTexts({ path: '/services', stored: { title: typed, siteNameAfterTitle: true }, own, site });
    expect(on.uncutTitle).toBe(`${typed} | ${NAME}`);
    expect(on.title).toBe(`${`${typed} | ${NAME}`.slice(0, 57)}...`);
    expect(on.siteNameFollows).toBe(true);
  });

  it('the site defaults’ name after titles and the site name both count as naming the site', () => {
    const own = { title: 'Demos', description: '' };
    expect(headTexts({ path: '/demos', stored: { title: 'Demos | Autoflow Agency' }, own, defaults: { title: 'Autoflow' }, site }).uncutTitle).toBe('Demos | Autoflow Agency');
    expect(headTexts({ path: '/demos', own, defaults: { title: 'Autoflow' }, site }).uncutTitle).toBe('Demos | Autoflow');
  });

  it('the server rule (mergePageSeo) renders the stored choice', () => {
    const stored = { ...EMPTY_SEO_ENTRY, publishedTime: null, modifiedTime: null, title: 'Our services | Autoflow' };
    const props = { title: 'Services', description: 'd', path: '/services' };
    expect(mergePageSeo(props, { ...stored, siteNameAfterTitle: null }, site, 'https://agency.example').title).toBe('Our services | Autoflow');
    expect(mergePageSeo(props, { ...stored, siteNameAfterTitle: true }, site, 'https://agency.example').title).toBe('Our services | Autoflow | Autoflow Agency');
    expect(mergePageSeo(props, { ...stored, title: '', siteNameAfterTitle: false }, site, 'https://agency.example').title).toBe('Services');
  });

  it('the entry takes on, off or null (missing: null, as in drafts saved before the choice existed)', () => {
    expect(seoEntrySchema.parse({ ...EMPTY_SEO_ENTRY, siteNameAfterTitle: false }).siteNameAfterTitle).toBe(false);
    const { siteNameAfterTitle: _left, ...older } = EMPTY_SEO_ENTRY;
    expect(seoEntrySchema.parse(older).siteNameAfterTitle).toBeNull();
    expect(seoEntrySchema.safeParse({ ...EMPTY_SEO_ENTRY, siteNameAfterTitle: 'yes' }).success).toBe(false);
  });
});
