/**
 * The site-wide documents as the admin edits them, seen by a visitor on the next request through the
 * route cache (each page is requested until it is a cache hit before the save): the site texts (a hero
 * phrase, the contact email), the landing page layout (reorder with the mouse and the keyboard, hide,
 * live preview, reset) and the SEO entries (the seed's 60/160 cuts in the public head). Every test puts
 * back what it changed, so the other specs see the seeded site.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type APIRequestContext, type Page } from './support/fixtures';
import { PRICE_PROMPT } from '../../src/shared/constants';
import { LANDING_BLOCKS } from '../../src/shared/landing';
import { PUBLIC_NAV_LINKS } from '../../src/shared/navigation';
import { ADMIN_STATE, gotoHydrated } from './support/accounts';
import { VIEWPORTS } from './support/public-pages';
import { scrollSettled } from './support/sortable';

test.use({ storageState: ADMIN_STATE });

/** LAYOUT_SCREENSHOTS=<folder>: the landing editor's preview as pictures (public-layout.spec.ts takes the rest). */
const LAYOUT_SHOTS = process.env.LAYOUT_SCREENSHOTS;

let visitor: APIRequestContext;
test.beforeAll(async ({ playwright, baseURL }) => {
  // No cookies: the admin state of this file must not leak into the visitor's requests.
  visitor = await playwright.request.newContext({ baseURL: baseURL!, storageState: { cookies: [], origins: [] } });
});
test.afterAll(() => visitor.dispose());

/** Asks for `path` until the route cache answers it, so the next check proves the save invalidated it. */
async function cachedAsVisitor(path: string) {
  await visitor.get(path);
  const second = await visitor.get(path);
  expect(second.headers()['x-astro-cache'], `${path} is served from the route cache`).toBe('HIT');
}

async function visitorHtml(path: string) {
  const res = await visitor.get(path);
  expect(res.status()).toBe(200);
  return res.text();
}

const blocksIn = (html: string) =>
  [...html.matchAll(/<section[^>]*\sid="([a-z-]+)"/g)].map((m) => m[1]!).filter((id) => (LANDING_BLOCKS as readonly string[]).includes(id));

const decode = (s: string) => s.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
const headTitle = (html: string) => decode(/<title>([^<]*)<\/title>/.exec(html)?.[1] ?? '');
const metaContent = (html: string, attr: string) => decode(new RegExp(`<meta ${attr} content="([^"]*)"`).exec(html)?.[1] ?? '');

async function saveWithShortcut(page: Page) {
  await page.keyboard.press('ControlOrMeta+s');
  await expect(page.locator('[data-save-state]')).toHaveText('All changes saved');
}

