/**
 * The admin's articles and FAQs, end to end in Chromium, and what a visitor sees change through the route
 * cache: /articles and its tag pages, /article/{slug}, the sitemap, the landing page's latest articles and
 * its FAQ accordion.
 *
 * The server is shared with the other specs: this file works on records it creates and deletes them, and
 * leaves the FAQs as the demo content has them (none stored: the landing page shows its ten built-in ones),
 * also when a step fails (afterAll).
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Browser, type BrowserContext, type Page } from './support/fixtures';
import { DEFAULT_FAQS } from '../../src/shared/default-faqs';
import { ADMIN_STATE, gotoHydrated, islandsHydrated, MEMBER_STATE } from './support/accounts';
import { dragTo, moveByKeyboard } from './support/sortable';
import { fillRichHtml } from './support/rich-text';
import { VIEWPORTS } from './support/public-pages';

// Serial: each step builds on the record the one before made. The server is shared with other agents'
// work on a small machine, so a step gets more than the default 30 s (no step asserts a duration).
test.describe.configure({ mode: 'serial', timeout: 90_000 });
test.use({ storageState: ADMIN_STATE });
// Leaving an editor with unsaved changes asks first: the specs leave.
test.beforeEach(({ page }) => {
  page.on('dialog', (dialog) => void dialog.accept());
});

const unique = Date.now().toString(36);
const TITLE = `Missed Calls Playbook ${unique}`;
const SLUG = `missed-calls-playbook-${unique}`;
const RENAMED = `after-hours-calls-${unique}`;
const NEW_TITLE = `After-Hours Calls Playbook ${unique}`;
// Tags no demo article has, so their tag pages list only this spec's article.
const TAG = `Missed calls ${unique}`;
const NEW_TAG = `After hours ${unique}`;

let visitor: BrowserContext;
let visitorPage: Page;
test.beforeAll(async ({ browser }) => {
  visitor = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  visitorPage = await visitor.newPage();
});
test.afterAll(async () => {
  await visitor.close();
});

/** What a visitor gets at `path`: status and page. */
async function asVisitor(path: string) {
  const response = await visitorPage.goto(path);
  return { status: response?.status() ?? 0, page: visitorPage };
}

const landingArticleTitles = async () => {
  await asVisitor('/');
  const titles = await visitorPage.locator('#articles [data-card="article"] .card-title').allInnerTexts();
  return titles.map((t) => t.replace(/\s*\(opens in a new tab\)$/, ''));
};
/** A tag's page, /articles?tag={tag}: its status (404 once no published article has the tag) and titles. */
async function tagPage(tag: string) {
  const { status } = await asVisitor(`/articles?${new URLSearchParams({ tag })}`);
  return { status, titles: status === 200 ? await visitorPage.locator('[data-card="article"] .card-title').allInnerTexts() : [] };
}
/** The tags /articles offers to filter by (each with its count). */
async function offeredTags() {
  await asVisitor('/articles');
  return (await visitorPage.getByRole('navigation', { name: 'Filter articles by tag' }).getByRole('link').allInnerTexts()).join(' | ');
}
const sitemap = async () => (await visitorPage.request.get('/sitemap.xml')).text();
const landingFaqs = async () => {
  await asVisitor('/');
  return visitorPage.locator('#faqs details summary').allInnerTexts();
};

async function confirmDelete(page: Page) {
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Delete' }).click();
}

async function axeFailures(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
  return violations.map((v) => `${page.url()}: ${v.id} — ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')}`);
}

