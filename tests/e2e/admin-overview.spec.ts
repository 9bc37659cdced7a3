/**
 * The admin overview's "Site and leads" picture, in Chromium: the 7/30/90-day switch is links with the
 * period in the URL; each period shows its charts with the same numbers as tables, and the tables add up
 * to what the cards say; Chart.js is loaded on /admin and never on a public page. And, with the visits
 * beacon (POST /api/visits, decision 014): a visitor's page views reach the overview while the visitor
 * gets no cookie. Other specs share the server, so counts are compared before and after, never assumed.
 */
import { expect, test, type Page } from './support/fixtures';
import { ADMIN_STATE, freshClientIp } from './support/accounts';
import { allPublicPaths } from './support/public-pages';

test.use({ storageState: ADMIN_STATE });

const PERIODS = [7, 30, 90] as const;
const LEAD_KINDS = ['audit-request', 'chat-lead', 'sign-up', 'book-call', 'call-booked'] as const;
/** A normal desktop Chrome: the analytics count nobody whose user agent says HeadlessChrome (a bot). */
const DESKTOP_CHROME = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
/** A name Chart.js (v4) keeps in its bundle after minifying: a plugin hook. */
const CHART_JS_SIGNATURE = 'beforeDatasetsDraw';

/** A card's raw number (`data-value` on the card's value, not the words around it). */
async function card(page: Page, metric: string): Promise<number> {
  return Number(await page.locator(`[data-metric="${metric}"] > [data-value]`).getAttribute('data-value'));
}

/** The sum of one series' cells in a chart's table (its `data-value`s: the table may be closed). */
function tableSum(page: Page, chart: string, series: string): Promise<number> {
  return page.locator(`[data-chart-table="${chart}"] td[data-series="${series}"]`).evaluateAll((cells) => cells.reduce((sum, td) => sum + Number(td.getAttribute('data-value')), 0));
}

/** Every script a page loads (module imports included) and whether any of them is Chart.js. */
async function loadsChartJs(page: Page, path: string): Promise<{ scripts: string[]; chartJs: boolean }> {
  const bodies: Promise<string>[] = [];
  const scripts: string[] = [];
  const onResponse = (response: import('@playwright/test').Response) => {
    if (response.request().resourceType() !== 'script') return;
    scripts.push(new URL(response.url()).pathname);
    bodies.push(response.text().catch(() => ''));
  };
  page.on('response', onResponse);
  await page.goto(path, { waitUntil: 'networkidle' });
  page.off('response', onResponse);
  return { scripts, chartJs: (await Promise.all(bodies)).some((body) => body.includes(CHART_JS_SIGNATURE)) };
}

test('the period switch is links with the period in the URL; each period’s tables add up to its cards', async ({ page }) => {
  await page.goto('/admin');
  const periods = page.getByRole('navigation', { name: 'Period' });
  // The default period is 30 days.
  await expect(periods.getByRole('link', { name: '30 days' })).toHaveAttribute('aria-current', 'page');

  for (const days of PERIODS) {
    await periods.getByRole('link', { name: `${days} days` }).click();
    await expect(page).toHaveURL(new RegExp(`\\?days=${days}$`));
    await expect(periods.getByRole('link', { name: `${days} days` })).toHaveAttribute('aria-current', 'page');
    await expect(page.locator('[data-period]')).toContainText(`compared with the previous ${days} days`);

    // One row per UTC day, oldest first, today last.
    const today = new Date().toISOString().slice(0, 10);
    for (const chart of ['visitors-per-day', 'leads-per-day']) {
      const rows = page.locator(`[data-chart-table="${chart}"] tbody tr`);
      await expect(rows).toHaveCount(days);
      await expect(rows.last()).toHaveAttribute('data-row', today);
    }

    // The cards say what the tables add up to.
    for (const metric of ['visitors', 'visits', 'views']) expect(await tableSum(page, 'visitors-per-day', metric), metric).toBe(await card(page, metric));
    for (const kind of LEAD_KINDS) expect(await tableSum(page, 'leads-per-day', kind), kind).toBe(await card(page, kind));

    // Every chart is a canvas, or says what will appear there; its table is a disclosure away.
    for (const chart of ['visitors-per-day', 'leads-per-day', 'top-pages', 'top-sources', 'devices']) {
      const figure = page.locator(`[data-admin-chart-figure="${chart}"]`);
      await expect(figure.locator('canvas[data-admin-chart], [data-chart-empty]')).toHaveCount(1);
    }
    const leads = page.locator('[data-admin-chart-figure="leads-per-day"]');
    await expect(leads.getByRole('table')).toBeHidden();
    await leads.getByText('Show as a table').click();
    await expect(leads.getByRole('table', { name: 'Leads per day' })).toBeVisible();
    await expect(leads.getByRole('columnheader', { name: 'Book-a-call clicks' })).toBeVisible();

    // The conversion rate is people ÷ visitors, or "—" when nobody visited.
    const visitors = await card(page, 'visitors');
    const people = Number(await page.locator('[data-metric="people"]').getAttribute('data-value'));
    const rate = page.locator('[data-metric="conversion"] > [data-value]');
    if (visitors === 0) await expect(rate).toHaveText('\u2014');
    else expect(Number(await rate.getAttribute('data-value'))).toBeCloseTo(people / visitors, 10);
  }

  // Anything else in ?days= is the default period, never an error.
  const res = await page.goto('/admin?days=1000');
  expect(res?.status()).toBe(200);
  await expect(page.locator('[data-chart-table="visitors-per-day"] tbody tr')).toHaveCount(30);
});

