/**
 * Member prices: a verified member sees formatted prices in every price slot and on the dashboard; the
 * prices arrive only through /api/prices, so the HTML itself never contains one, for members either.
 */
import { expect, test, type Page } from './support/fixtures';
import { DEMO_PACKAGES, DEMO_SERVICES } from '../../src/server/seed/demo-catalog';
import { PRICE_PROMPT } from '../../src/shared/constants';
import { formatMoney } from '../../src/shared/money';
import { MEMBER_STATE } from './support/accounts';

const activePackages = DEMO_PACKAGES.filter((p) => p.isActive);
const pkg = activePackages[0]!;
const service = DEMO_SERVICES[0]!;
const servicePrice = new Map(DEMO_SERVICES.map((s) => [s.id, s.price]));
const packagePrice = new Map(DEMO_PACKAGES.map((p) => [p.id, p]));
const priceTexts = [
  ...new Set([...DEMO_SERVICES.map((s) => formatMoney(s.price)), ...DEMO_PACKAGES.flatMap((p) => [formatMoney(p.priceSetup), formatMoney(p.priceMonthly)])]),
];

/** Every slot on the page shows exactly its own item's prices. */
async function expectRevealed(page: Page) {
  const slots = page.locator('[data-price-slot]');
  await expect(slots.first()).toHaveAttribute('data-price-state', 'revealed');
  const all = await slots.evaluateAll((els) =>
    els.map((el) => ({
      kind: (el as HTMLElement).dataset.priceKind,
      id: (el as HTMLElement).dataset.priceId!,
      state: (el as HTMLElement).dataset.priceState,
      text: el.textContent ?? '',
    })),
  );
  expect(all.length).toBeGreaterThan(0);
  for (const slot of all) {
    expect(slot.state, slot.id).toBe('revealed');
    expect(slot.text).not.toContain(PRICE_PROMPT);
    if (slot.kind === 'service') expect(slot.text).toContain(formatMoney(servicePrice.get(slot.id)!));
    else {
      const p = packagePrice.get(slot.id)!;
      expect(slot.text).toContain(`Setup${formatMoney(p.priceSetup)}`);
      expect(slot.text).toContain(`Monthly${formatMoney(p.priceMonthly)}/mo`);
    }
  }
}

test.describe('verified member', () => {
  test.use({ storageState: MEMBER_STATE });

  for (const path of ['/services', '/packages', `/package/${pkg.id}`, `/service/${service.id}`]) {
    test(`sees formatted prices on ${path}`, async ({ page }) => {
      await page.goto(path);
      await expectRevealed(page);
    });
  }

  test('the HTML itself carries no price; prices come from /api/prices only', async ({ page }) => {
    const fromApi: string[] = [];
    page.on('response', (r) => {
      if (new URL(r.url()).pathname === '/api/prices') fromApi.push(r.url());
    });
    for (const path of ['/services', '/packages', `/package/${pkg.id}`]) {
      const html = await (await page.request.get(path)).text();
      for (const price of priceTexts) expect(html, `${path} has ${price}`).not.toContain(price);
      expect(html).not.toContain('priceSetup');
      await page.goto(path);
      await expectRevealed(page);
    }
    // One request per page view.
    expect(fromApi).toHaveLength(3);
  });

  test('filling the slots does not move the page', async ({ page }) => {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    await page.route('**/api/prices', async (route) => {
      await held;
      await route.continue();
    });
    await page.goto('/packages');
    const slot = page.locator('[data-price-slot]').first();
    await expect(slot).toContainText(PRICE_PROMPT);
    const before = await slot.boundingBox();
    const headingAfterBefore = await page.locator('[data-card="package"]').nth(0).locator('ul').first().boundingBox();
    release();
    await expect(slot).toHaveAttribute('data-price-state', 'revealed');
    const after = await slot.boundingBox();
    expect(after!.height).toBe(before!.height);
    expect((await page.locator('[data-card="package"]').nth(0).locator('ul').first().boundingBox())!.y).toBe(headingAfterBefore!.y);
  });

  test('the dashboard lists every active package (setup + monthly, BEST VALUE) and every service', async ({ page }) => {
    await page.goto('/dashboard');
    const packages = page.locator('[data-dashboard-packages] > li');
    await expect(packages).toHaveCount(activePackages.length);
    for (const p of activePackages) {
      const item = page.locator(`[data-package-id="${p.id}"]`);
      await expect(item).toContainText(p.name);
      await expect(item).toContainText(formatMoney(p.priceSetup));
      await expect(item).toContainText(formatMoney(p.priceMonthly));
      const best = p.includedServiceIds.length >= 3 && p.priceSetup >= 1000;
      await expect(item.getByText('BEST VALUE')).toHaveCount(best ? 1 : 0);
    }
    for (const s of DEMO_SERVICES) await expect(page.locator(`[data-service-id="${s.id}"]`)).toContainText(formatMoney(s.price));
  });
});

test.describe('visitor', () => {
  test('keeps the prompt and never asks for prices', async ({ page }) => {
    const asked: string[] = [];
    page.on('request', (r) => {
      if (new URL(r.url()).pathname === '/api/prices') asked.push(r.url());
    });
    for (const path of ['/services', '/packages', `/package/${pkg.id}`]) {
      await page.goto(path);
      await page.waitForLoadState('networkidle');
      const slot = page.locator('[data-price-slot]').first();
      await expect(slot).toContainText(PRICE_PROMPT);
      await expect(slot).not.toHaveAttribute('data-price-state', 'revealed');
    }
    expect(asked).toEqual([]);
  });
});
