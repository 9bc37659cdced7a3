/**
 * The pipeline board (issue 39), as the admin in Chromium: 22 visitors of this spec (found by the spec's
 * own search word) are new leads; the New column counts them and shows 20, "Show 2 more" the rest; a card
 * dragged with the mouse to "Contacted" and one moved with the keyboard (Space, →, →, Space, each step
 * announced) to "Call booked" keep their stage after a reload and on the list; the owner filter and the
 * List | Board toggle keep the search; on a phone the board scrolls sideways by column; axe finds nothing
 * at 390 and 1280 px.
 */
import { expect, test, type APIRequestContext, type Page } from './support/fixtures';
import { axeViolations } from './support/axe';
import { ADMIN_STATE, freshClientIp, gotoHydrated } from './support/accounts';
import { callAction } from './support/admin-actions';
import { scrollSettled } from './support/sortable';

test.use({ storageState: ADMIN_STATE, viewport: { width: 1280, height: 1000 } });

const word = `Pipeline${Date.now().toString(36)}`;
const emailOf = (i: number) => `${word.toLowerCase()}-${String(i).padStart(2, '0')}@example.com`;
const nameOf = (i: number) => `${word} Person ${String(i).padStart(2, '0')}`;

test.beforeAll(async ({ playwright, baseURL }) => {
  const visitor: APIRequestContext = await playwright.request.newContext({ baseURL, storageState: { cookies: [], origins: [] } });
  for (let i = 1; i <= 22; i++) {
    const res = await visitor.post('/api/audit-requests', {
      headers: { origin: baseURL!, 'x-real-ip': freshClientIp() },
      data: { fullName: nameOf(i), email: emailOf(i), businessName: `${word} Studio ${i}`, website: '', businessType: 'coach', goals: ['more-leads'], consent: true },
    });
    expect(res.status(), await res.text()).toBe(200);
  }
  await visitor.dispose();
});

const column = (page: Page, stage: string) => page.locator(`[data-board-column="${stage}"]`);
const count = (page: Page, stage: string) => column(page, stage).locator('[data-board-count]');
const announced = (page: Page, text: string) => expect(page.locator('[id^="DndLiveRegion"]').filter({ hasText: text })).toHaveCount(1);

