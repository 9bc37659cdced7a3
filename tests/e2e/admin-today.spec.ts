/**
 * The owner sees what waits (issue 35), in Chromium: the admin has /admin open; a visitor in another,
 * signed-out browser context writes in the chat and sends an audit request; without a reload the tab title
 * gains the unread chat, the sidebar's Chat and Audit badges count up, the Today lists show the new chat
 * and the request, and — with notifications turned on in the header's Alerts (permission granted to the
 * context) — a desktop notification is shown for each, once (also with two admin tabs open); a refused
 * permission is said. The inbox's count follows the feed. axe-clean at 390 and 1280 px, with screenshots
 * of Today, the Alerts control and the sidebar's badges.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Browser, type BrowserContext, type Page } from './support/fixtures';
import type { ChatSendResponse } from '../../src/shared/chat';
import { TODAY_LIST_LENGTH } from '../../src/shared/today';
import { ADMIN_STATE, freshClientIp, gotoHydrated } from './support/accounts';
import { callAction } from './support/admin-actions';
import { fullChromium } from './support/browsers';

// Desktop notifications are the full browser's: the headless shell the other specs use has no Notification.
test.use(fullChromium);

const SIZES = { phone: { width: 390, height: 844 }, desktop: { width: 1280, height: 900 } };
const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

interface Shown {
  title: string;
  body: string;
  tag: string;
}

/** The admin's page, with window.Notification replaced by a spy that records what would be shown. */
async function adminPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ storageState: ADMIN_STATE });
  await context.grantPermissions(['notifications']);
  await context.addInitScript(() => {
    const Real = window.Notification;
    const shown: { title: string; body: string; tag: string }[] = [];
    (window as unknown as { shownNotifications: typeof shown }).shownNotifications = shown;
    class Spy {
      onclick: (() => void) | null = null;
      constructor(title: string, options: NotificationOptions = {}) {
        shown.push({ title, body: options.body ?? '', tag: options.tag ?? '' });
      }
      close() {}
      static get permission() {
        return Real.permission;
      }
      static requestPermission() {
        return Real.requestPermission();
      }
    }
    (window as unknown as { Notification: unknown }).Notification = Spy;
  });
  return context.newPage();
}

const shownOn = (page: Page) => page.evaluate(() => (window as unknown as { shownNotifications: Shown[] }).shownNotifications);
const sidebar = (page: Page) => page.locator('aside').getByRole('navigation', { name: 'Admin' });
const badge = (page: Page, signal: string) => sidebar(page).locator(`[data-live-count="${signal}"]`);
const badgeCount = async (page: Page, signal: string) => ((await badge(page, signal).isHidden()) ? 0 : Number(await badge(page, signal).locator('[data-count]').textContent()));
const section = (page: Page, key: string) => page.locator(`[data-today-section="${key}"]`);
const sectionTotal = async (page: Page, key: string) => Number(await section(page, key).getAttribute('data-total'));

/** A signed-out visitor context (its own client address). */
const visitorContext = (browser: Browser) => browser.newContext({ storageState: { cookies: [], origins: [] }, extraHTTPHeaders: { 'x-real-ip': freshClientIp() } });

/** The visitor writes in the chat (a new conversation): its id. */
async function sendChatMessage(visitor: BrowserContext, baseURL: string, body: string): Promise<string> {
  const visitorId = Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
  const res = await visitor.request.post('/api/chat/messages', { headers: { origin: baseURL, 'x-chat-visitor': visitorId }, data: { body } });
  expect(res.status(), await res.text()).toBe(200);
  return ((await res.json()) as ChatSendResponse).conversation.id;
}

/** The visitor sends the free-audit form (no website: no check runs). */
async function sendAuditRequest(visitor: BrowserContext): Promise<{ name: string; email: string }> {
  const form = await visitor.newPage();
  await gotoHydrated(form, '/free-audit');
  const name = `Grace ${unique()}`;
  const email = `today-${unique()}@example.com`;
  await form.getByLabel('Full name', { exact: true }).fill(name);
  await form.getByLabel('Email', { exact: true }).fill(email);
  await form.getByLabel('Business name').fill('Bright Smile Clinic');
  await form.getByLabel('Clinic').check();
  await form.getByLabel('More leads').check();
  await form.getByLabel(/I agree to be contacted/).check();
  await form.getByRole('button', { name: 'Request my free audit' }).click();
  await expect(form.getByRole('heading', { name: 'Thank you — your request is in' })).toBeVisible();
  await form.close();
  return { name, email };
}