test.describe('articles', () => {
  let editorPath = '';
  /** The demo picture the new article borrows: its one alt text is changed by the article (decision 033). */
  let borrowed: { id: string; alt: string } | undefined;
  test.afterAll(async ({ browser, baseURL }) => {
    if (!borrowed) return;
    const context = await browser.newContext({ storageState: ADMIN_STATE });
    const origin = new URL(baseURL!).origin;
    const res = await context.request.patch(`/api/admin/media/${borrowed.id}`, { headers: { origin }, data: { alt: borrowed.alt } });
    expect(res.status()).toBe(200);
    await context.close();
  });

  test('create: the slug follows the title, alt text is required with a picture, tags; the site shows it', async ({ page }) => {
    // A picture the site already serves (a demo article's).
    await gotoHydrated(page, '/admin/articles');
    const picture = await page.locator('[data-row] img').first().getAttribute('src');
    expect(picture).toMatch(/^\/media\//);
    const pictureId = /^\/media\/([0-9a-f]{32})/.exec(picture!)![1]!;
    borrowed = { id: pictureId, alt: ((await (await page.request.get(`/api/admin/media/${pictureId}`)).json()) as { alt: string }).alt };

    await page.getByRole('link', { name: 'New article' }).click();
    await islandsHydrated(page);
    await page.getByLabel('Title').fill(TITLE);
    const slug = page.getByLabel('Slug');
    await expect(slug).toHaveValue(SLUG);
    await expect(page.getByText(`/article/${SLUG}`, { exact: true })).toBeVisible();
    await page.getByLabel('Excerpt').fill('What to do with the calls nobody answers.');
    await fillRichHtml(page, 'Content', '<h2>Call back fast</h2><p>Every missed call gets a text within a minute.</p>');
    await page.getByLabel('Image URL').fill(picture!);
    await page.getByLabel('Author name').fill('Olive Owner');

    // Tags: a new one with Enter, one from the suggestions by keyboard, one with a comma; Backspace removes.
    const tags = page.getByRole('combobox', { name: 'Tags' });
    await tags.fill(TAG);
    await tags.press('Enter');
    await tags.fill('lead');
    await expect(page.getByRole('listbox', { name: 'Tags in use' })).toBeVisible();
    await tags.press('ArrowDown');
    const picked = (await page.getByRole('option', { selected: true }).innerText()).trim();
    await tags.press('Enter');
    await tags.pressSequentially('oops,');
    await tags.press('Backspace');
    await expect(page.getByRole('button', { name: /^Remove tag/ })).toHaveCount(2);
    await expect(page.getByRole('button', { name: `Remove tag “${picked}”` })).toBeVisible();

    await page.getByLabel('Published').check();
    await page.getByRole('button', { name: /Create article/ }).click();
    // No alt text: told beside the field, focused, nothing created.
    const alt = page.getByLabel('Alt text');
    await expect(alt).toHaveAttribute('aria-invalid', 'true');
    await expect(alt).toBeFocused();
    await expect(page.getByText('Describe the picture for people who cannot see it')).toBeVisible();
    await alt.fill('A phone showing a missed call and a text reply');
    await page.getByRole('button', { name: /Create article/ }).click();
    await page.waitForURL(/\/admin\/articles\/(?!new)[^/?]+(\?|$)/);
    editorPath = new URL(page.url()).pathname;
    await expect(page.getByLabel('Slug')).toHaveValue(SLUG);

    // A visitor sees it everywhere at once, through the route cache.
    expect((await asVisitor(`/article/${SLUG}`)).status).toBe(200);
    await expect(visitorPage.getByRole('heading', { level: 1 })).toHaveText(TITLE);
    await expect(visitorPage.getByRole('img', { name: 'A phone showing a missed call and a text reply' })).toBeVisible();
    await asVisitor('/articles');
    await expect(visitorPage.locator('[data-card="article"] .card-title').first()).toHaveText(TITLE);
    expect((await landingArticleTitles())[0]).toBe(TITLE);
    expect(await tagPage(TAG)).toEqual({ status: 200, titles: [TITLE] });
    expect(await offeredTags()).toContain(TAG);
    expect(await sitemap()).toContain(`/article/${SLUG}</loc>`);

    // Articles keep the public order, newest first: the admin list shows it first and offers no dragging.
    await gotoHydrated(page, '/admin/articles');
    await expect(page.locator('[data-row] a').first()).toHaveText(TITLE);
    await expect(page.getByRole('button', { name: /^Move / })).toHaveCount(0);
  });

  test('edit: a new title and tags show on its page, the lists, the tag pages and the landing page', async ({ page }) => {
    await asVisitor(`/article/${SLUG}`); // cached now
    await tagPage(TAG);
    await gotoHydrated(page, editorPath);
    await page.getByLabel('Title').fill(NEW_TITLE);
    await page.getByRole('button', { name: `Remove tag “${TAG}”` }).click();
    await page.getByRole('combobox', { name: 'Tags' }).fill(NEW_TAG);
    await page.getByRole('combobox', { name: 'Tags' }).press('Enter');
    // A saved article keeps its address when the title changes.
    await expect(page.getByLabel('Slug')).toHaveValue(SLUG);
    await page.keyboard.press('Control+s');
    await expect(page.locator('[data-save-state]')).toHaveText('All changes saved');
    await asVisitor(`/article/${SLUG}`);
    await expect(visitorPage.getByRole('heading', { level: 1 })).toHaveText(NEW_TITLE);
    await expect(visitorPage.getByRole('link', { name: NEW_TAG })).toBeVisible();
    expect((await landingArticleTitles())[0]).toBe(NEW_TITLE);
    expect(await tagPage(NEW_TAG)).toEqual({ status: 200, titles: [NEW_TITLE] });
    // The old tag's page was cached with the article on it: now no article has it.
    expect((await tagPage(TAG)).status).toBe(404);
    const offered = await offeredTags();
    expect(offered).toContain(NEW_TAG);
    expect(offered).not.toContain(TAG);
  });

  test('unpublish: visitors and members get 404; the admin previews it at its address, private and marked', async ({ page, browser }) => {
    await gotoHydrated(page, editorPath);
    await page.getByLabel('Published').uncheck();
    await page.getByRole('button', { name: /^Save/ }).click();
    await expect(page.locator('[data-save-state]')).toHaveText('All changes saved');

    expect((await asVisitor(`/article/${SLUG}`)).status).toBe(404);
    expect((await asVisitor(`/article/${SLUG}?preview`)).status).toBe(404);
    expect(await landingArticleTitles()).not.toContain(NEW_TITLE);
    await asVisitor('/articles');
    await expect(visitorPage.getByText(NEW_TITLE)).toHaveCount(0);
    await expectMemberGets404(browser, `/article/${SLUG}?preview`);

    // "View on site" opens the preview of the draft.
    const view = page.getByRole('link', { name: /View on site/ });
    await expect(view).toHaveAttribute('href', `/article/${SLUG}?preview`);
    const response = await page.goto(`/article/${SLUG}?preview`);
    expect(response?.status()).toBe(200);
    expect(response?.headers()['cache-control']).toContain('no-store');
    await expect(page.locator('[data-preview-bar]')).toContainText('Preview — not public');
    await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', /noindex/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(NEW_TITLE);
    await expect(page.locator('[data-preview-bar]').getByRole('link', { name: 'Edit' })).toHaveAttribute('href', editorPath);

    // The admin list marks it a draft, and can show only drafts.
    await gotoHydrated(page, '/admin/articles?filter=draft');
    await expect(page.locator('[data-row]').filter({ hasText: NEW_TITLE }).getByText('Draft', { exact: true })).toBeVisible();
  });

  test('publish and rename the slug: the old address answers 301 to the new one, also after a second rename', async ({ page }) => {
    await gotoHydrated(page, editorPath);
    await page.getByLabel('Published').check();
    await page.getByRole('button', { name: /^Save/ }).click();
    await expect(page.locator('[data-save-state]')).toHaveText('All changes saved');
    expect((await asVisitor(`/article/${SLUG}`)).status).toBe(200);
    expect(await sitemap()).toContain(`/article/${SLUG}</loc>`); // cached now

    const slug = page.getByLabel('Slug');
    await slug.fill(`${RENAMED}-first`);
    await page.getByRole('button', { name: /^Save/ }).click();
    await expect(page.locator('[data-save-state]')).toHaveText('All changes saved');
    await slug.fill(RENAMED);
    await expect(page.getByText(`the old address /article/${RENAMED}-first will redirect here`)).toBeVisible();
    await page.getByRole('button', { name: /^Save/ }).click();
    await expect(page.locator('[data-save-state]')).toHaveText('All changes saved');
    await expect(page.getByRole('link', { name: /View on site/ })).toHaveAttribute('href', `/article/${RENAMED}`);

    for (const old of [SLUG, `${RENAMED}-first`]) {
      const moved = await visitorPage.request.get(`/article/${old}`, { maxRedirects: 0 });
      expect(moved.status()).toBe(301);
      expect(new URL(moved.headers().location!, 'http://x').pathname).toBe(`/article/${RENAMED}`);
    }
    expect((await asVisitor(`/article/${SLUG}`)).status).toBe(200);
    expect(new URL(visitorPage.url()).pathname).toBe(`/article/${RENAMED}`);
    await expect(visitorPage.getByRole('heading', { level: 1 })).toHaveText(NEW_TITLE);
    expect((await landingArticleTitles())[0]).toBe(NEW_TITLE);

    // The sitemap lists only the new address.
    const map = await sitemap();
    expect(map).toContain(`/article/${RENAMED}</loc>`);
    expect(map).not.toContain(`/article/${SLUG}</loc>`);
    expect(map).not.toContain(`/article/${RENAMED}-first</loc>`);
  });

  test('bad input: a slug another article has and a 100 KB title are told beside the field; nothing is saved', async ({ page }) => {
    // A demo article's address.
    await asVisitor('/articles');
    const taken = (await visitorPage.locator('[data-card="article"] a[href^="/article/"]').last().getAttribute('href'))!.replace('/article/', '');
    expect(taken).not.toBe(RENAMED);

    // A new article with that slug: the server says which field, and creates nothing.
    const title = `Taken slug ${unique}`;
    await gotoHydrated(page, '/admin/articles/new');
    await page.getByLabel('Title').fill(title);
    await page.getByLabel('Slug').fill(taken);
    await page.getByRole('button', { name: /Create article/ }).click();
    await expect(page.getByLabel('Slug')).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByText('Another article already uses this slug.')).toBeVisible();
    await expect(page.locator('[data-save-state]')).toHaveText('Unsaved changes');
    expect(new URL(page.url()).pathname).toBe('/admin/articles/new');

    // The saved article given that slug: refused, its address unchanged.
    await gotoHydrated(page, editorPath);
    await page.getByLabel('Slug').fill(taken);
    await page.getByRole('button', { name: /^Save/ }).click();
    await expect(page.getByText('Another article already uses this slug.')).toBeVisible();
    await expect(page.locator('[data-save-state]')).toHaveText('Unsaved changes');

    // A 100 KB title pasted: the field is capped and says what the limit is; nothing is sent.
    await page.getByLabel('Slug').fill(RENAMED);
    await page.getByLabel('Title').fill('Calls '.repeat(17_000));
    await page.getByRole('button', { name: /^Save/ }).click();
    const titleField = page.getByLabel('Title');
    await expect(titleField).toHaveAttribute('aria-invalid', 'true');
    await expect(titleField).toBeFocused();
    await expect(titleField).toHaveAccessibleDescription(/at most 200 characters/i);

    // The same title sent to the Action without the form: a 400 naming the field, not a 500.
    const origin = new URL(page.url()).origin;
    const response = await page.request.post('/_actions/admin.articles.create', { data: { fields: { title: 'x'.repeat(100_000) } }, headers: { origin } });
    expect(response.status()).toBe(400);
    const body = (await response.json()) as { issues?: { path: (string | number)[] }[] };
    expect(body.issues?.map((i) => i.path.join('.'))).toContain('fields.title');

    // Nothing of it reached the site or the list.
    expect((await asVisitor(`/article/${RENAMED}`)).status).toBe(200);
    await expect(visitorPage.getByRole('heading', { level: 1 })).toHaveText(NEW_TITLE);
    await gotoHydrated(page, `/admin/articles?${new URLSearchParams({ q: unique })}`);
    expect(await page.locator('[data-row] a[href^="/admin/articles/"]').allInnerTexts()).toEqual([NEW_TITLE]);
    // The unsaved edit was kept in this browser: the editor offers it back; discard it.
    await gotoHydrated(page, editorPath);
    await expect(page.getByLabel('Title')).toHaveValue(NEW_TITLE);
    await page.getByTestId('draft-offer').getByRole('button', { name: 'Discard' }).click();
    await expect(page.getByTestId('draft-offer')).toHaveCount(0);
  });

  test('duplicate: an unpublished copy with its own slug; delete both and the site forgets them', async ({ page }) => {
    await gotoHydrated(page, editorPath);
    await page.getByRole('button', { name: 'Duplicate' }).click();
    await page.waitForURL((url) => url.pathname !== editorPath && url.pathname.startsWith('/admin/articles/'));
    // The copy's editor is a page load: its Delete button works once its island has hydrated.
    await islandsHydrated(page);
    await expect(page.getByLabel('Title')).toHaveValue(`${NEW_TITLE} (copy)`);
    await expect(page.getByLabel('Slug')).toHaveValue(`${RENAMED}-copy`);
    await expect(page.getByLabel('Published')).not.toBeChecked();
    expect((await asVisitor(`/article/${RENAMED}-copy`)).status).toBe(404);

    // Delete the copy from its editor, the original from the list.
    await page.getByRole('button', { name: 'Delete' }).click();
    await confirmDelete(page);
    await page.waitForURL(/\/admin\/articles(\?|$)/);
    await islandsHydrated(page);
    await expect(page.locator('[data-row]').filter({ hasText: `${NEW_TITLE} (copy)` })).toHaveCount(0);
    await page.getByRole('button', { name: `Delete “${NEW_TITLE}”` }).click();
    await confirmDelete(page);
    await expect(page.locator('[data-row]').filter({ hasText: NEW_TITLE })).toHaveCount(0);
    await page.reload();
    await expect(page.locator('[data-row]').filter({ hasText: NEW_TITLE })).toHaveCount(0);

    expect((await asVisitor(`/article/${RENAMED}`)).status).toBe(404);
    await asVisitor('/articles');
    await expect(visitorPage.getByText(NEW_TITLE)).toHaveCount(0);
    expect(await landingArticleTitles()).not.toContain(NEW_TITLE);
    expect((await tagPage(NEW_TAG)).status).toBe(404);
    expect(await offeredTags()).not.toContain(NEW_TAG);
    expect(await sitemap()).not.toContain(`/article/${RENAMED}</loc>`);
  });
});

