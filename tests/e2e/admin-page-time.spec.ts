/**
 * Issue 10's round trip: a member browses three pages in a real browser (real navigations, so each page's
 * time leaves in the beacon sent while the page is left) and the admin sees those pages and times on the
 * member's admin page, in the per-page totals and the timeline.
 */
import { expect, test } from './support/fixtures';
import { MIN_DURATION_MS } from '../../src/shared/page-time';
import { ADMIN_STATE, createVerifiedAccount, logInViaUi, sessionUser } from './support/accounts';

test.use({ storageState: ADMIN_STATE });

test('a member browses three pages and their times appear on their admin page', async ({ page, browser, baseURL, playwright }) => {
  const anonymous = await playwright.request.newContext({ baseURL });
  const account = await createVerifiedAccount(anonymous, baseURL!, 'pagetime');
  await anonymous.dispose();

  const memberContext = await browser.newContext({ baseURL, storageState: { cookies: [], origins: [] } });
  const member = await memberContext.newPage();
  await logInViaUi(member, account);
  const me = await sessionUser(member);
  const userId = String(me?.id);

  const paths = ['/services', '/articles', '/demos'];
  for (const path of paths) {
    await member.goto(path);
    await member.waitForTimeout(MIN_DURATION_MS + 500); // a stretch must last more than 1000 ms to be saved
  }
  await member.goto('/packages'); // leaving /demos sends its time
  await memberContext.close();

  const report = page.locator('[data-page-time-report]');
  await expect
    .poll(
      async () => {
        await page.goto(`/admin/users/${encodeURIComponent(userId)}`);
        return Promise.all(paths.map((p) => report.locator(`[data-page-time-total="${p}"]`).count()));
      },
      { timeout: 15_000 },
    )
    .toEqual([1, 1, 1]);
  for (const path of paths) {
    const row = report.locator(`[data-page-time-row="${path}"]`).first();
    await expect(row).toBeVisible();
    const ms = Number(await row.locator('[data-ms]').first().getAttribute('data-ms'));
    expect(ms).toBeGreaterThan(MIN_DURATION_MS);
    expect(ms).toBeLessThan(60_000);
  }
});
