/**
 * Every time in the admin is shown in the site's time zone and the zone is named once, in the page header
 * (decision 032). The owner picks the zone in the general settings (decision 055); the activity log then shows the
 * save itself on Tehran's wall clock (UTC+03:30: no whole-hour offset could pass by chance), the
 * overview and the leads say the same zone, and the overview says the team is left out of its numbers.
 * Screenshots at 390 and 1280 px of the overview, leads and activity pages. Restores the zone it changed.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from './support/fixtures';
import { ADMIN_STATE, gotoHydrated } from './support/accounts';
import { callAction } from './support/admin-actions';

test.use({ storageState: ADMIN_STATE });

const ZONE = 'Asia/Tehran';
const SHOTS = process.env.E2E_SCREENSHOT_DIR;

/** The text formatInZone (src/shared/dates.ts) gives, computed here on its own from the instant. */
const tehran = (iso: string) =>
  new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23', timeZone: ZONE }).format(new Date(iso));

async function setZone(page: Page, zone: string) {
  await gotoHydrated(page, '/admin/settings');
  const select = page.getByLabel('Time zone', { exact: true });
  // The browser's list of zones fills the select after hydration.
  await expect(select.locator(`option[value="${zone}"]`)).toHaveCount(1);
  await select.selectOption(zone);
  await page.keyboard.press('ControlOrMeta+s');
  await expect(page.locator('[data-save-state]')).toHaveText('All changes saved');
}

test('times are shown in the zone the owner set, named once in the header', async ({ page, baseURL }) => {
  test.setTimeout(180_000); // six pages checked with axe, each at two widths
  await gotoHydrated(page, '/admin/settings');
  // '' while the site has no zone: put back with a direct save (the select offers "not chosen" only until one is).
  const before = (await page.getByLabel('Time zone', { exact: true }).inputValue()) || null;
  const replyTo = await page.getByLabel('Replies to emails go to', { exact: true }).inputValue();
  try {
    await setZone(page, ZONE);

    await page.goto('/admin/activity');
    const header = page.locator('[data-admin-time-zone]');
    await expect(header).toHaveText(/Times in Asia\/Tehran/);
    // No time carries a zone of its own (a settings entry may still name UTC as a zone: "not chosen (UTC)").
    await expect(page.getByText(/\d\d:\d\d(?::\d\d)? ?(?:\(?UTC\)?)/)).toHaveCount(0);
    // The newest entry is the save just made: its time is Tehran's wall clock for its instant.
    const newest = page.locator('li[data-entry] time').first();
    const iso = await newest.getAttribute('datetime');
    expect(iso).toBeTruthy();
    await expect(newest).toHaveText(tehran(iso!));
    expect(tehran(iso!)).not.toBe(new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' }).format(new Date(iso!)));

    await page.goto('/admin');
    await expect(page.locator('[data-admin-time-zone]')).toHaveText(/Times in Asia\/Tehran/);
    await expect(page.locator('[data-team-excluded]')).toContainText('not counted');
    // The overview's last day is today in Tehran.
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: ZONE, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());
    await expect(page.locator('[data-chart-table="leads-per-day"] tr[data-row]').last()).toHaveAttribute('data-row', today);

    for (const [path, name] of [
      ['/admin', 'overview'],
      ['/admin/leads', 'leads'],
      ['/admin/activity', 'activity'],
    ] as const) {
      for (const width of [390, 1280]) {
        await page.setViewportSize({ width, height: 900 });
        await gotoHydrated(page, path);
        await expect(page.locator('[data-admin-time-zone]')).toBeVisible();
        const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
        expect(violations.map((v) => `${path} ${width}: ${v.id}`)).toEqual([]);
        if (SHOTS) await page.screenshot({ path: `${SHOTS}/${name}-${width}.png`, fullPage: true });
      }
    }
  } finally {
    await page.setViewportSize({ width: 1280, height: 900 });
    const restored = await callAction(page.request, baseURL!, 'admin.settings.save', { settings: { timeZone: before, replyTo } });
    expect(restored.status, JSON.stringify(restored.error)).toBe(200);
  }
});
