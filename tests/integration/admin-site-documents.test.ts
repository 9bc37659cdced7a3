/**
 * Admin writes to the site-wide documents (src/server/modules/site-admin): the site texts, the landing
 * page layout and the SEO entries. Each write is the acting admin's, validated by the shared schema with
 * messages by field path, refused when based on an older version, recorded with before/after, reversible
 * (revertDocumentChange), and through the Actions it drops exactly the cached pages that show it.
 */
import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { invalidateMemos } from '../../src/server/cache/memo';
import { activityLog, appConfig, seoPages } from '../../src/server/db/schema';
import { readSession } from '../../src/server/guards/session';
import { resolvePageSeo } from '../../src/server/modules/seo/service';
import { getLandingBlocks, getSiteContent } from '../../src/server/modules/site/service';
import {
  landingLayoutForEditor,
  revertDocumentChange,
  saveLandingLayout,
  saveSeoEntry,
  saveSiteContent,
  seoEntriesForEditor,
  siteContentForEditor,
} from '../../src/server/modules/site-admin/service';
import { LANDING_BLOCKS } from '../../src/shared/landing';
import { EMPTY_SEO_ENTRY } from '../../src/shared/seo';
import { siteContentSchema } from '../../src/shared/site-content';
import { createAuthHarness, type AuthHarness, type Browser } from '../support/auth';

vi.mock('astro:actions', async () => {
  const server = await import('../../node_modules/astro/dist/actions/runtime/server.js');
  const client = await import('../../node_modules/astro/dist/actions/runtime/client.js');
  return { defineAction: server.defineAction, ActionError: client.ActionError, isInputError: client.isInputError };
});
const { server } = await import('../../src/actions');

let h: AuthHarness;
let admin: string;
let adminBrowser: Browser;
let member: string;
let memberBrowser: Browser;
beforeEach(async () => {
  h = await createAuthHarness();
  ({ userId: admin, browser: adminBrowser } = await h.signUpVerified({ email: 'owner@example.com' }));
  ({ userId: member, browser: memberBrowser } = await h.signUpVerified({ email: 'member@example.com' }));
});
afterEach(() => h.close());

const defaults = () => siteContentSchema.parse({});
const failure = (code: string) => expect.objectContaining({ code });
const activities = () => h.handle.db.select().from(activityLog).orderBy(activityLog.at);
const lastEntry = async () => (await activities()).at(-1)!;
const configRow = async (key: string) => (await h.handle.db.select().from(appConfig).where(eq(appConfig.key, key)))[0];
const seoRow = async (path: string) => (await h.handle.db.select().from(seoPages).where(eq(seoPages.path, path)))[0];
const KB100 = 'x'.repeat(100_000);

describe('who may write', () => {
  it('refuses a member and a visitor on every document, and changes nothing', async () => {
    const content = { ...defaults(), siteName: 'Sneaky' };
    await expect(saveSiteContent(member, { version: '', content })).rejects.toEqual(failure('NOT_ADMIN'));
    await expect(saveSiteContent(undefined, { version: '', content })).rejects.toEqual(failure('NO_USER_LOGGED_IN'));
    await expect(saveLandingLayout(member, { version: '', layout: { order: [...LANDING_BLOCKS].reverse(), hidden: [] } })).rejects.toEqual(failure('NOT_ADMIN'));
    await expect(saveSeoEntry(member, { path: '/', version: '', fields: { ...EMPTY_SEO_ENTRY, title: 'Hijacked' } })).rejects.toEqual(failure('NOT_ADMIN'));
    expect(await h.handle.db.select().from(appConfig)).toEqual([]);
    expect(await h.handle.db.select().from(seoPages)).toEqual([]);
    expect(await activities()).toEqual([]);
  });
});

