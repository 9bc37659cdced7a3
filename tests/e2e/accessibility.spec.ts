import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { allPublicPaths, VIEWPORTS } from './support/public-pages';

// axe-core must find nothing on any public page, at phone and desktop widths.
test('every public page passes axe-core at phone and desktop widths', async ({ page, request }) => {
  test.setTimeout(240_000);
  const paths = await allPublicPaths(request);
  expect(paths.length).toBeGreaterThan(10);
  const failures: string[] = [];
  for (const [name, viewport] of Object.entries(VIEWPORTS)) {
    await page.setViewportSize(viewport);
    for (const path of [...paths, '/this-page-does-not-exist']) {
      await page.goto(path);
      const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
      for (const v of violations) {
        failures.push(`${name} ${path}: ${v.id} (${v.impact}) — ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')}`);
      }
    }
  }
  expect(failures, failures.join('\n')).toEqual([]);
});
