import { expect, test } from './support/fixtures';
import { DEMO_PACKAGES, DEMO_SERVICES } from '../../src/server/seed/demo-catalog';
import { PRICE_PROMPT } from '../../src/shared/constants';
import { formatMoney } from '../../src/shared/money';
import { allPublicPaths } from './support/public-pages';

// PRODUCT.md: prices never leave the server for visitors — not in any public HTML, XML or JSON.
const demoPrices = [
  ...DEMO_SERVICES.map((s) => s.price),
  ...DEMO_PACKAGES.flatMap((p) => [p.priceSetup, p.priceMonthly]),
];
const forbidden = [
  ...new Set(demoPrices.flatMap((n) => [formatMoney(n), `${n}.00`, `"price":${n}`, `"priceSetup":${n}`, `"priceMonthly":${n}`])),
  'priceSetup',
  'priceMonthly',
];

test('no public page or document contains a price', async ({ request }) => {
  const paths = [...(await allPublicPaths(request)), '/sitemap.xml', '/robots.txt'];
  expect(paths.length).toBeGreaterThan(15);
  const leaks: string[] = [];
  for (const path of paths) {
    const body = await (await request.get(path)).text();
    for (const needle of forbidden) if (body.includes(needle)) leaks.push(`${path} contains ${needle}`);
  }
  expect(leaks).toEqual([]);
});

test('visitors see the prompt to sign up or log in where prices belong', async ({ page }) => {
  for (const path of ['/services', '/packages', `/package/${DEMO_PACKAGES[0]!.id}`, `/service/${DEMO_SERVICES[0]!.id}`]) {
    await page.goto(path);
    const slot = page.locator('[data-price-slot]').first();
    await expect(slot).toContainText(PRICE_PROMPT);
    await expect(slot.getByRole('link')).toHaveAttribute('href', '/auth');
  }
});