async function expectAxeClean(page: Page) {
  const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
  expect(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

test('a visitor’s chat message and audit request reach the open overview live: title, badges, Today and a notification', async ({ browser, baseURL }) => {
  test.setTimeout(60_000);
  const page = await adminPage(browser);
  await page.setViewportSize(SIZES.desktop);
  await gotoHydrated(page, '/admin');
  await expect(page.locator('html[data-admin-feed="live"]')).toHaveCount(1);

  // Notifications are off until the admin turns them on; the browser is asked then.
  const alerts = page.locator('[data-alerts]');
  await alerts.getByLabel('Alerts: desktop notifications and sound').click();
  const desktop = alerts.getByRole('checkbox', { name: 'Desktop notifications' });
  await expect(desktop).not.toBeChecked();
  await desktop.check();
  await expect(alerts.getByRole('status')).toHaveText('Desktop notifications are on in this browser.');
  await expect(desktop).toBeChecked();

  const unreadBefore = await badgeCount(page, 'unreadChats');
  const waitingBefore = await badgeCount(page, 'waitingRequests');
  const requestsBefore = await sectionTotal(page, 'requests');
  const titleBefore = await page.title();
  expect(titleBefore).toMatch(unreadBefore > 0 ? new RegExp(`^\\(${unreadBefore}\\) Overview · Admin · `) : /^Overview · Admin · /);

  // The visitor: another browser context, signed out.
  const visitor = await visitorContext(browser);
  const words = `Can you fix our booking page? ${unique()}`;
  const conversationId = await sendChatMessage(visitor, baseURL!, words);

  // Without a reload: the title, the Chat badge, Today's unanswered chats, a notification.
  await expect(page).toHaveTitle(`(${unreadBefore + 1}) ${titleBefore.replace(/^\(\d+\+?\) /, '')}`);
  await expect(badge(page, 'unreadChats').locator('[data-count]')).toHaveText(String(unreadBefore + 1));
  const chatItem = section(page, 'chats').locator(`[data-today-item="${conversationId}"]`);
  await expect(chatItem).toContainText(words);
  await expect(chatItem.getByRole('link')).toHaveAttribute('href', `/admin/chat-settings/${conversationId}`);
  await expect.poll(() => shownOn(page)).toEqual([expect.objectContaining({ title: 'New chat message', body: expect.stringContaining(words), tag: `chat:${conversationId}` })]);

  // The visitor's audit request, through the real form.
  const { name } = await sendAuditRequest(visitor);

  await expect(badge(page, 'waitingRequests').locator('[data-count]')).toHaveText(String(waitingBefore + 1));
  await expect(section(page, 'requests')).toHaveAttribute('data-total', String(requestsBefore + 1));
  // Oldest first: the new request is listed when it fits, else it is one of "and N more".
  if (requestsBefore < TODAY_LIST_LENGTH) await expect(section(page, 'requests').getByRole('link', { name })).toBeVisible();
  else await expect(section(page, 'requests').locator('[data-today-more]')).toContainText(`and ${requestsBefore + 1 - TODAY_LIST_LENGTH} more`);
  await expect.poll(async () => (await shownOn(page)).map((n) => n.title)).toEqual(['New chat message', 'New audit request']);
  expect((await shownOn(page))[1]!.body).toBe(`${name} (Bright Smile Clinic)`);

  // Reading the chat takes it off the title and the badge; nothing is shown twice.
  await gotoHydrated(page, `/admin/chat-settings/${conversationId}`);
  await expect(page).toHaveTitle(unreadBefore > 0 ? new RegExp(`^\\(${unreadBefore}\\) `) : /^Chat with|^[^(]/);
  await expect(page.locator('html[data-admin-feed="live"]')).toHaveCount(1);
  await visitor.close();
  await page.context().close();
});

test('the inbox’s count of open conversations follows the live feed with its list', async ({ browser, baseURL }) => {
  const page = await adminPage(browser);
  await gotoHydrated(page, '/admin/chat-settings');
  await expect(page.locator('[data-feed="live"]')).toBeVisible();
  const before = Number(await page.locator('[data-inbox-count]').getAttribute('data-inbox-count'));
  const visitor = await visitorContext(browser);
  const conversationId = await sendChatMessage(visitor, baseURL!, `Hello ${unique()}`);
  await expect(page.locator(`[data-conversation-row="${conversationId}"]`)).toBeVisible();
  await expect(page.locator('[data-inbox-count]')).toHaveText(new RegExp(`^${before + 1} open conversations?`));
  // Handled elsewhere: it leaves the list and the count.
  const admin = await browser.newContext({ storageState: ADMIN_STATE });
  expect((await callAction(admin.request, baseURL!, 'admin.chat.setStatus', { conversationId, status: 'handled' })).status).toBe(200);
  await expect(page.locator(`[data-conversation-row="${conversationId}"]`)).toHaveCount(0);
  await expect(page.locator('[data-inbox-count]')).toHaveText(new RegExp(`^${before} open conversations?`));
  await admin.close();
  await visitor.close();
  await page.context().close();
});

test('Today and the Alerts control pass axe at 390 and 1280 px (screenshots)', async ({ browser, baseURL }) => {
  test.setTimeout(90_000);
  const page = await adminPage(browser);
  // Something in each list that can have it: a chat, a request, a follow-up due today.
  const visitor = await visitorContext(browser);
  await sendChatMessage(visitor, baseURL!, 'Do you also do Google reviews?');
  const { email } = await sendAuditRequest(visitor);
  await visitor.close();
  // Today in the site's time zone (the one every admin page names).
  await page.goto('/admin');
  const today = await page.evaluate(() => new Intl.DateTimeFormat('en-CA', { timeZone: document.documentElement.dataset.timeZone }).format(new Date()));
  expect((await callAction(page.context().request, baseURL!, 'admin.leads.setFollowUp', { email, followUpOn: today })).status).toBe(200);

  for (const [label, size] of Object.entries(SIZES)) {
    await page.setViewportSize(size);
    await gotoHydrated(page, '/admin');
    await expect(page.locator('[data-today]')).toBeVisible();
    await expectAxeClean(page);
    await page.locator('[data-today]').screenshot({ path: test.info().outputPath(`admin-today-${label}.png`) });
    const alerts = page.locator('[data-alerts]');
    await alerts.getByLabel('Alerts: desktop notifications and sound').click();
    await expect(alerts.getByRole('checkbox', { name: 'Sound' })).toBeVisible();
    await expectAxeClean(page);
    await page.screenshot({ path: test.info().outputPath(`admin-alerts-${label}.png`), clip: { x: 0, y: 0, width: size.width, height: 360 } });
  }
  await page.setViewportSize(SIZES.desktop);
  await page.keyboard.press('Escape');
  await expect(badge(page, 'waitingRequests')).toBeVisible();
  await page.locator('aside').screenshot({ path: test.info().outputPath('admin-sidebar-badges.png') });
  await page.context().close();
});

test('a browser that refuses notifications is said so, and the setting stays off', async ({ browser }) => {
  // No permission granted: headless Chromium answers the request with "denied".
  const context = await browser.newContext({ storageState: ADMIN_STATE });
  const page = await context.newPage();
  await gotoHydrated(page, '/admin/audit');
  const alerts = page.locator('[data-alerts]');
  await alerts.getByLabel('Alerts: desktop notifications and sound').click();
  const desktop = alerts.getByRole('checkbox', { name: 'Desktop notifications' });
  await desktop.check();
  await expect(alerts.getByRole('status')).toContainText('Your browser blocks notifications from this site');
  await expect(desktop).not.toBeChecked();
  expect(await page.evaluate(() => localStorage.getItem('admin-alerts'))).toBe(JSON.stringify({ desktop: false, sound: false }));
  // Sound is its own choice, kept for the next admin page.
  await alerts.getByRole('checkbox', { name: 'Sound' }).check();
  await gotoHydrated(page, '/admin/leads');
  await page.locator('[data-alerts]').getByLabel('Alerts: desktop notifications and sound').click();
  await expect(page.locator('[data-alerts]').getByRole('checkbox', { name: 'Sound' })).toBeChecked();
  await context.close();
});

test('two admin tabs of one browser show a new chat’s notification once', async ({ browser, baseURL }) => {
  const first = await adminPage(browser);
  const second = await first.context().newPage();
  for (const page of [first, second]) {
    await gotoHydrated(page, page === first ? '/admin' : '/admin/leads');
    await expect(page.locator('html[data-admin-feed="live"]')).toHaveCount(1);
  }
  // Turned on in one tab: the browser's setting, so the other tab follows it.
  await first.locator('[data-alerts]').getByLabel('Alerts: desktop notifications and sound').click();
  await first.locator('[data-alerts]').getByRole('checkbox', { name: 'Desktop notifications' }).check();
  await expect(first.locator('[data-alerts]').getByRole('status')).toHaveText('Desktop notifications are on in this browser.');

  const visitor = await visitorContext(browser);
  const words = `Two tabs ${unique()}`;
  await sendChatMessage(visitor, baseURL!, words);
  const shown = async () => [...(await shownOn(first)), ...(await shownOn(second))].filter((n) => n.body.includes(words)).length;
  await expect.poll(shown).toBe(1);
  // Both tabs had the alert (the counts come after it on the feed), and still one notification.
  for (const page of [first, second]) await expect(page).toHaveTitle(/^\(\d+\) /);
  await expect(async () => expect(await shown()).toBe(1)).toPass();
  await visitor.close();
  await first.context().close();
});