describe('site texts', () => {
  it('says which field is wrong and why, by path; nothing is saved', async () => {
    const base = defaults();
    const bad = {
      ...base,
      siteName: KB100,
      currency: 'dollars',
      bookingUrl: 'javascript:alert(1)',
      hero: { ...base.hero, rotatingPhrases: ['lead outreach', 'nurturing', KB100] },
      testimonials: base.testimonials.map((t, i) => (i === 3 ? { ...t, quote: KB100 } : t)),
      footer: { ...base.footer, contactEmail: 'not an email' },
      business: { legalName: 'Autoflow Ltd.', latitude: 91, longitude: -181 },
    };
    await expect(saveSiteContent(admin, { version: '', content: bad })).rejects.toMatchObject({
      code: 'INVALID',
      fieldErrors: {
        siteName: 'Must be at most 80 characters',
        currency: 'Must be a three-letter currency code such as USD',
        bookingUrl: 'Must be a full web address starting with https://',
        'hero.rotatingPhrases.2': 'Must be at most 60 characters',
        'testimonials.3.quote': 'Must be at most 600 characters',
        'footer.contactEmail': 'Must be an email address such as hello@example.com',
        'business.latitude': 'Must be at most 90',
        'business.longitude': 'Must be at least -180',
      },
    });
    await expect(saveSiteContent(admin, { version: '', content: { ...base, currency: 'US' } })).rejects.toMatchObject({ fieldErrors: { currency: expect.any(String) } });
    await expect(saveSiteContent(admin, { version: '', content: { ...base, business: { ...base.business, latitude: '51.5' } } })).rejects.toMatchObject({
      fieldErrors: { 'business.latitude': 'Must be a number' },
    });
    expect(await configRow('siteContent')).toBeUndefined();
    expect(await activities()).toEqual([]);
  });

  it('saves with the version it opened; the site shows it; a second admin saving later is told, nothing lost', async () => {
    const opened = await siteContentForEditor();
    expect(opened).toEqual({ content: defaults(), version: '' });
    const mine = { ...opened.content, hero: { ...opened.content.hero, rotatingPhrases: ['missed calls', 'no-shows'] }, business: { legalName: 'Autoflow Ltd.', latitude: 51.5, longitude: -0.12 } };
    const first = await saveSiteContent(admin, { version: opened.version, content: mine });
    expect(first.tags).toEqual(['site']);
    expect(first.version).toBe((await configRow('siteContent'))!.updatedAt.toISOString());
    expect((await getSiteContent()).hero.rotatingPhrases).toEqual(['missed calls', 'no-shows']);
    expect((await getSiteContent()).business).toEqual({ legalName: 'Autoflow Ltd.', latitude: 51.5, longitude: -0.12 });

    // The same save retried (its answer was lost): accepted, nothing written or recorded again.
    expect(await saveSiteContent(admin, { version: opened.version, content: mine })).toEqual({ id: 'siteContent', version: first.version, tags: [] });
    // Another tab opened before the first save, saving something else: refused, with who saved.
    const theirs = { ...opened.content, siteName: 'Other Name' };
    await expect(saveSiteContent(admin, { version: opened.version, content: theirs })).rejects.toMatchObject({
      code: 'CONFLICT',
      message: expect.stringMatching(/^owner@example\.com saved the site texts at \d\d:\d\d, after you opened this page/),
    });
    expect((await getSiteContent()).siteName).toBe(defaults().siteName);

    const entries = await activities();
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      actorEmail: 'owner@example.com',
      action: 'update',
      entityType: 'site-content',
      entityId: 'siteContent',
      summary: 'Updated the site texts: hero, business details',
      before: null,
    });
    expect(entries[0]!.after).toEqual(mine);

    // Saving on top of the new version works, and records the document before it.
    await saveSiteContent(admin, { version: first.version, content: { ...mine, footer: { ...mine.footer, contactEmail: 'team@clinic.example' } } });
    const second = (await activities())[1]!;
    expect(second.summary).toBe('Updated the site texts: footer');
    expect(second.before).toEqual(mine);
  });

  it('empty coordinates are allowed (no location in the structured data)', async () => {
    const content = { ...defaults(), business: { legalName: '', latitude: null, longitude: null } };
    await saveSiteContent(admin, { version: '', content });
    expect((await getSiteContent()).business).toEqual({ legalName: '', latitude: null, longitude: null });
  });
});

