/**
 * Every settings change is revertible from the activity log, the way the page does it: the page offers
 * Revert on the entry (revertOffers), and its button calls admin.activity.revert, which puts the document
 * back, records the revert, and drops the cache tags of the pages that show it. Once per kind: the site
 * texts, an SEO entry, the landing page layout, the chat settings, the general settings and a policy (and a
 * chat settings entry from before the time zone became a general setting). An entry the document has
 * moved on from is not offered: the page says why, with the message the Action refuses it with.
 */
import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { invalidateMemos } from '../../src/server/cache/memo';
import { activityLog, appConfig } from '../../src/server/db/schema';
import { readSession } from '../../src/server/guards/session';
import { revertOffers } from '../../src/server/modules/activity/revert-offers';
import { activityPage } from '../../src/server/modules/activity/service';
import { getChatSettings } from '../../src/server/modules/chat/settings';
import { getPolicy } from '../../src/server/modules/pages/service';
import { savePolicy } from '../../src/server/modules/policies/service';
import { resolvePageSeo } from '../../src/server/modules/seo/service';
import { getLandingBlocks, getSiteContent } from '../../src/server/modules/site/service';
import { saveChatSettings, saveGeneralSettings, saveLandingLayout, saveSeoEntry, saveSiteContent } from '../../src/server/modules/site-admin/service';
import { getGeneralSettings } from '../../src/server/modules/settings/general';
import { DEFAULT_CHAT_SETTINGS } from '../../src/shared/chat';
import { documentChanges } from '../../src/shared/document-changes';
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
let memberBrowser: Browser;
beforeEach(async () => {
  h = await createAuthHarness();
  // The public reads are memoized per process: start each test from what the database holds.
  invalidateMemos(['site', 'seo', 'landing', 'chat', 'policies']);
  ({ userId: admin, browser: adminBrowser } = await h.signUpVerified({ email: 'owner@example.com' }));
  ({ browser: memberBrowser } = await h.signUpVerified({ email: 'member@example.com' }));
});
afterEach(() => h.close());

const activities = () => h.handle.db.select().from(activityLog).orderBy(activityLog.at);
const lastEntry = async () => (await activities()).at(-1)!;

/** The activity page's view: its rows (newest first) and what it offers on each. */
async function pageOffers() {
  const { rows, revertedBy } = await activityPage({}, 1);
  return revertOffers(rows, revertedBy);
}

/** The page's Revert button: admin.activity.revert as that admin's browser calls it; the tags it dropped. */
async function revertFromPage(entryId: string, browser: Browser = adminBrowser) {
  const headers = new Headers({ cookie: browser.cookieHeader });
  const found = await readSession(headers, (hs) => h.auth.api.getSession({ headers: hs }));
  const invalidate = vi.fn();
  const ctx = { locals: found ? { user: found.user, session: found.session } : {}, cache: { enabled: true, invalidate } };
  await (server.admin.activity.revert as unknown as { orThrow: (this: unknown, input: unknown) => Promise<unknown> }).orThrow.call(ctx, { id: entryId });
  return invalidate.mock.calls.flatMap(([o]) => o.tags as string[]);
}

/**
 * Two saves of one document, then the page: the older save is not offered (the newer would be
 * overwritten) and says so, the Action refuses it with the same words; the newer one is reverted through
 * the page's path, recorded, and afterwards the older one is offered again.
 */