async function expectMemberGets404(browser: Browser, path: string) {
  const member = await browser.newContext({ storageState: MEMBER_STATE });
  const response = await (await member.newPage()).goto(path);
  expect(response?.status()).toBe(404);
  await member.close();
}

test.describe('FAQs', () => {
  const QUESTION = `Do you work weekends? ${unique}`;
  const EDITED = `Do you answer leads at weekends? ${unique}`;
  const defaults = DEFAULT_FAQS.map((f) => f.question);

  /** Removes every stored FAQ through the Action (the seed stores none). */
  async function removeAllFaqs(page: Page) {
    await page.goto('/admin/faqs');
    const ids = await page.locator('[data-row]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-row')!));
    for (const id of ids) {
      const res = await page.request.post('/_actions/admin.faqs.remove', { data: { id }, headers: { origin: new URL(page.url()).origin } });
      expect(res.ok()).toBe(true);
    }
  }

  test.afterAll(async ({ browser }) => {
    const context = await browser.newContext({ storageState: ADMIN_STATE });
    await removeAllFaqs(await context.newPage());
    await context.close();
  });

  test('the empty list restores the ten defaults; the landing page shows the same ten', async ({ page }) => {
    await removeAllFaqs(page);
    expect(await landingFaqs()).toEqual(defaults);
    await gotoHydrated(page, '/admin/faqs');
    await expect(page.locator('[data-empty-state]')).toContainText('No FAQs yet.');
    await page.getByRole('button', { name: 'Restore the ten defaults' }).click();
    await expect(page.locator('[data-row]')).toHaveCount(10);
    expect(await page.locator('[data-row] a').allInnerTexts()).toEqual(defaults);
    expect(await landingFaqs()).toEqual(defaults);
  });

  test('create and edit: the accordion shows the new question last, then its new words', async ({ page }) => {
    await gotoHydrated(page, '/admin/faqs/new');
    await page.getByRole('button', { name: /Create FAQ/ }).click();
    await expect(page.getByLabel('Question')).toHaveAttribute('aria-invalid', 'true');
    await page.getByLabel('Question').fill(QUESTION);
    await fillRichHtml(page, 'Answer', '<p>Yes: replies go out <strong>every day</strong>.</p><script>alert(1)</script>');
    await page.getByRole('button', { name: /Create FAQ/ }).click();
    await page.waitForURL(/\/admin\/faqs\/(?!new)[^/?]+(\?|$)/);
    await expect(page.getByText('Number 11 of 11')).toBeVisible();
    expect(await landingFaqs()).toEqual([...defaults, QUESTION]);
    await expect(visitorPage.locator('#faqs details').last().locator('[data-faq-answer]')).toContainText('every day', { useInnerText: false });
    expect(await visitorPage.locator('#faqs script').count()).toBe(0);

    await page.getByLabel('Question').fill(EDITED);
    await page.keyboard.press('Control+s');
    await expect(page.locator('[data-save-state]')).toHaveText('All changes saved');
    expect((await landingFaqs()).at(-1)).toBe(EDITED);
  });

  test('reorder with the mouse: drag to the top', async ({ page }) => {
    // The whole list on screen: the pointer drags between two points of the viewport.
    await page.setViewportSize({ width: 1280, height: 1400 });
    await gotoHydrated(page, '/admin/faqs');
    const handle = page.getByRole('button', { name: `Move ${EDITED}` });
    const first = page.locator('[data-row]').first();
    await dragTo(page, handle, first);
    await expect(page.locator('[data-row] a').first()).toHaveText(EDITED);
    // Saved on the server: the accordion follows, and so does the list when loaded again.
    await expect.poll(async () => (await landingFaqs())[0]).toBe(EDITED);
    await page.reload();
    await expect(page.locator('[data-row] a').first()).toHaveText(EDITED);
  });

  test('reorder with the keyboard: Space, arrows, Space', async ({ page }) => {
    await gotoHydrated(page, '/admin/faqs');
    await moveByKeyboard(page, EDITED, 1, 3);
    await expect(page.locator('[data-row] a').nth(2)).toHaveText(EDITED);
    await expect.poll(landingFaqs).toEqual([defaults[0], defaults[1], EDITED, ...defaults.slice(2)]);
  });

  test('duplicate: the copy comes right after the original, in the list and the accordion', async ({ page }) => {
    await gotoHydrated(page, '/admin/faqs');
    await page.getByRole('button', { name: `Duplicate “${EDITED}”` }).click();
    await page.waitForURL(/\/admin\/faqs\/[^/?]+\?notice=duplicated/);
    await expect(page.getByLabel('Question')).toHaveValue(`${EDITED} (copy)`);
    await expect(page.getByText('Number 4 of 12')).toBeVisible();
    expect(await landingFaqs()).toEqual([defaults[0], defaults[1], EDITED, `${EDITED} (copy)`, ...defaults.slice(2)]);
  });

  test('delete: from the editor and from the list; the accordion is the ten defaults again, in their order', async ({ page }) => {
    await gotoHydrated(page, '/admin/faqs');
    await page.locator('[data-row] a', { hasText: `${EDITED} (copy)` }).click();
    await islandsHydrated(page);
    await page.getByRole('button', { name: 'Delete' }).click();
    await confirmDelete(page);
    await page.waitForURL(/\/admin\/faqs(\?|$)/);
    await islandsHydrated(page);
    await expect(page.locator('[data-row]')).toHaveCount(11);
    await page.getByRole('button', { name: `Delete “${EDITED}”` }).click();
    await confirmDelete(page);
    await expect(page.locator('[data-row]')).toHaveCount(10);
    await expect.poll(landingFaqs).toEqual(defaults);
  });
});


test('the article and FAQ admin pages pass axe-core at phone and desktop widths', async ({ page }) => {
  // Ten pages analysed on a shared machine: more than one step's time, no duration asserted.
  test.setTimeout(180_000);
  const failures: string[] = [];
  for (const viewport of Object.values(VIEWPORTS)) {
    await page.setViewportSize(viewport);
    for (const path of ['/admin/articles', '/admin/articles/new', '/admin/faqs', '/admin/faqs/new']) {
      await gotoHydrated(page, path);
      failures.push(...(await axeFailures(page)));
    }
    // The tags field with its suggestions open, and an article with its errors showing.
    await gotoHydrated(page, '/admin/articles/new');
    await page.getByLabel('Image URL').fill('https://example.com/a.jpg');
    await page.getByRole('button', { name: /Create article/ }).click();
    await page.getByRole('combobox', { name: 'Tags' }).fill('a');
    failures.push(...(await axeFailures(page)));
  }
  expect(failures, failures.join('\n')).toEqual([]);
});