describe('landing page layout', () => {
  it('takes every block once, in order, some hidden; anything else is refused by field', async () => {
    const order = [...LANDING_BLOCKS];
    await expect(saveLandingLayout(admin, { version: '', layout: { order: order.slice(1), hidden: [] } })).rejects.toMatchObject({
      code: 'INVALID',
      fieldErrors: { order: 'Must list each of the 10 blocks once' },
    });
    await expect(saveLandingLayout(admin, { version: '', layout: { order: [...order.slice(1), 'hero', 'hero'], hidden: [] } })).rejects.toMatchObject({
      fieldErrors: { order: expect.any(String) },
    });
    await expect(saveLandingLayout(admin, { version: '', layout: { order: [...order.slice(1), 'pricing'], hidden: ['cta', 'nope'] } })).rejects.toMatchObject({
      fieldErrors: { 'order.9': 'Is not a landing page block', 'hidden.1': 'Is not a landing page block' },
    });
    expect(await configRow('landingPage')).toBeUndefined();
  });

  it('saves the order and hidden blocks: the landing page follows; reset and its summaries', async () => {
    const opened = await landingLayoutForEditor();
    expect(opened).toEqual({ layout: { order: [...LANDING_BLOCKS], hidden: [] }, version: '' });
    const order = ['faqs', ...LANDING_BLOCKS.filter((b) => b !== 'faqs')];
    const saved = await saveLandingLayout(admin, { version: '', layout: { order, hidden: ['testimonials', 'demos'] } });
    expect(saved.tags).toEqual(['landing']);
    expect((await configRow('landingPage'))!.value).toEqual({ blockOrder: order, hidden: ['demos', 'testimonials'] });
    expect(await getLandingBlocks()).toEqual(order.filter((b) => b !== 'testimonials' && b !== 'demos'));

    await expect(saveLandingLayout(admin, { version: '', layout: { order: [...LANDING_BLOCKS], hidden: [] } })).rejects.toEqual(failure('CONFLICT'));
    await saveLandingLayout(admin, { version: saved.version, layout: { order: [...LANDING_BLOCKS], hidden: [] } });
    expect(await getLandingBlocks()).toEqual([...LANDING_BLOCKS]);
    expect((await activities()).map((e) => e.summary)).toEqual([
      'Changed the landing page layout: new block order; hid Demos, Testimonials',
      'Reset the landing page to the default order, every block shown',
    ]);
  });

  it('opens an imported order with unknown names dropped and missing blocks listed last, hidden', async () => {
    await h.handle.db.insert(appConfig).values({ key: 'landingPage', value: { blockOrder: ['cta', 'pricing', 'hero'], hidden: ['hero'] } });
    const { layout } = await landingLayoutForEditor();
    expect(layout.order).toEqual(['cta', 'hero', ...LANDING_BLOCKS.filter((b) => b !== 'cta' && b !== 'hero')]);
    expect(layout.hidden).toEqual(LANDING_BLOCKS.filter((b) => b !== 'cta'));
  });
});

