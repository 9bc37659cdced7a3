/**
 * Articles and FAQs through the admin content engine: slugs made from the title, unique, kept working
 * when renamed; alt text required with a featured image; tags; concurrency; duplicate, delete, revert;
 * FAQ order; and the FAQ list's "restore the ten defaults", only into an empty list.
 */
import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { activityLog, articles, faqs, redirects } from '../../src/server/db/schema';
import { listPublishedArticles, listTagsInUse } from '../../src/server/modules/articles/repository';
import {
  createRecord,
  deleteRecord,
  duplicateRecord,
  getForEditor,
  listForAdmin,
  listIds,
  reorderRecords,
  revertChange,
  updateRecord,
} from '../../src/server/modules/content/service';
import { listFaqs } from '../../src/server/modules/faqs/repository';
import { restoreDefaultFaqs } from '../../src/server/modules/faqs/service';
import { loadLandingPage } from '../../src/server/modules/landing/service';
import { movedTo } from '../../src/server/modules/redirects/service';
import { DEFAULT_FAQS } from '../../src/shared/default-faqs';
import { ALT_REQUIRED_MESSAGE, SLUG_MESSAGE, TAG_MESSAGE } from '../../src/shared/schemas/catalog';
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

const article = (title: string, extra: Record<string, unknown> = {}) => ({ title, excerpt: `${title} in short`, content: '<p>Body</p>', tags: ['Leads'], published: true, ...extra });
const failure = (code: string) => expect.objectContaining({ code });
const activities = () => h.handle.db.select().from(activityLog).orderBy(activityLog.at);
const query = { q: '', filter: '', sort: 'created', dir: 'desc' as const, page: 1, perPage: 50 };
const faqQuery = { ...query, sort: 'order', dir: 'asc' as const };
const image = 'https://images.example.com/cover.jpg';

describe('article slugs', () => {
  it('makes the slug from the title when it is left empty, unique among articles, and the id with it', async () => {
    const a = await createRecord(admin, 'article', article('Speed to Lead!', { slug: '' }));
    const b = await createRecord(admin, 'article', article('Speed to lead'));
    expect([a.id, a.snapshot?.slug]).toEqual(['speed-to-lead', 'speed-to-lead']);
    expect([b.id, b.snapshot?.slug]).toEqual(['speed-to-lead-2', 'speed-to-lead-2']);
    expect(a.tags).toEqual(['articles']);
    // The page is there at once.
    expect((await listPublishedArticles()).map((x) => x.slug).sort()).toEqual(['speed-to-lead', 'speed-to-lead-2']);
  });

  it('keeps a slug the admin typed, refuses one another article has, and one that cannot be an address', async () => {
    const { snapshot } = await createRecord(admin, 'article', article('First', { slug: 'my-first_post' }));
    expect(snapshot?.slug).toBe('my-first_post');
    await expect(createRecord(admin, 'article', article('Second', { slug: 'my-first_post' }))).rejects.toMatchObject({
      code: 'INVALID',
      fieldErrors: { slug: 'Another article already uses this slug.' },
    });
    for (const slug of ['has space', 'dots.are.not.ok', '-leading', 'x'.repeat(121)]) {
      await expect(createRecord(admin, 'article', article('Third', { slug }))).rejects.toMatchObject({ code: 'INVALID', fieldErrors: { slug: expect.any(String) } });
    }
    await expect(createRecord(admin, 'article', article('Third', { slug: 'a/b' }))).rejects.toMatchObject({ fieldErrors: { slug: SLUG_MESSAGE } });
    expect(await h.handle.db.select({ slug: articles.slug }).from(articles)).toEqual([{ slug: 'my-first_post' }]);
  });

  it('never gives a record the id "new" (/admin/articles/new creates one)', async () => {
    const a = await createRecord(admin, 'article', article('New'));
    expect(a.id).toBe('new-2');
    const b = await createRecord(admin, 'article', article('Typed', { slug: 'new' }));
    expect([b.id, b.snapshot?.slug]).toEqual(['new-3', 'new']);
    expect(await getForEditor('article', 'new-3')).toMatchObject({ slug: 'new' });
  });

  it('a renamed published article answers 301 at its old address, chains collapse; a draft leaves no redirect', async () => {
    const { id, snapshot } = await createRecord(admin, 'article', article('Follow up'));
    const one = await updateRecord(admin, 'article', id, { version: snapshot!.updatedAt, fields: article('Follow up', { slug: 'follow-ups' }) });
    expect(one.id).toBe('follow-up'); // the id stays; the address moved
    const two = await updateRecord(admin, 'article', id, { version: one.snapshot!.updatedAt, fields: article('Follow up', { slug: 'following-up' }) });
    expect(await movedTo('/article/follow-up')).toBe('/article/following-up');
    expect(await movedTo('/article/follow-ups')).toBe('/article/following-up');
    expect(two.snapshot).toMatchObject({ slug: 'following-up' });

    const draft = await createRecord(admin, 'article', article('Secret plan', { published: false }));
    await updateRecord(admin, 'article', draft.id, { version: draft.snapshot!.updatedAt, fields: article('Secret plan', { published: false, slug: 'launch-plan' }) });
    expect(await movedTo('/article/secret-plan')).toBeUndefined();
    expect((await h.handle.db.select().from(redirects)).map((r) => r.fromPath).sort()).toEqual(['/article/follow-up', '/article/follow-ups']);
  });

  it('an article saved with its slug emptied takes its title’s slug again', async () => {
    const { id, snapshot } = await createRecord(admin, 'article', article('Reviews', { slug: 'old-name', published: false }));
    const saved = await updateRecord(admin, 'article', id, { version: snapshot!.updatedAt, fields: article('Five-star reviews', { slug: '', published: false }) });
    expect(saved.snapshot?.slug).toBe('five-star-reviews');
  });
});