async function revertsLikeThePage(options: { saveFirst: () => Promise<unknown>; saveSecond: () => Promise<unknown>; changedAgain: string; tags: string[]; entityType: string }) {
  await options.saveFirst();
  const first = await lastEntry();
  await options.saveSecond();
  const second = await lastEntry();
  expect(second.entityType).toBe(options.entityType);

  const before = await pageOffers();
  expect(before.get(second.id)).toEqual({ offered: true });
  expect(before.get(first.id)).toEqual({ offered: false, reason: expect.stringContaining(options.changedAgain), latestEntryId: second.id });
  const reason = (before.get(first.id) as { reason: string }).reason;
  expect(reason).toMatch(/changed again after that entry: revert the later changes first, newest first\.$/);
  await expect(revertFromPage(first.id)).rejects.toMatchObject({ code: 'CONFLICT', message: reason });
  await expect(revertFromPage(second.id, memberBrowser)).rejects.toMatchObject({ code: 'FORBIDDEN' });

  expect(await revertFromPage(second.id)).toEqual(options.tags);
  const revert = await lastEntry();
  expect(revert).toMatchObject({ action: 'revert', entityType: options.entityType, entityId: second.entityId, revertOf: second.id, actorEmail: 'owner@example.com' });

  const after = await pageOffers();
  expect(after.get(second.id)).toBeUndefined(); // reverted: the row says so, no second revert
  expect(after.get(revert.id)).toBeUndefined(); // a revert is not itself reverted
  expect(after.get(first.id)).toEqual({ offered: true });
  return { first, second, revert };
}