test('site texts: a hero phrase, a testimonial and the contact email reach the landing page and every footer on the next request', async ({ page }) => {
  await cachedAsVisitor('/');
  await cachedAsVisitor('/services');
  await gotoHydrated(page, '/admin/content');
  const phrase = page.getByRole('textbox', { name: 'phrase 2', exact: true });
  const testimonial = page.getByRole('group', { name: 'Testimonial 2' });
  const quote = testimonial.getByLabel('Quote');
  const author = testimonial.getByLabel('Name');
  const email = page.getByLabel('Contact email');
  const original = { phrase: await phrase.inputValue(), quote: await quote.inputValue(), author: await author.inputValue(), email: await email.inputValue() };
  const newQuote = `Since the text-backs went live we answer every missed call, even on Sundays. <b>${Date.now()}</b>`;

  try {
    // Bad input first: told beside the fields, nothing saved.
    await page.getByLabel('Latitude').fill('91');
    await page.getByLabel('Longitude').fill('-181');
    await page.getByLabel('Booking URL').fill('javascript:alert(1)');
    await page.keyboard.press('ControlOrMeta+s');
    await expect(page.getByTestId('editor-invalid')).toBeVisible();
    await expect(page.getByLabel('Latitude')).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByText('Must be at most 90')).toBeVisible();
    await expect(page.getByText('Must be at least -180')).toBeVisible();
    await expect(page.getByText('Must be a full web address starting with https://')).toBeVisible();
    await page.getByLabel('Latitude').fill('');
    await page.getByLabel('Longitude').fill('');
    await page.getByLabel('Booking URL').fill('https://cal.com/autoflow-agency/intro-call');

    // Nothing of the refused save reached the site.
    expect(await visitorHtml('/')).not.toContain('javascript:alert(1)');

    await phrase.fill('missed-call text-backs');
    await quote.fill(newQuote);
    await author.fill('Dr Ada Quill');
    await email.fill('team-e2e@clinic.example');
    await saveWithShortcut(page);

    const landing = await visitorHtml('/');
    expect(landing).toContain('missed-call text-backs');
    // The quote is shown as text: the markup typed into it is escaped, never a tag.
    expect(landing).toContain(newQuote.replace('<b>', '&lt;b&gt;').replace('</b>', '&lt;/b&gt;'));
    expect(landing).toContain('Dr Ada Quill');
    expect(landing).toContain('href="mailto:team-e2e@clinic.example"');
    expect(await visitorHtml('/services')).toContain('href="mailto:team-e2e@clinic.example"');
  } finally {
    await gotoHydrated(page, '/admin/content');
    await page.getByRole('textbox', { name: 'phrase 2', exact: true }).fill(original.phrase);
    await page.getByRole('group', { name: 'Testimonial 2' }).getByLabel('Quote').fill(original.quote);
    await page.getByRole('group', { name: 'Testimonial 2' }).getByLabel('Name').fill(original.author);
    await page.getByLabel('Contact email').fill(original.email);
    await saveWithShortcut(page);
  }
  const restored = await visitorHtml('/');
  expect(restored).not.toContain('missed-call text-backs');
  expect(restored).not.toContain('Dr Ada Quill');
});

