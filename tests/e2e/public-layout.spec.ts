/**
 * The public layout's edges (issue 20, decision 034): on a phone the floating buttons (scroll, chat) lie
 * over no field, button or link a visitor can see; the page ends with the footer, not with a blank band;
 * the navbar shows the site name whole beside a detail page's back link from 768 px up. With
 * LAYOUT_SCREENSHOTS=<folder> it saves what it checks as pictures.
 */
import { expect, test, type Page } from './support/fixtures';
import { ADMIN_STATE, MEMBER_STATE, gotoHydrated } from './support/accounts';
import { allPublicPaths, STATIC_PUBLIC_PATHS, VIEWPORTS } from './support/public-pages';

const SHOTS = process.env.LAYOUT_SCREENSHOTS;
async function shot(page: Page, name: string, options: { fullPage?: boolean } = {}) {
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/${name}.png`, ...options });
}

const FORM_PAGES = ['/free-audit', '/auth?tab=signup'];
const slug = (path: string) => path.replace(/\W+/g, '-').replace(/^-|-$/g, '');
const DETAIL_KINDS = ['service', 'package', 'demo', 'article'] as const;

/** One detail page of each kind, from the sitemap. */
async function detailPaths(request: Parameters<typeof allPublicPaths>[0]): Promise<string[]> {
  const paths = await allPublicPaths(request);
  return DETAIL_KINDS.map((kind) => {
    const path = paths.find((p) => p.startsWith(`/${kind}/`));
    expect(path, `a ${kind} detail page in the sitemap`).toBeTruthy();
    return path!;
  });
}

const launcher = (page: Page) => page.locator('[data-chat-launcher]');
const scrollButton = (page: Page) => page.locator('[data-scroll-button]');

/** Loads a page and waits until its scripts have shown both floating buttons. */
async function withFloatingButtons(page: Page, path: string) {
  await gotoHydrated(page, path);
  await expect(launcher(page)).toBeVisible();
  await expect(scrollButton(page)).toBeVisible();
}

const scrollTo = (page: Page, top: number) => page.evaluate((y) => window.scrollTo({ top: y, behavior: 'instant' }), top);

/**
 * The inputs, buttons and links a floating button lies over where the visitor would see them: at points
 * of both boxes, the topmost thing under the floating button is the control itself (not a bar the page
 * scrolls behind, as it does behind the sticky navbar). One entry per control and floating button.
 */
function coveredControls(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const floating = [...document.querySelectorAll<HTMLElement>('[data-chat-launcher], [data-scroll-button]')].filter((f) => !f.hidden);
    const controls = [...document.querySelectorAll<HTMLElement>('a[href], button, input:not([type="hidden"]), select, textarea, summary')].filter(
      (c) => c.getClientRects().length > 0 && !floating.some((f) => f.contains(c)),
    );
    const name = (c: HTMLElement) => {
      const label = c.getAttribute('aria-label') || (c as HTMLInputElement).labels?.[0]?.textContent || c.textContent || c.getAttribute('name') || '';
      return `${c.tagName.toLowerCase()} "${label.replace(/\s+/g, ' ').trim().slice(0, 40)}"`;
    };
    const found: string[] = [];
    for (const f of floating) {
      const b = f.getBoundingClientRect();
      for (const c of controls) {
        const r = c.getBoundingClientRect();
        const [x0, x1, y0, y1] = [Math.max(r.left, b.left), Math.min(r.right, b.right), Math.max(r.top, b.top), Math.min(r.bottom, b.bottom)];
        if (x1 - x0 < 1 || y1 - y0 < 1) continue;
        search: for (let x = x0 + 0.5; x < x1; x += 3) {
          for (let y = y0 + 0.5; y < y1; y += 3) {
            const under = document.elementsFromPoint(x, y).find((n) => !f.contains(n));
            if (under && c.contains(under)) {
              found.push(`${f.hasAttribute('data-chat-launcher') ? 'chat launcher' : 'scroll button'} over ${name(c)} at scroll ${Math.round(window.scrollY)}`);
              break search;
            }
          }
        }
      }
    }
    return found;
  });
}

/** Every scroll position from the top to the bottom, a third of a screen apart. */
async function coveredWhileScrolling(page: Page): Promise<string[]> {
  const { max, step } = await page.evaluate(() => ({ max: document.documentElement.scrollHeight - innerHeight, step: Math.round(innerHeight / 3) }));
  const found = new Set<string>();
  for (let y = 0; ; y = Math.min(max, y + step)) {
    await scrollTo(page, y);
    for (const hit of await coveredControls(page)) found.add(hit);
    if (y >= max) break;
  }
  return [...found];
}

/** How far the document goes on below the footer's bottom edge (0 when the footer ends the page). */
const belowFooter = (page: Page) =>
  page.evaluate(() => {
    const footer = document.querySelector('footer')!;
    return Math.round(document.documentElement.scrollHeight - (footer.getBoundingClientRect().bottom + window.scrollY)) || 0;
  });

/** The box of the footer's last line of text (the text itself: its paragraph is as wide as the page). */
const footerLastText = (page: Page) =>
  page.evaluate(() => {
    const range = document.createRange();
    range.selectNodeContents([...document.querySelectorAll('footer p')].at(-1)!);
    const { x, y, width, height } = range.getBoundingClientRect();
    return { x, y, width, height };
  });

test.describe('the floating buttons on a phone', () => {
  // Focus and scrolling land at once (no smooth scrolling to wait for).
  test.use({ viewport: VIEWPORTS.phone, reducedMotion: 'reduce' });

  for (const path of FORM_PAGES) {
    test(`${path}: the chat launcher and the scroll button lie over no field, button or link, wherever the page is scrolled`, async ({ page }) => {
      await withFloatingButtons(page, path);
      await shot(page, `form-${slug(path)}-390`);
      expect(await coveredWhileScrolling(page)).toEqual([]);
      // Tabbing from the top of the page to the form's send button stops with it above the buttons.
      await scrollTo(page, 0);
      const send = page.locator('main form button[type="submit"]:visible').last();
      await send.focus();
      const sendBox = (await send.boundingBox())!;
      const launcherBox = (await launcher(page).boundingBox())!;
      expect(sendBox.y + sendBox.height, 'the send button ends above the launcher').toBeLessThanOrEqual(launcherBox.y);
    });
  }

  test('every public page: no control under a floating button at any scroll position', async ({ page, request }) => {
    test.setTimeout(120_000);
    const paths = [...STATIC_PUBLIC_PATHS, '/auth', ...(await detailPaths(request))];
    for (const path of paths) {
      await withFloatingButtons(page, path);
      expect(await coveredWhileScrolling(page), path).toEqual([]);
    }
  });
});

/** Lighthouse's phone (a 412 px wide touch screen at 1.75 device pixels) and the desktop width. */
const SHIFT_DEVICES = {
  phone: { viewport: { width: 412, height: 823 }, deviceScaleFactor: 1.75, isMobile: true, hasTouch: true },
  desktop: { viewport: VIEWPORTS.desktop },
};

test('nothing moves as the floating buttons and the bar show (no layout shift), on a phone and a desktop', async ({ browser, baseURL }) => {
  for (const [device, options] of Object.entries(SHIFT_DEVICES)) {
    const context = await browser.newContext({ ...options, baseURL });
    await context.addInitScript(() => {
      const w = window as unknown as { shifts: string[] };
      w.shifts = [];
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries() as (PerformanceEntry & { value: number; sources?: { node?: Node }[] })[]) {
          w.shifts.push(`${entry.value.toFixed(4)} ${(entry.sources ?? []).map((s) => (s.node as Element | undefined)?.outerHTML?.slice(0, 60)).join(' | ')}`);
        }
      }).observe({ type: 'layout-shift', buffered: true });
    });
    const page = await context.newPage();
    for (const path of ['/', ...FORM_PAGES]) {
      await withFloatingButtons(page, path);
      await page.waitForLoadState('networkidle');
      expect(await page.evaluate(() => (window as unknown as { shifts: string[] }).shifts), `${path} on a ${device}`).toEqual([]);
    }
    await context.close();
  }
});

test.describe('the page ends with the footer', () => {
  for (const [device, viewport] of Object.entries(VIEWPORTS)) {
    test(`at ${device} width: no blank band under the footer, and its last line shows above the floating buttons`, async ({ page, request }) => {
      await page.setViewportSize(viewport);
      for (const path of ['/', ...FORM_PAGES, (await detailPaths(request))[0]!]) {
        await withFloatingButtons(page, path);
        if (FORM_PAGES.includes(path)) await shot(page, `form-${slug(path)}-${viewport.width}`);
        expect(await belowFooter(page), `${path}: px of page under the footer`).toBe(0);
        await scrollTo(page, 1e6);
        const lastLine = await footerLastText(page);
        for (const button of [launcher(page), scrollButton(page)]) {
          const box = (await button.boundingBox())!;
          const overlaps = lastLine.x < box.x + box.width && box.x < lastLine.x + lastLine.width && lastLine.y < box.y + box.height && box.y < lastLine.y + lastLine.height;
          expect(overlaps, `${path}: the footer's last line under a floating button`).toBe(false);
        }
        if (path === '/') await shot(page, `landing-bottom-${viewport.width}`);
      }
    });
  }
});