describe('SEO entries', () => {
  const entry = (values: Partial<typeof EMPTY_SEO_ENTRY>) => ({ ...EMPTY_SEO_ENTRY, ...values });

  it('saves a page entry; the head carries the seed cuts of it', async () => {
    const title = 'Automation services for clinics, coaches and every kind of small business';
    const description = 'd'.repeat(200);
    await saveSeoEntry(admin, { path: '/services', version: '', fields: entry({ title, description, keywords: 'ai, clinics', publishedTime: '2025-03-14T09:30:00+01:00' }) });
    const seo = await resolvePageSeo({ title: 'Services', description: 'Page text', path: '/services' });
    expect(seo.title).toBe(`${`${title} | Autoflow Agency`.slice(0, 57)}...`);
    expect(seo.description).toBe(`${'d'.repeat(157)}...`);
    expect(seo.keywords).toBe('ai, clinics');
    expect((await seoRow('/services'))!.publishedTime!.toISOString()).toBe('2025-03-14T08:30:00.000Z');
    const entries = await seoEntriesForEditor();
    expect(entries.get('/services')).toMatchObject({ stored: true, fields: { title, publishedTime: '2025-03-14T08:30:00.000Z', modifiedTime: '' } });
    expect(entries.get('/demos')).toEqual({ stored: false, version: '', fields: EMPTY_SEO_ENTRY });
    expect((await activities())[0]).toMatchObject({ entityType: 'seo', entityId: '/services', summary: 'Updated the SEO of /services: title, description, keywords, published time' });
  });

  it('refuses bad fields by name, paths that are not edited here, and page-only fields on the site defaults', async () => {
    await expect(
      saveSeoEntry(admin, { path: '/', version: '', fields: entry({ title: KB100, image: 'javascript:alert(1)', url: 'ftp://x', type: 'product' as never, publishedTime: 'yesterday' }) }),
    ).rejects.toMatchObject({
      code: 'INVALID',
      fieldErrors: {
        title: 'Must be at most 200 characters',
        image: 'Must be empty, a /media/{id}.webp path or an http(s) URL',
        url: 'Must be empty, a site path or an http(s) URL',
        type: 'Must be “website” or “article”',
        publishedTime: 'Must be a date and time, or empty',
      },
    });
    await expect(saveSeoEntry(admin, { path: '/admin', version: '', fields: entry({ title: 'x' }) })).rejects.toEqual(failure('NOT_FOUND'));
    await expect(saveSeoEntry(admin, { path: '/*', version: '', fields: entry({ url: '/x', type: 'article' }) })).rejects.toMatchObject({
      fieldErrors: { url: expect.stringContaining('each page'), type: expect.stringContaining('each page') },
    });
    expect(await h.handle.db.select().from(seoPages)).toEqual([]);
  });

  it('site defaults: the name after page titles, and keywords, image, author, description where a page has none', async () => {
    await saveSeoEntry(admin, { path: '/*', version: '', fields: entry({ title: 'Autoflow', description: 'Default text', keywords: 'automation', image: 'https://cdn.example/og.png', author: 'Autoflow team' }) });
    const seo = await resolvePageSeo({ title: 'Demos', description: '', path: '/demos' });
    expect(seo).toMatchObject({ title: 'Demos | Autoflow', description: 'Default text', keywords: 'automation', image: 'https://cdn.example/og.png', author: 'Autoflow team' });
    // The page's own and its stored values come first. (The Action drops the memoized entries; here, by hand.)
    await saveSeoEntry(admin, { path: '/demos', version: '', fields: entry({ keywords: 'demos' }) });
    invalidateMemos(['seo']);
    expect(await resolvePageSeo({ title: 'Demos', description: 'Own text', path: '/demos', image: '/media/0123456789abcdef0123456789abcdef.webp' })).toMatchObject({
      description: 'Own text',
      keywords: 'demos',
      image: expect.stringMatching(/\/media\/0123456789abcdef0123456789abcdef\.webp$/),
    });
  });

  it('a page’s choice whether the site name follows its title: stored, rendered, logged; refused on the site defaults', async () => {
    const title = 'Automation services for clinics | Autoflow';
    // Left to the title (the default): it already ends with a short form of the name, which is not added again.
    await saveSeoEntry(admin, { path: '/services', version: '', fields: entry({ title }) });
    invalidateMemos(['seo']);
    expect((await resolvePageSeo({ title: 'Services', description: '', path: '/services' })).title).toBe(title);
    expect((await seoRow('/services'))!.siteNameAfterTitle).toBeNull();

    const entries = await seoEntriesForEditor();
    const on = await saveSeoEntry(admin, { path: '/services', version: entries.get('/services')!.version, fields: entry({ title, siteNameAfterTitle: true }) });
    invalidateMemos(['seo']);
    expect((await resolvePageSeo({ title: 'Services', description: '', path: '/services' })).title).toBe(`${title} | Autoflow Agency`);
    expect((await lastEntry()).summary).toBe('Updated the SEO of /services: site name after the title');

    await saveSeoEntry(admin, { path: '/demos', version: '', fields: entry({ siteNameAfterTitle: false }) });
    await saveSeoEntry(admin, { path: '/services', version: on.version, fields: entry({ title, siteNameAfterTitle: false }) });
    invalidateMemos(['seo']);
    expect((await resolvePageSeo({ title: 'Services', description: '', path: '/services' })).title).toBe(title);
    expect((await resolvePageSeo({ title: 'Demos', description: '', path: '/demos' })).title).toBe('Demos');
    expect((await seoEntriesForEditor()).get('/services')!.fields.siteNameAfterTitle).toBe(false);

    await expect(saveSeoEntry(admin, { path: '/*', version: '', fields: entry({ siteNameAfterTitle: true }) })).rejects.toMatchObject({
      code: 'INVALID',
      fieldErrors: { siteNameAfterTitle: expect.stringContaining('each page') },
    });
  });

  it('an SEO save logged before the choice existed still reverts', async () => {
    const s1 = await saveSeoEntry(admin, { path: '/terms', version: '', fields: entry({ title: 'Terms one' }) });
    await saveSeoEntry(admin, { path: '/terms', version: s1.version, fields: entry({ title: 'Terms two' }) });
    // As logged by the version before this field: neither before nor after carries it.
    const saved = await lastEntry();
    const older = (v: unknown) => {
      const { siteNameAfterTitle: _gone, ...rest } = v as Record<string, unknown>;
      return rest;
    };
    await h.handle.db.update(activityLog).set({ before: older(saved.before), after: older(saved.after) }).where(eq(activityLog.id, saved.id));
    await revertDocumentChange(admin, await lastEntry());
    expect(await seoRow('/terms')).toMatchObject({ title: 'Terms one', siteNameAfterTitle: null });
  });

  it('two admins saving the same entry: the second is told', async () => {
    const first = await saveSeoEntry(admin, { path: '/terms', version: '', fields: entry({ title: 'Terms' }) });
    await expect(saveSeoEntry(admin, { path: '/terms', version: '', fields: entry({ title: 'Our terms' }) })).rejects.toEqual(failure('CONFLICT'));
    await saveSeoEntry(admin, { path: '/terms', version: first.version, fields: entry({ title: 'Our terms' }) });
    expect((await seoRow('/terms'))!.title).toBe('Our terms');
  });
});