describe('article fields', () => {
  it('requires alt text with a featured image, beside the field, and saves nothing', async () => {
    await expect(createRecord(admin, 'article', article('Pictured', { featuredImage: image, featuredImageAlt: '   ' }))).rejects.toMatchObject({
      code: 'INVALID',
      fieldErrors: { featuredImageAlt: ALT_REQUIRED_MESSAGE },
    });
    // Reported together with the other fields' problems.
    await expect(createRecord(admin, 'article', article('', { featuredImage: image }))).rejects.toMatchObject({
      fieldErrors: { title: 'Must not be empty', featuredImageAlt: ALT_REQUIRED_MESSAGE },
    });
    expect(await h.handle.db.select().from(articles)).toEqual([]);
    const ok = await createRecord(admin, 'article', article('Pictured', { featuredImage: image, featuredImageAlt: 'A calendar with one day ringed' }));
    expect(ok.snapshot).toMatchObject({ featuredImage: image, featuredImageAlt: 'A calendar with one day ringed' });
    // No image, no alt needed.
    await createRecord(admin, 'article', article('Plain', { featuredImageAlt: '' }));
  });

  it('keeps tags as typed, refuses ones the tag filter cannot find and repeats, and suggests those in use', async () => {
    const { id } = await createRecord(admin, 'article', article('Tagged', { tags: ['  AI & automation ', 'No-shows', 'C++'] }));
    expect((await getForEditor('article', id))?.tags).toEqual(['AI & automation', 'No-shows', 'C++']);
    await expect(createRecord(admin, 'article', article('Bad tags', { tags: ['ok', '<b>x</b>', 'OK'] }))).rejects.toMatchObject({
      code: 'INVALID',
      fieldErrors: { 'tags.1': TAG_MESSAGE, 'tags.2': 'This tag is already in the list' },
    });
    await expect(createRecord(admin, 'article', article('Many', { tags: Array.from({ length: 21 }, (_, i) => `t${i}`) }))).rejects.toMatchObject({
      fieldErrors: { tags: 'Must be at most 20 items' },
    });
    await createRecord(admin, 'article', article('Draft', { published: false, tags: ['No-shows', 'Drafting'] }));
    expect((await listTagsInUse()).map((t) => t.tag)).toEqual(['No-shows', 'AI & automation', 'C++', 'Drafting']);
  });

  it('sanitizes the content', async () => {
    const { id } = await createRecord(admin, 'article', article('Safe', { content: '<h2 onclick="x()">Hi</h2><script>alert(1)</script><img src=x onerror=alert(1)><a href="javascript:alert(1)">x</a>' }));
    expect((await getForEditor('article', id))?.content).toBe('<h2>Hi</h2><img><a>x</a>');
  });

  it('updates with the version it opened; a second admin saving later is told who saved, nothing lost', async () => {
    const { id, snapshot } = await createRecord(admin, 'article', article('Chatbots'));
    const version = snapshot!.updatedAt;
    const edit = (title: string) => ({ ...article('Chatbots'), title, slug: 'chatbots' });
    await updateRecord(admin, 'article', id, { version, fields: edit('Chatbots that book') });
    await expect(updateRecord(admin, 'article', id, { version, fields: edit('Chatbots that sell') })).rejects.toMatchObject({
      code: 'CONFLICT',
      message: expect.stringContaining('owner@example.com saved this article at'),
    });
    expect((await getForEditor('article', id))?.title).toBe('Chatbots that book');
    expect((await activities()).at(-1)?.summary).toBe('Updated article “Chatbots that book”: title');
  });

  it('is written by admins only', async () => {
    await expect(createRecord(member, 'article', article('Sneaky'))).rejects.toEqual(failure('NOT_ADMIN'));
    await expect(createRecord(undefined, 'article', article('Sneaky'))).rejects.toEqual(failure('NO_USER_LOGGED_IN'));
    expect(await h.handle.db.select().from(articles)).toEqual([]);
  });
});