test('the overview draws its charts with Chart.js; a public page never loads it', async ({ page, browser }) => {
  test.setTimeout(120_000);
  const admin = await loadsChartJs(page, '/admin?days=90');
  expect(admin.chartJs, `Chart.js among ${admin.scripts.join(', ')}`).toBe(true);
  // A drawn chart: Chart.js sized the canvas to its box (an undrawn canvas is 300 × 150).
  const canvas = page.locator('canvas[data-admin-chart]').first();
  if ((await canvas.count()) > 0) await expect.poll(() => canvas.evaluate((c: HTMLCanvasElement) => c.style.boxSizing)).toBe('border-box');

  const visitor = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  const publicPage = await visitor.newPage();
  // Every public page (the static ones and each service, package, demo and article), as a visitor.
  for (const path of await allPublicPaths(visitor.request)) {
    const loaded = await loadsChartJs(publicPage, path);
    expect(loaded.chartJs, `${path} loads ${loaded.scripts.join(', ')}`).toBe(false);
  }
  await visitor.close();
});

/*
 * Needs the visits beacon (POST /api/visits, decision 014) from the analytics ingest: without it the
 * views never arrive and this test fails, on purpose.
 */
test('a visitor’s page views appear in the overview without any cookie being set (needs /api/visits)', async ({ page, browser }) => {
  const views = async () => {
    await page.goto('/admin?days=7');
    const today = new Date().toISOString().slice(0, 10);
    const cell = page.locator(`[data-chart-table="visitors-per-day"] tr[data-row="${today}"] td[data-series="views"]`);
    return { today: Number(await cell.getAttribute('data-value')), card: await card(page, 'views') };
  };
  const before = await views();

  const visitor = await browser.newContext({ storageState: { cookies: [], origins: [] }, userAgent: DESKTOP_CHROME, extraHTTPHeaders: { 'x-real-ip': freshClientIp() } });
  const tab = await visitor.newPage();
  // Each page's beacon is awaited before the next navigation: one sent as a page is left cannot be
  // observed here, and this test is about the overview, not about when the beacon leaves.
  const beaconOf = () => tab.waitForResponse((r) => new URL(r.url()).pathname === '/api/visits');
  for (const path of ['/', '/services']) {
    const answered = beaconOf();
    await tab.goto(path);
    expect((await answered).status(), `the beacon of ${path}`).toBe(204);
  }
  expect(await visitor.cookies()).toEqual([]);
  await visitor.close();

  // Counts are flushed every 2 s. The admin's own browser says HeadlessChrome: a bot, never counted.
  await expect
    .poll(async () => (await views()).today - before.today, { message: 'the visitor’s 2 page views in today’s row (needs POST /api/visits)', timeout: 15_000 })
    .toBeGreaterThanOrEqual(2);
  expect((await views()).card - before.card).toBeGreaterThanOrEqual(2);
});

test('the overview at phone and desktop widths (screenshots for a person to look at)', async ({ page }) => {
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto('/admin?days=30');
    // Nothing sticks out sideways (a phone would scroll the whole page). A data table wider than a phone
    // scrolls inside its own labelled region (WCAG 1.4.10 exempts data tables), which itself must fit.
    const sticking = await page.evaluate((w) => {
      const out = [...document.querySelectorAll('main *')].filter((e) => e.getBoundingClientRect().right > w + 0.5 && !e.parentElement?.closest('[role="region"].overflow-auto, [role="region"].overflow-x-auto'));
      return out.map((e) => `${e.tagName.toLowerCase()}.${String(e.className).slice(0, 60)} → ${Math.round(e.getBoundingClientRect().right)}`);
    }, width);
    expect(sticking).toEqual([]);
    const path = test.info().outputPath(`overview-${width}.png`);
    await page.screenshot({ path, fullPage: true });
    await test.info().attach(`overview-${width}.png`, { path, contentType: 'image/png' });
  }
});