describe('revertDocumentChange', () => {

  it('restores the site texts before a save, records the revert, and refuses when the texts changed since', async () => {
    const a = await saveSiteContent(admin, { version: '', content: { ...defaults(), siteName: 'First' } });
    const firstSave = await lastEntry();
    const b = await saveSiteContent(admin, { version: a.version, content: { ...defaults(), siteName: 'Second' } });
    const secondSave = await lastEntry();

    await expect(revertDocumentChange(admin, firstSave)).rejects.toMatchObject({ code: 'CONFLICT', message: expect.stringContaining('The site texts changed again after that entry') });
    await expect(revertDocumentChange(member, secondSave)).rejects.toEqual(failure('NOT_ADMIN'));
    expect((await getSiteContent()).siteName).toBe('Second');

    const reverted = await revertDocumentChange(admin, secondSave);
    expect(reverted.tags).toEqual(['site']);
    expect((await getSiteContent()).siteName).toBe('First');
    expect(await lastEntry()).toMatchObject({ action: 'revert', entityType: 'site-content', revertOf: secondSave.id, summary: 'Reverted a change to the site texts' });
    expect(reverted.version).not.toBe(b.version);

    // Now the first save can be undone too: the document did not exist, so the defaults come back.
    await revertDocumentChange(admin, firstSave);
    expect(await configRow('siteContent')).toBeUndefined();
    expect(await getSiteContent()).toEqual(defaults());
    // A revert is not itself reverted from here.
    await expect(revertDocumentChange(admin, await lastEntry())).rejects.toEqual(failure('CONFLICT'));
  });

  it('restores a landing layout and an SEO entry', async () => {
    const order = [...LANDING_BLOCKS].reverse();
    const l1 = await saveLandingLayout(admin, { version: '', layout: { order, hidden: [] } });
    await saveLandingLayout(admin, { version: l1.version, layout: { order, hidden: ['faqs'] } });
    expect(await revertDocumentChange(admin, await lastEntry())).toMatchObject({ id: 'landingPage', tags: ['landing'] });
    expect(await getLandingBlocks()).toEqual(order);

    const s1 = await saveSeoEntry(admin, { path: '/', version: '', fields: { ...EMPTY_SEO_ENTRY, title: 'Home one', modifiedTime: '2025-01-02T03:04:05.000Z' } });
    await saveSeoEntry(admin, { path: '/', version: s1.version, fields: { ...EMPTY_SEO_ENTRY, title: 'Home two' } });
    await revertDocumentChange(admin, await lastEntry());
    expect(await seoRow('/')).toMatchObject({ title: 'Home one', modifiedTime: new Date('2025-01-02T03:04:05.000Z') });
  });

  it('refuses entries that are not saves of these documents', async () => {
    const fake = { id: 'x', action: 'update', entityType: 'service', entityId: 'a', before: null, after: null };
    await expect(revertDocumentChange(admin, fake)).rejects.toEqual(failure('CONFLICT'));
  });
});