describe('article duplicate, delete, revert and the list', () => {
  it('duplicates as an unpublished copy with its own slug, every time', async () => {
    const { id } = await createRecord(admin, 'article', article('Lead magnets', { featuredImage: image, featuredImageAlt: 'A magnet' }));
    const one = await duplicateRecord(admin, 'article', id);
    const two = await duplicateRecord(admin, 'article', id);
    expect(one.snapshot).toMatchObject({ id: 'lead-magnets-copy', slug: 'lead-magnets-copy', title: 'Lead magnets (copy)', published: false, featuredImageAlt: 'A magnet', tags: ['Leads'] });
    expect(two.snapshot).toMatchObject({ slug: 'lead-magnets-copy-2', published: false });
    expect((await listPublishedArticles()).map((a) => a.id)).toEqual(['lead-magnets']);
  });

  it('deletes, and a revert brings it back at its address with its date', async () => {
    const { id, snapshot } = await createRecord(admin, 'article', article('Reminders'));
    await deleteRecord(admin, 'article', id);
    expect(await listPublishedArticles()).toEqual([]);
    await expect(deleteRecord(admin, 'article', id)).rejects.toEqual(failure('NOT_FOUND'));
    await revertChange(admin, (await activities()).find((e) => e.action === 'delete')!.id);
    expect(await getForEditor('article', id)).toMatchObject({ slug: 'reminders', createdAt: snapshot!.createdAt, published: true });
  });

  it('reverting a slug change moves the page back, and the newer address redirects to it', async () => {
    const { id, snapshot } = await createRecord(admin, 'article', article('Nurture'));
    await updateRecord(admin, 'article', id, { version: snapshot!.updatedAt, fields: article('Nurture', { slug: 'lead-nurture' }) });
    await revertChange(admin, (await activities()).find((e) => e.action === 'update')!.id);
    expect((await getForEditor('article', id))?.slug).toBe('nurture');
    expect(await movedTo('/article/nurture')).toBeUndefined();
    expect(await movedTo('/article/lead-nurture')).toBe('/article/nurture');
  });

  it('lists newest first, filters drafts and published, sorts by title, marks drafts and missing alt text', async () => {
    await createRecord(admin, 'article', article('Bravo'));
    await createRecord(admin, 'article', article('Alpha', { published: false }));
    await createRecord(admin, 'article', article('Charlie'));
    // An imported article may have a picture without alt text (the content file allows it).
    await h.handle.db.update(articles).set({ featuredImage: image }).where(eq(articles.id, 'charlie'));
    const all = await listForAdmin('article', query);
    expect(all.rows.map((r) => r.id)).toEqual(['charlie', 'alpha', 'bravo']);
    expect(all.rows.find((r) => r.id === 'alpha')).toMatchObject({ badges: [{ label: 'Draft', tone: 'neutral' }], publicPath: '/article/alpha?preview' });
    expect(all.rows.find((r) => r.id === 'charlie')).toMatchObject({ badges: [{ label: 'Picture without alt text', tone: 'warning' }], publicPath: '/article/charlie' });
    expect((await listForAdmin('article', { ...query, dir: 'asc' })).rows.map((r) => r.id)).toEqual(['bravo', 'alpha', 'charlie']);
    expect((await listForAdmin('article', { ...query, filter: 'draft' })).rows.map((r) => r.id)).toEqual(['alpha']);
    expect((await listForAdmin('article', { ...query, filter: 'published', sort: 'title', dir: 'asc' })).rows.map((r) => r.id)).toEqual(['bravo', 'charlie']);
    expect((await listForAdmin('article', { ...query, q: 'brav' })).rows.map((r) => r.id)).toEqual(['bravo']);
  });
});

