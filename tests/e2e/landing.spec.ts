import { expect, test } from './support/fixtures';
import { LANDING_BLOCKS } from '../../src/shared/landing';
import { COPYRIGHT_YEAR, FAQ_PANEL_MAX_HEIGHT_PX } from '../../src/shared/constants';
import { DEMO_BUILDS, DEMO_PACKAGES, DEMO_SERVICES } from '../../src/server/seed/demo-catalog';
import { DEMO_ARTICLES } from '../../src/server/seed/demo-articles';
import { VIEWPORTS } from './support/public-pages';

const activePackages = DEMO_PACKAGES.filter((p) => p.isActive).length;
const publishedArticles = DEMO_ARTICLES.filter((a) => a.published).length;

test.describe('landing page', () => {
  test('shows the ten blocks in the default order', async ({ page }) => {
    await page.goto('/');
    const ids = await page.locator('main section[id]').evaluateAll((els) => els.map((e) => e.id));
    expect(ids.filter((id) => (LANDING_BLOCKS as readonly string[]).includes(id))).toEqual([...LANDING_BLOCKS]);
  });

  test('previews four items per list with View All links showing the totals', async ({ page }) => {
    await page.goto('/');
    await expect(page.locator('#services [data-card="service"]')).toHaveCount(4);
    await expect(page.locator('#packages [data-card="package"]')).toHaveCount(4);
    await expect(page.locator('#demos [data-card="demo"]')).toHaveCount(4);
    await expect(page.locator('#articles [data-card="article"]')).toHaveCount(4);

    const viewAll = (kind: string) => page.locator(`[data-view-all="${kind}"]`);
    await expect(viewAll('services')).toHaveText(`View All Services (${DEMO_SERVICES.length})`);
    await expect(viewAll('services')).toHaveAttribute('href', '/services');
    await expect(viewAll('packages')).toHaveText(`View All Packages (${activePackages})`);
    await expect(viewAll('demos')).toHaveText(`View All Demos (${DEMO_BUILDS.length})`);
    // Seed: the View All Articles link sits under the services section.
    await expect(page.locator('#services').locator(viewAll('articles'))).toHaveText(`View All Articles (${publishedArticles})`);
  });

  test('article previews open in a new tab at /article/{slug}', async ({ page }) => {
    await page.goto('/');
    const links = page.locator('#articles [data-card="article"] a[href^="/article/"]');
    expect(await links.count()).toBeGreaterThanOrEqual(4);
    for (const link of await links.all()) {
      await expect(link).toHaveAttribute('target', '_blank');
      await expect(link).toHaveAttribute('rel', /noopener/);
    }
  });

  test('shows four testimonials', async ({ page }) => {
    await page.goto('/');
    await expect(page.locator('#testimonials blockquote')).toHaveCount(4);
  });

  test('FAQ accordion: ten built-in answers, one open at a time or none, panel at most 500 px', async ({ page }) => {
    await page.goto('/');
    const items = page.locator('#faqs details');
    await expect(items).toHaveCount(10);
    const openCount = () => page.locator('#faqs details[open]').count();
    expect(await openCount()).toBe(0);

    await items.nth(0).locator('summary').click();
    await expect(items.nth(0)).toHaveAttribute('open', '');
    await items.nth(1).locator('summary').click();
    await expect(items.nth(1)).toHaveAttribute('open', '');
    await expect(items.nth(0)).not.toHaveAttribute('open');
    expect(await openCount()).toBe(1);

    const maxHeight = await items.nth(1).locator('[data-faq-answer]').evaluate((el) => getComputedStyle(el).maxHeight);
    expect(maxHeight).toBe(`${FAQ_PANEL_MAX_HEIGHT_PX}px`);

    await items.nth(1).locator('summary').click();
    expect(await openCount()).toBe(0);
  });

  test('the hero phrase rotates every 2 seconds', async ({ page }) => {
    await page.goto('/');
    const active = page.locator('#hero [data-rotator-item][data-active]');
    const first = await active.textContent();
    await expect.poll(() => active.textContent(), { timeout: 3_500 }).not.toBe(first);
  });

  test('rotation pauses under reduced motion', async ({ page }) => {
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.goto('/');
    const active = page.locator('#hero [data-rotator-item][data-active]');
    const first = await active.textContent();
    await page.waitForTimeout(2_600);
    expect(await active.textContent()).toBe(first);
  });

  test('card pictures load the variant their slot needs, not the full-width original', async ({ browser }) => {
    // Card slots are at most 384 px wide on a desktop and 358 px on a 390 px phone.
    for (const { width, scale, file } of [
      { width: 1280, scale: 1, file: /-w400\.webp$/ },
      { width: 390, scale: 1, file: /-w400\.webp$/ },
      { width: 1280, scale: 2, file: /-w800\.webp$/ },
    ]) {
      const context = await browser.newContext({ viewport: { width, height: 900 }, deviceScaleFactor: scale });
      const page = await context.newPage();
      await page.goto('/');
      const img = page.locator('#services [data-card="service"] img').first();
      await img.scrollIntoViewIfNeeded();
      await expect
        .poll(() => img.evaluate((el: HTMLImageElement) => (el.complete ? el.currentSrc : '')), { message: `${width} px at ${scale}x` })
        .toMatch(file);
      await context.close();
    }
  });

  test('book-a-call and CTAs lead to the booking link and the free audit', async ({ page }) => {
    await page.goto('/');
    await expect(page.locator('#hero [data-book-call]')).toHaveAttribute('href', /^https:\/\//);
    await expect(page.locator('#free-audit-cta a[href="/free-audit"]')).toBeVisible();
    await expect(page.locator('#cta a[href^="https://"]')).toBeVisible();
  });
});

test.describe('site chrome', () => {
  test('footer links to privacy, terms, the contact email and social profile, © 2025', async ({ page }) => {
    await page.goto('/services');
    const footer = page.locator('footer');
    await expect(footer.locator('a[href="/privacy"]')).toBeVisible();
    await expect(footer.locator('a[href="/terms"]')).toBeVisible();
    await expect(footer.locator('a[href^="mailto:"]')).toBeVisible();
    await expect(footer.locator('a[href^="https://"]').first()).toBeVisible();
    await expect(footer).toContainText(`© ${COPYRIGHT_YEAR}`);
  });

  test('visitor navigation shows the public links', async ({ page }) => {
    await page.goto('/');
    const nav = page.getByRole('navigation', { name: /main/i });
    for (const name of ['Services', 'Packages', 'Free Audit', 'Articles', 'Demos', 'FAQ']) {
      await expect(nav.getByRole('link', { name, exact: true }).first()).toBeVisible();
    }
  });

  test('Log in remembers the current path for the redirect after login', async ({ page }) => {
    await page.goto('/services');
    await page.getByRole('link', { name: 'Log in' }).first().click();
    await page.waitForURL('**/auth');
    expect(await page.evaluate(() => sessionStorage.getItem('redirectAfterLogin'))).toBe('/services');
  });

  test('on a phone the links sit behind a menu button', async ({ page }) => {
    await page.setViewportSize(VIEWPORTS.phone);
    await page.goto('/');
    const menuButton = page.locator('button[aria-controls="site-menu"]');
    await expect(menuButton).toBeVisible();
    await expect(page.locator('#site-menu')).toBeHidden();
    await menuButton.click();
    await expect(menuButton).toHaveAttribute('aria-expanded', 'true');
    await expect(page.locator('#site-menu').getByRole('link', { name: 'Packages', exact: true })).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(page.locator('#site-menu')).toBeHidden();
  });

  test('the floating scroll button moves down the page', async ({ page }) => {
    await page.goto('/');
    const button = page.locator('[data-scroll-button]');
    await expect(button).toBeVisible();
    await button.click();
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(100);
  });

  test('detail pages have a back button', async ({ page }) => {
    await page.goto(`/service/${DEMO_SERVICES[0]!.id}`);
    await expect(page.getByRole('link', { name: /All services/i }).first()).toHaveAttribute('href', '/services');
  });
});
