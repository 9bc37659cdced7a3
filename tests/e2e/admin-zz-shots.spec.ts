import { test } from '@playwright/test';
import { ADMIN_STATE, gotoHydrated } from './support/accounts';
test.use({ storageState: ADMIN_STATE });
const PAGES = (process.env.SHOT_PAGES ?? '/admin/chat-settings').split(',');
for (const width of [390, 1280]) {
  test(`shots ${width}`, async ({ page }) => {
    test.setTimeout(120_000);
    await page.setViewportSize({ width, height: 900 });
    for (const [i, p] of PAGES.entries()) {
      await gotoHydrated(page, p);
      await page.waitForTimeout(500);
      await page.screenshot({ path: `/tmp/shots/${i}-${width}.png`, fullPage: true });
    }
  });
}