describe('through the Actions', () => {
  async function contextFor(browser: Browser | undefined, invalidate: (o: { tags: string[] }) => void) {
    const headers = new Headers(browser ? { cookie: browser.cookieHeader } : {});
    const found = await readSession(headers, (hs) => h.auth.api.getSession({ headers: hs }));
    return { locals: found ? { user: found.user, session: found.session } : {}, cache: { enabled: true, invalidate } };
  }
  type Handler = { orThrow: (this: unknown, input: unknown) => Promise<unknown> };
  const call = async (action: unknown, input: unknown, browser: Browser | undefined, invalidate = vi.fn()) =>
    (action as Handler).orThrow.call(await contextFor(browser, invalidate), input);

  it('each save drops the cached pages that show the document (site texts and SEO: every page; the layout: the landing page)', async () => {
    const invalidate = vi.fn();
    const site = (await call(server.admin.site.save, { version: '', content: defaults() as never }, adminBrowser, invalidate)) as { version: string };
    expect(site.version).toMatch(/^\d{4}-/);
    await call(server.admin.landing.save, { version: '', layout: { order: [...LANDING_BLOCKS].reverse(), hidden: [] } }, adminBrowser, invalidate);
    await call(server.admin.seo.save, { path: '/', version: '', fields: { ...EMPTY_SEO_ENTRY, title: 'Home' } }, adminBrowser, invalidate);
    expect(invalidate.mock.calls.map(([o]) => o.tags)).toEqual([['site'], ['landing'], ['seo']]);
  });

  it('the activity log’s Revert Action puts a document back and drops its pages; a member is refused, nothing changed', async () => {
    const order = [...LANDING_BLOCKS].reverse();
    await call(server.admin.landing.save, { version: '', layout: { order, hidden: ['faqs'] } }, adminBrowser);
    const entry = await lastEntry();
    await expect(call(server.admin.activity.revert, { id: entry.id }, memberBrowser)).rejects.toMatchObject({ code: 'FORBIDDEN' });
    expect(await getLandingBlocks()).toEqual(order.filter((b) => b !== 'faqs'));

    const invalidate = vi.fn();
    expect(await call(server.admin.activity.revert, { id: entry.id }, adminBrowser, invalidate)).toMatchObject({ id: 'landingPage', version: '' });
    expect(invalidate.mock.calls.map(([o]) => o.tags)).toEqual([['landing']]);
    expect(await getLandingBlocks()).toEqual([...LANDING_BLOCKS]);
    expect(await lastEntry()).toMatchObject({ action: 'revert', entityType: 'landing', revertOf: entry.id });
  });

  it('answers field errors by path in the shape forms read, and refuses a visitor', async () => {
    const bad = call(server.admin.site.save, { version: '', content: { ...defaults(), business: { legalName: '', latitude: 91, longitude: -181 } } }, adminBrowser);
    await expect(bad).rejects.toMatchObject({ type: 'AstroActionInputError', code: 'BAD_REQUEST' });
    const err = (await bad.catch((e: unknown) => e)) as { issues: { path: (string | number)[]; message: string }[] };
    expect(err.issues).toEqual([
      { code: 'custom', path: ['content', 'business', 'latitude'], message: 'Must be at most 90' },
      { code: 'custom', path: ['content', 'business', 'longitude'], message: 'Must be at least -180' },
    ]);
    await expect(call(server.admin.landing.save, { version: '', layout: { order: [], hidden: [] } }, undefined)).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  });
});