const faq = (question: string, answer = `<p>${question}: yes.</p>`) => ({ question, answer });

describe('FAQs', () => {
  it('are added at the end, reordered in one go (the landing page follows), deleted keeping the order dense', async () => {
    for (const q of ['How fast?', 'How much?', 'Who for?']) await createRecord(admin, 'faq', faq(q));
    expect(await listIds('faq')).toEqual(['how-fast', 'how-much', 'who-for']);
    const moved = await reorderRecords(admin, 'faq', ['who-for', 'how-fast', 'how-much']);
    expect(moved.tags).toEqual(['faqs']);
    expect((await loadLandingPage()).faqs.map((f) => f.question)).toEqual(['Who for?', 'How fast?', 'How much?']);
    await revertChange(admin, (await activities()).find((e) => e.action === 'reorder')!.id);
    expect(await listIds('faq')).toEqual(['how-fast', 'how-much', 'who-for']);
    await deleteRecord(admin, 'faq', 'how-fast');
    expect((await listForAdmin('faq', faqQuery)).rows.map((r) => [r.id, r.order])).toEqual([['how-much', 0], ['who-for', 1]]);
  });

  it('need a question and an answer; the answer is sanitized', async () => {
    await expect(createRecord(admin, 'faq', { question: ' ', answer: '' })).rejects.toMatchObject({
      code: 'INVALID',
      fieldErrors: { question: 'Must not be empty', answer: 'Must not be empty' },
    });
    const { id } = await createRecord(admin, 'faq', faq('Safe?', '<p>Yes<script>alert(1)</script><iframe src="https://x"></iframe></p>'));
    expect((await listFaqs()).find((f) => f.id === id)?.answer).toBe('<p>Yes</p>');
  });

  it('duplicate right after the original; the list shows the answer as text', async () => {
    await createRecord(admin, 'faq', faq('One'));
    await createRecord(admin, 'faq', faq('Two', '<p>Two <strong>bold</strong> words</p>'));
    const copy = await duplicateRecord(admin, 'faq', 'one');
    expect(copy.snapshot).toMatchObject({ question: 'One (copy)' });
    const rows = (await listForAdmin('faq', faqQuery)).rows;
    expect(rows.map((r) => r.id)).toEqual(['one', 'one-copy', 'two']);
    expect(rows[2]).toMatchObject({ subtitle: 'Two bold words', publicPath: undefined, badges: [] });
  });
});

