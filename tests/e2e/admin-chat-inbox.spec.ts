/**
 * The chat inbox as the owner finds and works it (issue 20, decision 031): "Chat" in the admin menu opens
 * the inbox on the seed's route, titled as such, with the settings one tab away; a row previews what the
 * visitor said last (a person asked for, then the contact form's message), not the assistant's answer or
 * the thank-you; on a phone the reply box stays on screen while a long thread scrolls above it. Screenshots
 * of each screen at 390 and 1280 px go to CHAT_SCREENSHOTS when it is set.
 */
import { expect, test, type APIRequestContext, type Page } from './support/fixtures';
import { axeViolations } from './support/axe';
import type { ChatSendResponse } from '../../src/shared/chat';
import { ADMIN_STATE, freshClientIp, gotoHydrated } from './support/accounts';
import { callAction } from './support/admin-actions';
import { VIEWPORTS } from './support/public-pages';

test.use({ storageState: ADMIN_STATE });

const SHOTS = process.env.CHAT_SCREENSHOTS;
async function shot(page: Page, name: string) {
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: false });
}

const noAxeViolations = (page: Page) => axeViolations(page);

const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

let visitor: APIRequestContext;
test.beforeAll(async ({ playwright, baseURL }) => {
  // No cookies: the admin's session must not reach the visitor's requests.
  visitor = await playwright.request.newContext({ baseURL: baseURL!, storageState: { cookies: [], origins: [] } });
});
test.afterAll(async () => visitor.dispose());

/** A chat visitor of their own (id and client address: messages are rate-limited per both). */
function newVisitor(baseURL: string) {
  const id = Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
  const headers = { origin: baseURL, 'x-chat-visitor': id, 'x-real-ip': freshClientIp() };
  return {
    async send(body: string): Promise<ChatSendResponse> {
      const res = await visitor.post('/api/chat/messages', { headers, data: { body } });
      expect(res.status(), await res.text()).toBe(200);
      return (await res.json()) as ChatSendResponse;
    },
    async contact(fields: { name: string; email: string; message?: string }) {
      const res = await visitor.post('/api/chat/contact', { headers, data: fields });
      expect(res.status(), await res.text()).toBe(200);
    },
  };
}

test('"Chat" in the admin menu opens the chat inbox; the settings are one tab away and back', async ({ page }) => {
  test.setTimeout(90_000);
  for (const viewport of [VIEWPORTS.desktop, VIEWPORTS.phone]) {
    await page.setViewportSize(viewport);
    await gotoHydrated(page, '/admin');
    const phone = viewport.width < 1024;
    // Under 1024 px the sidebar is behind the menu button.
    if (phone) await page.locator('[data-admin-menu] summary').click();
    await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: /^Chat( \d+ unread)?$/ }).filter({ visible: true }).click();
    await expect(page).toHaveURL(/\/admin\/chat-settings$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Chat inbox');
    // After the count of what waits, when something does (issue 35: another spec's chat may be unanswered).
    await expect(page).toHaveTitle(/^(\(\d+\) )?Chat inbox · Admin/);
    const tabs = page.getByRole('navigation', { name: 'Chat' });
    await expect(tabs.getByRole('link', { name: /^Inbox/ })).toHaveAttribute('aria-current', 'page');
    // The header's time-zone link goes to where the zone is set: the general settings.
    await expect(page.locator('[data-admin-time-zone]').getByRole('link', { name: 'change zone' })).toHaveAttribute('href', '/admin/settings#time-zone');
    await shot(page, `inbox-${viewport.width}`);

    await tabs.getByRole('link', { name: 'Settings' }).click();
    await expect(page).toHaveURL(/\/admin\/chat-settings\/settings$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Chat settings');
    await expect(page.getByRole('heading', { name: 'Widget' })).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Chat' }).getByRole('link', { name: 'Settings' })).toHaveAttribute('aria-current', 'page');
    // Still "Chat" in the sidebar: the settings are part of it.
    await expect(page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name: 'Chat inbox' })).toHaveAttribute('href', '/admin/chat-settings');
    await shot(page, `settings-${viewport.width}`);
    expect(await noAxeViolations(page)).toEqual([]);
    await page.getByRole('navigation', { name: 'Chat' }).getByRole('link', { name: /^Inbox/ }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Chat inbox');
  }
});

