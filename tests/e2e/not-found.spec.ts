import { expect, test } from './support/fixtures';
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

  test('the 400 page says what is wrong without repeating the rejected value', async ({ request }) => {
    for (const [query, title] of [
      ['page=zebra42', 'Invalid page number'],
      [`tag=${encodeURIComponent('zebra<unicorn>')}`, 'Invalid tag'],
    ]) {
      const res = await request.get(`/articles?${query}`);
      expect(res.status(), query).toBe(400);
      const html = await res.text();
      expect(html, query).toContain(title);
      expect(html.toLowerCase(), query).not.toContain('zebra');
    }
  });
});

test.describe('article tags', () => {
  const knownTag = DEMO_ARTICLES.find((a) => a.published)!.tags[0]!;

  test('a known tag lists its articles', async ({ page }) => {
    const response = await page.goto(`/articles?${new URLSearchParams({ tag: knownTag })}`);
    expect(response?.status()).toBe(200);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Articles tagged “${knownTag}”`);
    await expect(page.locator('[data-card="article"]').first()).toBeVisible();
  });

  test('an unknown tag answers the 404 page, never repeats the tag and is never cached', async ({ request }) => {
    const tag = 'zebra-unicorn-42';
    // The route cache stores a URL with a query the second time it is asked for: a third request would hit.
    for (let i = 1; i <= 3; i++) {
      const res = await request.get(`/articles?tag=${tag}`);
      expect(res.status(), `request ${i}`).toBe(404);
      expect(await res.text(), `request ${i}`).not.toMatch(/zebra|unicorn/i);
      expect(res.headers()['cache-control'], `request ${i}`).toContain('no-store');
      expect(res.headers()['x-astro-cache'], `request ${i}`).not.toBe('HIT');
    }
  });
});
