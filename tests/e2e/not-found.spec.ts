import { expect, test } from '@playwright/test';
import { DEMO_PACKAGES } from '../../src/server/seed/demo-catalog';
import { DEMO_ARTICLES } from '../../src/server/seed/demo-articles';

const inactivePackage = DEMO_PACKAGES.find((p) => !p.isActive)!;
const draftArticle = DEMO_ARTICLES.find((a) => !a.published)!;

test.describe('records that are not public answer a real 404 page', () => {
  for (const path of [
    '/service/no-such-service',
    '/demo/no-such-demo',
    '/package/no-such-package',
    `/package/${inactivePackage.id}`,
    `/article/${draftArticle.id}`,
    `/service/${'x'.repeat(300)}`,
    '/service/has%20space',
    '/no/such/page',
  ]) {
    test(path.slice(0, 60), async ({ page }) => {
      const response = await page.goto(path);
      expect(response?.status()).toBe(404);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await expect(page.getByRole('link', { name: /home/i }).first()).toBeVisible();
    });
  }
});

test.describe('malformed query strings answer a clear 400, never a 500', () => {
  for (const query of ['page=-1', 'page=abc', 'page=1.5', 'tag=%3Cscript%3Ealert(1)%3C%2Fscript%3E', `tag=${'t'.repeat(300)}`]) {
    test(`/articles?${query.slice(0, 40)}`, async ({ page }) => {
      const response = await page.goto(`/articles?${query}`);
      expect(response?.status()).toBe(400);
      const html = await response!.text();
      expect(html).not.toContain('<script>alert(1)</script>');
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    });
  }

  test('a page past the last one is a 404', async ({ page }) => {
    const response = await page.goto('/articles?page=999');
    expect(response?.status()).toBe(404);
  });
});