test.describe('landing page layout', () => {
  // The frame reloads as the layout changes: a read that meets a navigation counts as "not there yet".
  const previewBlocks = (page: Page) =>
    page
      .frameLocator('[data-landing-preview]')
      .locator('main section[id]')
      .evaluateAll((els) => els.map((e) => e.id))
      .catch(() => null);
  const editorBlocks = (page: Page) => page.locator('[data-landing-blocks] [data-block]').evaluateAll((els) => els.map((e) => e.getAttribute('data-block')));

  async function resetToDefault(page: Page) {
    await gotoHydrated(page, '/admin/landing-page-config');
    const reset = page.getByRole('button', { name: 'Reset to the default order' });
    if (await reset.isDisabled()) return;
    await reset.click();
    const dialog = page.getByRole('dialog', { name: 'Reset the landing page to the default order?' });
    await dialog.getByRole('button', { name: 'Reset and save' }).click();
    await expect(page.locator('[data-save-state]')).toHaveText('All changes saved');
  }

  test('reorder with the mouse and the keyboard, hide a block: the preview and then the landing page follow; reset', async ({ page }) => {
    test.setTimeout(60_000);
    // Tall enough for the whole list: the mouse drags between two handles on screen.
    await page.setViewportSize({ width: 1280, height: 1400 });
    await cachedAsVisitor('/');
    await gotoHydrated(page, '/admin/landing-page-config');
    await expect.poll(() => previewBlocks(page)).toEqual([...LANDING_BLOCKS]);

    try {
      // Mouse: drag the FAQ block by its handle onto the top.
      const from = await page.getByRole('button', { name: 'Move FAQ' }).boundingBox();
      const to = await page.getByRole('button', { name: 'Move Hero' }).boundingBox();
      await page.mouse.move(from!.x + from!.width / 2, from!.y + from!.height / 2);
      await page.mouse.down();
      for (let i = 1; i <= 12; i++) await page.mouse.move(from!.x + from!.width / 2, from!.y + ((to!.y - 10 - from!.y) * i) / 12);
      await page.mouse.up();
      await expect.poll(() => editorBlocks(page)).toEqual(['faqs', ...LANDING_BLOCKS.filter((b) => b !== 'faqs')]);

      // Keyboard: pick up Testimonials (now 8th), move it up two places, drop it; each step is announced
      // (and each key waits for the announcement of the one before, as a screen reader user would).
      const announced = page.locator('[id^="DndLiveRegion"]');
      await page.getByRole('button', { name: 'Move Testimonials' }).focus();
      await page.keyboard.press('Space');
      await expect(announced).toHaveText('Picked up Testimonials, position 8 of 10 landing page blocks.');
      await scrollSettled(page); // the list is measured a frame after the pick-up is announced
      await page.keyboard.press('ArrowUp');
      await expect(announced).toHaveText('Testimonials moved to position 7 of 10.');
      await page.keyboard.press('ArrowUp');
      await expect(announced).toHaveText('Testimonials moved to position 6 of 10.');
      await page.keyboard.press('Space');
      await expect(announced).toHaveText('Testimonials dropped at position 6 of 10.');
      const order = ['faqs', 'hero', 'what-we-build', 'services', 'packages', 'testimonials', 'demos', 'articles', 'free-audit-cta', 'cta'];
      await expect.poll(() => editorBlocks(page)).toEqual(order);

      // Hide the demos.
      await page.getByRole('checkbox', { name: 'Shown: Demos' }).uncheck();
      const visible = order.filter((b) => b !== 'demos');
      await expect(page.locator('[data-save-state]')).toHaveText('Unsaved changes');

      // The live preview follows before saving; visitors still get the saved page.
      await expect.poll(() => previewBlocks(page), { timeout: 15_000 }).toEqual(visible);
      expect(blocksIn(await visitorHtml('/'))).toEqual([...LANDING_BLOCKS]);

      await page.getByRole('button', { name: /^Save/ }).click();
      await expect(page.locator('[data-save-state]')).toHaveText('All changes saved');
      expect(blocksIn(await visitorHtml('/'))).toEqual(visible);

      // Reset: confirmed, saved at once, every block back in the seed's order.
      await cachedAsVisitor('/');
      await page.getByRole('button', { name: 'Reset to the default order' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Reset and save' }).click();
      await expect(page.locator('[data-save-state]')).toHaveText('All changes saved');
      await expect.poll(() => editorBlocks(page)).toEqual([...LANDING_BLOCKS]);
      expect(blocksIn(await visitorHtml('/'))).toEqual([...LANDING_BLOCKS]);
    } finally {
      await resetToDefault(page);
    }
  });

  test("the live preview is the page as a visitor sees it (the visitor's navbar, the price prompts), with the unsaved layout", async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 1000 });
    // The preview asks for no session: a visitor has none, and with the admin's the navbar became the admin's.
    const sessionReads: string[] = [];
    page.on('request', (req) => {
      if (req.url().includes('/api/auth/get-session') && req.frame() !== page.mainFrame()) sessionReads.push(req.frame().url());
    });
    await gotoHydrated(page, '/admin/landing-page-config');
    await expect.poll(() => previewBlocks(page)).toEqual([...LANDING_BLOCKS]);
    // An unsaved change: the preview follows it.
    await page.getByRole('checkbox', { name: 'Shown: Demos' }).uncheck();
    await expect(page.locator('[data-save-state]')).toHaveText('Unsaved changes');
    await expect.poll(() => previewBlocks(page), { timeout: 15_000 }).toEqual(LANDING_BLOCKS.filter((b) => b !== 'demos'));

    const frame = (await (await page.locator('[data-landing-preview]').elementHandle())!.contentFrame())!;
    await frame.waitForLoadState('networkidle');
    const preview = page.frameLocator('[data-landing-preview]');
    await expect(preview.locator('[data-nav-links] a')).toHaveText(PUBLIC_NAV_LINKS.map((l) => l.label));
    await expect(preview.locator('[data-account-area]').getByRole('link', { name: 'Log in' })).toBeVisible();
    await expect(preview.locator('[data-account-area]').getByRole('link', { name: /Book a call/ })).toBeVisible();
    await expect(preview.locator('[data-account-name], [data-logout]')).toHaveCount(0);
    await expect(preview.locator('[data-price-slot]').first()).toContainText(PRICE_PROMPT);
    expect(sessionReads).toEqual([]);
    if (LAYOUT_SHOTS) await page.locator('[aria-labelledby="landing-preview-title"]').screenshot({ path: `${LAYOUT_SHOTS}/landing-editor-preview-1280.png` });

    // At phone width (390 px) in the frame: the visitor's navbar folds into its menu button.
    await page.getByRole('button', { name: 'Phone' }).click();
    await expect(preview.locator('[data-menu-toggle]')).toBeVisible();
    if (LAYOUT_SHOTS) await page.locator('[aria-labelledby="landing-preview-title"]').screenshot({ path: `${LAYOUT_SHOTS}/landing-editor-preview-390.png` });
    // Nothing was saved: visitors still get every block.
    expect(blocksIn(await visitorHtml('/'))).toEqual([...LANDING_BLOCKS]);
  });

  test('the preview layout is for admins only: a visitor asking for it gets the stored page, never cached', async () => {
    const res = await visitor.get('/?preview&layout=cta');
    expect(res.headers()['cache-control']).toContain('no-store');
    expect(res.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(blocksIn(await res.text())).toEqual([...LANDING_BLOCKS]);
  });
});