describe('restore the ten default FAQs', () => {
  it('creates the ten built-in FAQs in their order when there are none, each recorded and revertible', async () => {
    // While none are stored, the landing page shows the built-in ten: after the restore it shows the same.
    const before = (await loadLandingPage()).faqs.map((f) => [f.question, f.answer]);
    const result = await restoreDefaultFaqs(admin);
    expect(result.tags).toEqual(['faqs']);
    const stored = await listFaqs();
    expect(stored.map((f) => [f.question, f.answer])).toEqual(DEFAULT_FAQS.map((f) => [f.question, f.answer]));
    expect(stored.map((f) => f.order)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect((await loadLandingPage()).faqs.map((f) => [f.question, f.answer])).toEqual(before);

    const entries = (await activities()).filter((e) => e.entityType === 'faq');
    expect(entries).toHaveLength(10);
    // One transaction writes the ten entries at the same instant: found by their summaries, not their order.
    const summaries = DEFAULT_FAQS.map((f) => `Restored default FAQ “${f.question}”`);
    expect(entries.map((e) => e.summary).sort()).toEqual([...summaries].sort());
    const first = entries.find((e) => e.summary === summaries[0]);
    expect(first).toMatchObject({ action: 'create', actorEmail: 'owner@example.com' });
    await revertChange(admin, entries.find((e) => e.summary === summaries[9])!.id);
    expect(await h.handle.db.select().from(faqs)).toHaveLength(9);
  });

  it('refuses when any FAQ exists, saying so, and adds nothing', async () => {
    await createRecord(admin, 'faq', faq('Our own question'));
    await expect(restoreDefaultFaqs(admin)).rejects.toMatchObject({
      code: 'CONFLICT',
      message: 'There is already 1 FAQ: the ten defaults are only restored into an empty list, so nothing was added.',
    });
    expect(await listIds('faq')).toEqual(['our-own-question']);
    expect((await activities()).filter((e) => e.entityType === 'faq')).toHaveLength(1);
  });

  it('twice at once: one restores, the other is refused, never twenty', async () => {
    const results = await Promise.allSettled([restoreDefaultFaqs(admin), restoreDefaultFaqs(admin)]);
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect(await h.handle.db.select().from(faqs)).toHaveLength(10);
  });

  it('through the Action: a member and a visitor are refused; an admin restores, then is refused', async () => {
    const call = async (browser?: Browser) => {
      const headers = new Headers(browser ? { cookie: browser.cookieHeader } : {});
      const session = await h.auth.api.getSession({ headers });
      const ctx = { locals: session ? { user: session.user, session: session.session } : {}, cache: undefined };
      return (server.admin.faqs.restoreDefaults as unknown as { orThrow(this: unknown, input: unknown): Promise<unknown> }).orThrow.call(ctx, {});
    };
    await expect(call()).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    await expect(call(memberBrowser)).rejects.toMatchObject({ code: 'FORBIDDEN' });
    expect(await h.handle.db.select().from(faqs)).toEqual([]);
    await expect(call(adminBrowser)).resolves.toEqual({ id: '', snapshot: null });
    await expect(call(adminBrowser)).rejects.toMatchObject({ code: 'CONFLICT', message: expect.stringContaining('already 10 FAQs') });
  });
});

describe('the article Actions', () => {
  it('answer a missing alt text as a field error of the form', async () => {
    const headers = new Headers({ cookie: adminBrowser.cookieHeader });
    const session = await h.auth.api.getSession({ headers });
    const ctx = { locals: { user: session!.user, session: session!.session } };
    const create = server.admin.articles.create as unknown as { orThrow(this: unknown, input: unknown): Promise<unknown> };
    const err = (await create.orThrow.call(ctx, { fields: article('Pictured', { featuredImage: image }) }).catch((e: unknown) => e)) as { type: string; issues: unknown[] };
    expect(err.type).toBe('AstroActionInputError');
    expect(err.issues).toContainEqual(expect.objectContaining({ path: ['fields', 'featuredImageAlt'], message: ALT_REQUIRED_MESSAGE }));
    expect(await h.handle.db.select().from(articles)).toEqual([]);
  });
});