const siteName = (page: Page) => page.locator('[data-site-header] [data-home-link] span');

/** The name's text against its box: a name cut with an ellipsis (or hidden for screen readers) is wider. */
async function expectNameWhole(page: Page, label: string) {
  await expect(siteName(page)).toBeVisible();
  const { scrollWidth, clientWidth } = await siteName(page).evaluate((el) => ({ scrollWidth: el.scrollWidth, clientWidth: el.clientWidth }));
  expect(scrollWidth, `${label}: the site name is cut (${scrollWidth} px of text in ${clientWidth} px)`).toBeLessThanOrEqual(clientWidth);
  // Nothing in the navbar runs past the page's edge.
  expect(await page.evaluate(() => document.documentElement.scrollWidth), `${label}: wider than the screen`).toBeLessThanOrEqual(page.viewportSize()!.width);
}

const WIDTHS = [1280, 1024, 768];

test.describe('the site name beside the back link', () => {
  test('every kind of detail page: whole at 1280, 1024 and 768 px, the back link and every nav link shown', async ({ page, request }) => {
    for (const path of await detailPaths(request)) {
      for (const width of WIDTHS) {
        await page.setViewportSize({ width, height: 800 });
        await page.goto(path);
        await expectNameWhole(page, `${path} at ${width} px`);
        await expect(page.locator('[data-back-link]')).toBeVisible();
        for (const link of await page.locator('[data-nav-links] a').all()) await expect(link).toBeVisible();
        if (path.startsWith('/service/')) await shot(page, `detail-header-${width}`);
      }
    }
  });

  test('also for a signed-in member and admin, whose account areas differ', async ({ browser, request, baseURL }) => {
    const [service] = await detailPaths(request);
    for (const [state, role] of [
      [MEMBER_STATE, 'user'],
      [ADMIN_STATE, 'admin'],
    ] as const) {
      const page = await (await browser.newContext({ storageState: state, baseURL })).newPage();
      for (const width of WIDTHS) {
        await page.setViewportSize({ width, height: 800 });
        await page.goto(service!);
        await expect(page.locator('[data-account-area]')).toHaveAttribute('data-state', role);
        await expectNameWhole(page, `${role} at ${width} px`);
      }
      await page.context().close();
    }
  });

  test('the landing page shows the name at 768 px too (it used to hide it between 768 and 1024 px)', async ({ page }) => {
    await page.setViewportSize({ width: 768, height: 800 });
    await page.goto('/');
    await expectNameWhole(page, '/ at 768 px');
  });

  test('on a phone: back arrow, the name and the menu button on one row, nothing past the edge', async ({ page, request }) => {
    const [service] = await detailPaths(request);
    for (const width of [390, 320]) {
      await page.setViewportSize({ width, height: 844 });
      await page.goto(service!);
      await expect(page.locator('[data-back-link]')).toBeVisible();
      await expect(siteName(page)).toBeVisible();
      const menu = (await page.getByRole('button', { name: 'Menu' }).boundingBox())!;
      expect(menu.x + menu.width, `the menu button on screen at ${width} px`).toBeLessThanOrEqual(width);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      if (width === 390) {
        // "Autoflow Agency" fits at 390 px; a longer name would end in an ellipsis instead.
        await expectNameWhole(page, `${service} at 390 px`);
        await shot(page, 'detail-header-390');
      }
    }
  });
});