test('drag a card with the mouse, move one with the keyboard; counts, pages, filters and the toggle follow', async ({ page, baseURL }) => {
  test.setTimeout(120_000);
  await gotoHydrated(page, `/admin/leads/board?q=${word}`);
  await expect(count(page, 'new')).toContainText('22');
  await expect(column(page, 'new').locator('[data-board-card]')).toHaveCount(20);
  await column(page, 'new').getByRole('button', { name: 'Show 2 more in New' }).click();
  await expect(column(page, 'new').locator('[data-board-card]')).toHaveCount(22);
  await expect(column(page, 'new').getByRole('button', { name: /Show \d+ more/ })).toHaveCount(0);
  // Each card: the name (a link to the person), the business, who owns them.
  const first = column(page, 'new').locator(`[data-board-card="${emailOf(1)}"]`);
  await expect(first.getByRole('link', { name: nameOf(1) })).toHaveAttribute('href', `/admin/leads/${Buffer.from(emailOf(1)).toString('base64url')}`);
  await expect(first.locator('[data-card-business]')).toHaveText(`${word} Studio 1`);
  await expect(first).toContainText('Nobody owns them');

  // The mouse: person 1 dragged by its handle onto "Contacted".
  const handle = first.getByRole('button', { name: `Move ${nameOf(1)}` });
  await handle.scrollIntoViewIfNeeded();
  await scrollSettled(page);
  const from = (await handle.boundingBox())!;
  const to = (await column(page, 'contacted').boundingBox())!;
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
  await page.mouse.down();
  await page.mouse.move(from.x + from.width / 2 + 12, from.y + from.height / 2, { steps: 4 });
  await page.mouse.move(to.x + to.width / 2, to.y + 60, { steps: 20 });
  await page.mouse.up();
  await expect(page.locator('[data-board-status]')).toHaveText(`${nameOf(1)}: Contacted. Saved.`);
  await expect(count(page, 'new')).toContainText('21');
  await expect(count(page, 'contacted')).toContainText('1');
  await expect(column(page, 'contacted').locator(`[data-board-card="${emailOf(1)}"]`)).toHaveCount(1);

  // The keyboard: person 2 picked up, moved two stages right, dropped; each step told.
  await page.getByRole('button', { name: `Move ${nameOf(2)}`, exact: true }).focus();
  await scrollSettled(page);
  await page.keyboard.press('Space');
  await announced(page, `Picked up ${nameOf(2)}, in New.`);
  await scrollSettled(page);
  await page.keyboard.press('ArrowRight');
  await announced(page, `${nameOf(2)} is over Contacted.`);
  await page.keyboard.press('ArrowRight');
  await announced(page, `${nameOf(2)} is over Call booked.`);
  await page.keyboard.press('Space');
  await announced(page, `${nameOf(2)} moved to Call booked.`);
  await expect(page.locator('[data-board-status]')).toHaveText(`${nameOf(2)}: Call booked. Saved.`);

  // What the server kept: after a reload, and on the list.
  await gotoHydrated(page, `/admin/leads/board?q=${word}`);
  await expect(count(page, 'new')).toContainText('20');
  await expect(column(page, 'contacted').locator(`[data-board-card="${emailOf(1)}"]`)).toHaveCount(1);
  await expect(column(page, 'call-booked').locator(`[data-board-card="${emailOf(2)}"]`)).toHaveCount(1);
  await page.goto(`/admin/leads?q=${encodeURIComponent(emailOf(2))}`);
  await expect(page.locator(`tr[data-person-row="${emailOf(2)}"] [data-person-stage]`)).toHaveAttribute('data-person-stage', 'call-booked');

  // The toggle keeps the search; the owner filter narrows every column.
  await page.goto(`/admin/leads?q=${word}`);
  await page.getByRole('navigation', { name: 'Leads view' }).getByRole('link', { name: 'Board' }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/leads/board\\?q=${word}$`));
  expect((await callAction(page.request, baseURL!, 'admin.leads.assign', { email: emailOf(3), ownerId: (await page.request.get('/api/auth/get-session').then((r) => r.json())).user.id })).status).toBe(200);
  await gotoHydrated(page, `/admin/leads/board?q=${word}&owner=me`);
  await expect(column(page, 'new').locator('[data-board-card]')).toHaveCount(1);
  await expect(column(page, 'new').locator(`[data-board-card="${emailOf(3)}"]`)).toContainText('Owner:');
  for (const stage of ['contacted', 'call-booked', 'client', 'not-a-fit']) await expect(count(page, stage)).toContainText('0');
});

test('on a phone the board scrolls sideways a column at a time; axe finds nothing at 390 and 1280 px', async ({ page }) => {
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await gotoHydrated(page, `/admin/leads/board?q=${word}`);
    await page.screenshot({ path: test.info().outputPath(`board-${width}.png`), fullPage: true });
    // Only the board scrolls sideways, never the page (its screen-reader texts included).
    const wide = await page.evaluate(() =>
      [...document.querySelectorAll('body *')]
        .filter((el) => el.getBoundingClientRect().right > window.innerWidth + 1 && !el.closest('[data-board-columns]'))
        .map((el) => `${el.tagName.toLowerCase()}.${(el.className || '').toString().slice(0, 60)} ${Math.round(el.getBoundingClientRect().right)}`)
        .slice(0, 5),
    );
    expect(wide, `wider than the ${width} px screen`).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth), "the page's width").toBeLessThanOrEqual(width);
    expect(await axeViolations(page)).toEqual([]);
  }
  await page.setViewportSize({ width: 390, height: 900 });
  const columns = page.locator('[data-board-columns]');
  const overflow = await columns.evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth, snap: getComputedStyle(el).scrollSnapType }));
  expect(overflow.scroll).toBeGreaterThan(overflow.client * 3);
  expect(overflow.snap).toContain('x');
  // The first column fills most of the screen.
  const firstColumn = (await column(page, 'new').boundingBox())!;
  expect(firstColumn.width).toBeGreaterThan(390 * 0.7);
});