test('SEO: a title over 60 and a description over 160 characters reach the public head cut to 57 and 157 plus "..."', async ({ page }) => {
  const siteName = headTitle(await visitorHtml('/services')).replace(/^Services \| /, '');
  await cachedAsVisitor('/services');
  await gotoHydrated(page, '/admin/seo?page=%2Fservices');
  const title = 'Automation services that answer, follow up and book clients for you';
  const description = `${'Every enquiry answered in under a minute, every lead followed up until it books, every reminder sent on time. '.repeat(2)}`.trim();
  expect(title.length).toBeGreaterThan(60);
  expect(description.length).toBeGreaterThan(160);
  const cutTitle = `${`${title} | ${siteName}`.slice(0, 57)}...`;
  const cutDescription = `${description.slice(0, 157)}...`;

  try {
    await page.getByLabel('Title', { exact: true }).fill(title);
    await page.getByLabel('Description', { exact: true }).fill(description);
    // The preview applies the head's cuts before saving, and the counters say so.
    await expect(page.locator('[data-preview-title]')).toHaveText(cutTitle);
    await expect(page.locator('[data-preview-description]')).toHaveText(cutDescription);
    await expect(page.locator('[data-counter="Title"]')).toContainText(`over by ${`${title} | ${siteName}`.length - 60}`);
    await saveWithShortcut(page);

    const html = await visitorHtml('/services');
    expect(headTitle(html)).toBe(cutTitle);
    expect(metaContent(html, 'name="description"')).toBe(cutDescription);
    expect(metaContent(html, 'property="og:title"')).toBe(cutTitle);
    expect(metaContent(html, 'name="twitter:description"')).toBe(cutDescription);
  } finally {
    await gotoHydrated(page, '/admin/seo?page=%2Fservices');
    await page.getByLabel('Title', { exact: true }).fill('');
    await page.getByLabel('Description', { exact: true }).fill('');
    await saveWithShortcut(page);
  }
  expect(headTitle(await visitorHtml('/services'))).toBe(`Services | ${siteName}`);
});

test('the hub links every content type, the policies, the layout, SEO and the content file', async ({ page }) => {
  await gotoHydrated(page, '/admin/content');
  const hrefs = await page.locator('section[aria-labelledby="content-types"] a, section[aria-labelledby="site-pages"] a').evaluateAll((links) => links.map((a) => a.getAttribute('href')));
  expect(hrefs).toEqual([
    '/admin/services',
    '/admin/packages',
    '/admin/demos',
    '/admin/articles',
    '/admin/faqs',
    '/admin/content/privacy',
    '/admin/content/terms',
    '/admin/landing-page-config',
    '/admin/seo',
    '/admin/content/transfer',
  ]);
});

// One test per page and width: axe on a hydrated admin page takes seconds, and each stays well within its time.
for (const [width, viewport] of Object.entries(VIEWPORTS)) {
  for (const path of ['/admin/content', '/admin/landing-page-config', '/admin/seo?page=%2F', '/admin/seo?page=%2F*']) {
    test(`axe-core finds nothing on ${path} at ${width} width`, async ({ page }) => {
      await page.setViewportSize(viewport);
      await gotoHydrated(page, path);
      // The live preview frame holds the public landing page, which the public pages' axe spec covers.
      const { violations } = await new AxeBuilder({ page }).exclude('[data-landing-preview]').withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
      const failures = violations.map((v) => `${v.id} (${v.impact}) — ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')}`);
      expect(failures, failures.join('\n')).toEqual([]);
    });
  }
}
