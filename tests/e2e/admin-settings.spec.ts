/**
 * The general settings (/admin/settings, decision 055) on a site's first run: no time zone and no reply
 * address, so the overview asks for both and offers the browser's zone (the browser runs in Berlin). The
 * owner accepts the zone with one click on the settings page, and the admin's header says "Times in Europe/
 * Berlin" at once; a reply address typed wrong is refused beside its field, then saved; the overview's
 * items are gone; the chat's business hours say they are read in that zone; and a free-audit request's
 * confirmation carries `Reply-To: "<site name>" <the address>`. Axe at 390 and 1280 px, with screenshots.
 * Other specs share the server: the settings are put back as they were, whatever happens.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from './support/fixtures';
import { ADMIN_STATE, freshClientIp, gotoHydrated, newestMailTo } from './support/accounts';
import { callAction } from './support/admin-actions';

test.use({ storageState: ADMIN_STATE, timezoneId: 'Europe/Berlin' });

const SHOTS = process.env.E2E_SCREENSHOT_DIR;
const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

const zoneSelect = (page: Page) => page.getByLabel('Time zone', { exact: true });
const replyField = (page: Page) => page.getByLabel('Replies to emails go to', { exact: true });
const header = (page: Page) => page.locator('[data-admin-time-zone]');

interface Settings {
  timeZone: string | null;
  replyTo: string;
}

/** A direct save (admin.settings.save without a version: over whatever is stored), as a script would. */
async function saveSettings(page: Page, baseURL: string, settings: Settings) {
  const answer = await callAction(page.request, baseURL, 'admin.settings.save', { settings });
  expect(answer.status, JSON.stringify(answer.error)).toBe(200);
}

async function checkPage(page: Page, path: string, name: string) {
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await gotoHydrated(page, path);
    const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
    expect(violations.map((v) => `${path} ${width}: ${v.id} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

test('first run: the owner takes the browser’s time zone and sets where replies go; the admin, the overview and the mails follow', async ({ page, baseURL, request }) => {
  test.setTimeout(180_000);
  await gotoHydrated(page, '/admin/settings');
  const original: Settings = { timeZone: (await zoneSelect(page).inputValue()) || null, replyTo: await replyField(page).inputValue() };
  const siteName = (await page.title()).split(' · ').at(-1)!;
  const team = `team-${unique()}@example.com`;
  try {
    await saveSettings(page, baseURL!, { timeZone: null, replyTo: '' });

    // The overview asks for both, and offers the browser's zone beside the time zone's item.
    await gotoHydrated(page, '/admin');
    await expect(page.locator('[data-attention-item="time-zone"]')).toContainText('The site’s time zone is not set');
    await expect(page.locator('[data-attention-item="mail-replies"]')).toContainText('no reply address is set');
    await expect(page.locator('[data-attention-item="time-zone"]')).toContainText('Your browser is in Europe/Berlin — use it?');
    await expect(page.locator('[data-attention-item="time-zone"]').getByRole('link', { name: 'Set the time zone' })).toHaveAttribute('href', '/admin/settings#time-zone');
    await checkPage(page, '/admin', 'overview-first-run');

    // The settings page: not chosen yet (UTC), the offer, who mails come from.
    await checkPage(page, '/admin/settings', 'settings-first-run');
    await expect(header(page)).toContainText('Times in UTC');
    await expect(zoneSelect(page)).toHaveValue('');
    await expect(page.locator('[data-mail-sender]')).toContainText('Emails come from');
    await expect(page.locator('[data-mail-sender]')).toContainText('no-reply@localhost');
    await expect(page.locator('[data-mail-sender]')).toContainText('MAIL_FROM is not set on the server');
    await expect(replyField(page)).toHaveAttribute('placeholder', /@/);

    // One click saves the browser's zone; the header follows without a reload.
    await page.getByText('Your browser is in Europe/Berlin — use it?').waitFor();
    await page.getByRole('button', { name: 'Use Europe/Berlin' }).click();
    await expect(page.locator('[data-save-state]')).toHaveText('All changes saved');
    await expect(header(page)).toContainText('Times in Europe/Berlin');
    await expect(zoneSelect(page)).toHaveValue('Europe/Berlin');
    await expect(page.getByText('Your browser is in Europe/Berlin — use it?')).toHaveCount(0);

    // A reply address typed wrong is refused beside the field; a real one is saved.
    await replyField(page).fill('Team <team@example.com>');
    await page.keyboard.press('ControlOrMeta+s');
    await expect(page.getByText('Must be an email address such as team@example.com')).toBeVisible();
    await expect(replyField(page)).toHaveAttribute('aria-invalid', 'true');
    await replyField(page).fill(team);
    await page.keyboard.press('ControlOrMeta+s');
    await expect(page.locator('[data-save-state]')).toHaveText('All changes saved');
    await checkPage(page, '/admin/settings', 'settings-saved');
    await expect(zoneSelect(page)).toHaveValue('Europe/Berlin');
    await expect(replyField(page)).toHaveValue(team);

    // The overview has nothing left to ask; every page names the zone, and "change zone" leads here.
    await gotoHydrated(page, '/admin');
    await expect(header(page)).toContainText('Times in Europe/Berlin');
    await expect(page.locator('[data-attention-item="time-zone"]')).toHaveCount(0);
    await expect(page.locator('[data-attention-item="mail-replies"]')).toHaveCount(0);
    await expect(header(page).getByRole('link', { name: 'change zone' })).toHaveAttribute('href', '/admin/settings#time-zone');

    // The chat's business hours are read in it, and say where it is chosen.
    await gotoHydrated(page, '/admin/chat-settings/settings');
    const hoursZone = page.locator('[data-business-hours-zone]');
    await expect(hoursZone).toContainText('In the site’s time zone, Europe/Berlin');
    await expect(hoursZone.getByRole('link', { name: 'change it in Settings' })).toHaveAttribute('href', '/admin/settings#time-zone');

    // Both saves are in the activity log, named field by field.
    await gotoHydrated(page, '/admin/activity?type=general-settings');
    await expect(page.locator('[data-entry]').first()).toContainText(`replies go to ${team}`);
    await expect(page.locator('[data-entry]').nth(1)).toContainText('time zone Europe/Berlin');

    // A prospect's confirmation replies to the team's address, named as the business.
    const email = `settings-${unique()}@example.com`;
    const audit = await request.post('/api/audit-requests', {
      headers: { origin: baseURL!, 'x-real-ip': freshClientIp() },
      data: { fullName: 'Ada Lovelace', email, businessName: `Settings Clinic ${unique()}`, businessType: 'clinic', goals: ['more-leads'], consent: true },
    });
    expect(audit.status(), await audit.text()).toBe(200);
    await expect.poll(() => newestMailTo(email) ?? '', { timeout: 15_000 }).toContain('Thank you for requesting a free online presence audit');
    // Named as the business (the mail writer quotes the name only when it must).
    const named = `"?${siteName.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}"? <${team.replace(/[.+]/g, '\\$&')}>`;
    expect(newestMailTo(email)).toMatch(new RegExp(`^Reply-To: ${named}\\r?$`, 'm'));
  } finally {
    await saveSettings(page, baseURL!, original);
  }
});