test('the inbox row previews the visitor’s last words, live: not the assistant’s answer, not the thank-you', async ({ page, baseURL }) => {
  await gotoHydrated(page, '/admin/chat-settings');
  await expect(page.locator('[data-feed="live"]').first()).toBeVisible();
  const guest = newVisitor(baseURL!);
  const ask = `Can I talk to a real person? ${unique()}`;
  const sent = await guest.send(ask);
  // The person path: the assistant said someone will answer here, and asked for the details.
  expect(sent.messages.map((m) => m.author)).toEqual(['visitor', 'assistant']);
  expect(sent.messages[1]!.body).toMatch(/Someone from our team will answer here/);
  expect(sent.askContact).toBe(true);

  const row = page.locator(`[data-conversation-row="${sent.conversation.id}"]`);
  await expect(row.locator('[data-preview]')).toHaveText(ask, { timeout: 5000 });

  const words = `Three clinics in Leeds, please call after 3pm ${unique()}`;
  await guest.contact({ name: 'Ada Quill', email: `ada-${unique()}@clinic.example`, message: words });
  await expect(row.locator('[data-preview]')).toHaveText(words, { timeout: 5000 });
  await expect(row).not.toContainText('Thank you');
  await expect(row.locator('[data-display-name]')).toHaveText('Ada Quill');

  // The same after a reload (rendered on the server).
  await page.reload();
  await expect(page.locator(`[data-conversation-row="${sent.conversation.id}"] [data-preview]`)).toHaveText(words);
});

test('on a phone the reply box stays on screen while a long thread scrolls above it', async ({ page, baseURL }) => {
  test.setTimeout(90_000);
  const guest = newVisitor(baseURL!);
  const first = await guest.send(`Hello, what do you automate for clinics? ${unique()}`);
  const id = first.conversation.id;
  for (const question of ['Do you write the reminders?', 'How long does setup take?', 'Do you work with dentists?', 'Can you help with reviews?', 'What is the free audit?']) await guest.send(question);
  for (let i = 1; i <= 8; i++) {
    const reply = await callAction(page.request, baseURL!, 'admin.chat.reply', {
      conversationId: id,
      body: `Reply ${i}: yes, we set that up for clinics like yours, and we write every message with you before it goes live. ${unique()}`,
    });
    expect(reply.status, JSON.stringify(reply.error)).toBe(200);
  }

  await page.setViewportSize(VIEWPORTS.phone);
  await gotoHydrated(page, `/admin/chat-settings/${id}`);
  const messages = page.locator('[data-messages] [data-message]');
  await expect(messages).toHaveCount(20);
  const reply = page.getByLabel('Your reply');
  // It opens at the newest message, with the reply box under it.
  await expect(messages.last()).toBeInViewport();
  await expect(reply).toBeInViewport({ ratio: 1 });
  await shot(page, 'conversation-390');

  // Scrolled back to the first message, and to the middle: the reply box is still on screen, on top.
  for (const message of [messages.first(), messages.nth(10)]) {
    await message.scrollIntoViewIfNeeded();
    await expect(message).toBeInViewport();
    await expect(reply).toBeInViewport({ ratio: 1 });
    const onTop = await reply.evaluate((el) => {
      const r = el.getBoundingClientRect();
      return document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2) === el;
    });
    expect(onTop, 'nothing covers the reply box').toBe(true);
  }
  await shot(page, 'conversation-390-scrolled');

  // It works from there: the reply reaches the thread, the newest message is in view again.
  const text = `Answered from the phone ${unique()}`;
  await reply.fill(text);
  await page.getByRole('button', { name: 'Send reply' }).click();
  await expect(page.locator('[data-author="admin"] [data-message-body]').last()).toHaveText(text);
  await expect(page.locator('[data-author="admin"]').last()).toBeInViewport();
  expect(await noAxeViolations(page)).toEqual([]);

  await page.setViewportSize(VIEWPORTS.desktop);
  await gotoHydrated(page, `/admin/chat-settings/${id}`);
  await expect(page.getByLabel('Your reply')).toBeInViewport();
  await shot(page, 'conversation-1280');
});