describe('reverting a settings change from the activity log', () => {
  it('the site texts: the old headline is back on the site at once', async () => {
    const defaults = siteContentSchema.parse({});
    let version = '';
    const { first } = await revertsLikeThePage({
      entityType: 'site-content',
      saveFirst: async () => ({ version } = await saveSiteContent(admin, { version, content: { ...defaults, hero: { ...defaults.hero, headline: 'First headline' } } })),
      saveSecond: async () => ({ version } = await saveSiteContent(admin, { version, content: { ...defaults, hero: { ...defaults.hero, headline: 'Second headline' } } })),
      changedAgain: 'The site texts changed again',
      tags: ['site'],
    });
    expect((await getSiteContent()).hero.headline).toBe('First headline');
    // The first save (nothing stored before it) lists the one field it changed, with the form's label.
    expect(documentChanges(first)).toEqual([{ field: 'hero.headline', label: 'Hero › Headline', kind: 'changed', before: defaults.hero.headline, after: 'First headline' }]);

    await revertFromPage(first.id);
    expect(await getSiteContent()).toEqual(defaults);
  });

  it('an SEO entry', async () => {
    let version = '';
    await revertsLikeThePage({
      entityType: 'seo',
      saveFirst: async () => ({ version } = await saveSeoEntry(admin, { path: '/services', version, fields: { ...EMPTY_SEO_ENTRY, title: 'Automation for clinics' } })),
      saveSecond: async () => ({ version } = await saveSeoEntry(admin, { path: '/services', version, fields: { ...EMPTY_SEO_ENTRY, title: 'Automation for coaches' } })),
      changedAgain: 'The SEO of /services changed again',
      tags: ['seo'],
    });
    expect((await resolvePageSeo({ title: 'Services', description: '', path: '/services' })).title).toBe('Automation for clinics | Autoflow Agency');
  });

  it('the landing page layout', async () => {
    const order = [...LANDING_BLOCKS].reverse();
    let version = '';
    await revertsLikeThePage({
      entityType: 'landing',
      saveFirst: async () => ({ version } = await saveLandingLayout(admin, { version, layout: { order, hidden: [] } })),
      saveSecond: async () => ({ version } = await saveLandingLayout(admin, { version, layout: { order, hidden: ['faqs', 'cta'] } })),
      changedAgain: 'The landing page layout changed again',
      tags: ['landing'],
    });
    expect(await getLandingBlocks()).toEqual(order);
  });

  it('the chat settings', async () => {
    let version = '';
    await revertsLikeThePage({
      entityType: 'chat-settings',
      saveFirst: async () => ({ version } = await saveChatSettings(admin, { value: { ...DEFAULT_CHAT_SETTINGS, assistantName: 'Ada' }, expectedUpdatedAt: version })),
      saveSecond: async () => ({ version } = await saveChatSettings(admin, { value: { ...DEFAULT_CHAT_SETTINGS, assistantName: 'Ada', enabled: false }, expectedUpdatedAt: version })),
      changedAgain: 'The chat settings changed again',
      tags: ['chat'],
    });
    expect(await getChatSettings()).toMatchObject({ assistantName: 'Ada', enabled: true });
  });

  it('the general settings', async () => {
    let version = '';
    await revertsLikeThePage({
      entityType: 'general-settings',
      saveFirst: async () => ({ version } = await saveGeneralSettings(admin, { version, settings: { timeZone: 'Asia/Tehran', replyTo: '' } })),
      saveSecond: async () => ({ version } = await saveGeneralSettings(admin, { version, settings: { timeZone: 'Asia/Tehran', replyTo: 'team@example.com' } })),
      changedAgain: 'The general settings changed again',
      tags: ['chat'],
    });
    expect(await getGeneralSettings()).toEqual({ timeZone: 'Asia/Tehran', replyTo: '' });
  });

  it('a chat settings entry logged before the time zone moved to the general settings: shown with its zone, reverted without it, and its revert says so', async () => {
    const d = DEFAULT_CHAT_SETTINGS;
    const withZone = (timeZone: string, over: Partial<typeof d> = {}) => ({ ...d, ...over, businessHours: { ...d.businessHours, timeZone } });
    // As an upgraded site holds it: the entry as logged then, the stored document as the migration left it
    // (its zone moved to the general settings).
    await h.handle.db.insert(appConfig).values([
      { key: 'chatSettings', value: { ...d, assistantName: 'Ada' } },
      { key: 'generalSettings', value: { timeZone: 'Asia/Tokyo' } },
    ]);
    const [old] = await h.handle.db
      .insert(activityLog)
      .values({ id: crypto.randomUUID(), actorId: admin, actorEmail: 'owner@example.com', action: 'update', entityType: 'chat-settings', entityId: 'chatSettings', summary: 'Updated the chat settings: assistant name, business hours', before: withZone('Europe/Berlin'), after: withZone('Asia/Tokyo', { assistantName: 'Ada' }) })
      .returning();
    expect(documentChanges(old!)?.map((c) => [c.label, c.before, c.after])).toEqual([
      ['Assistant name', d.assistantName, 'Ada'],
      ['Business hours › Time zone', 'Europe/Berlin', 'Asia/Tokyo'],
    ]);
    expect((await pageOffers()).get(old!.id)).toEqual({ offered: true });

    expect(await revertFromPage(old!.id)).toEqual(['chat']);
    const stored = (await h.handle.db.select().from(appConfig).where(eq(appConfig.key, 'chatSettings')))[0]!.value;
    expect(stored).toEqual(d);
    expect(await getChatSettings()).toEqual(d);
    expect(await getGeneralSettings()).toEqual({ timeZone: 'Asia/Tokyo', replyTo: '' });
    expect(await lastEntry()).toMatchObject({
      action: 'revert',
      revertOf: old!.id,
      summary: "Reverted a change to the chat settings (its time zone, Europe/Berlin, was left out: the site's time zone is in Settings now)",
      after: d,
    });
  });

  it('a policy', async () => {
    let version = '';
    await revertsLikeThePage({
      entityType: 'policy',
      saveFirst: async () => ({ version } = await savePolicy(admin, 'privacy', { version, html: '<h2>Ours</h2><p>We keep logs for 30 days.</p>' })),
      saveSecond: async () => ({ version } = await savePolicy(admin, 'privacy', { version, html: '<h2>Ours</h2><p>We keep logs for 14 days.</p>' })),
      changedAgain: 'The privacy policy changed again',
      tags: ['policies'],
    });
    expect((await getPolicy('privacy', await getSiteContent())).html).toBe('<h2>Ours</h2><p>We keep logs for 30 days.</p>');
  });

  it('a document changed outside the log (a content import, a script) is not offered either', async () => {
    await saveSiteContent(admin, { version: '', content: { ...siteContentSchema.parse({}), siteName: 'Ours' } });
    const save = await lastEntry();
    await h.handle.db.update(appConfig).set({ value: { siteName: 'Imported' } }).where(eq(appConfig.key, 'siteContent'));
    expect((await pageOffers()).get(save.id)).toMatchObject({ offered: false, reason: expect.stringContaining('The site texts changed again'), latestEntryId: undefined });
  });
});
