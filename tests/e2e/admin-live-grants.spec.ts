/**
 * A grant ends everywhere (docs/decisions/017), in Chromium: an admin with the chat inbox open is demoted
 * from another admin's session, and their open page stops receiving the inbox's live messages (its feed
 * says it is no longer updating); and a stream the server ends routinely (its lifetime is up) is replaced
 * at once, without the inbox ever showing anything but "Live".
 */
import { expect, test, type APIRequestContext, type Page } from './support/fixtures';
import type { ChatSendResponse } from '../../src/shared/chat';
import { ADMIN_STATE, createVerifiedAccount, freshClientIp, gotoHydrated, logInViaUi, sessionUser } from './support/accounts';
import { callAction } from './support/admin-actions';

test.use({ storageState: ADMIN_STATE });

const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

let visitor: APIRequestContext;
test.beforeAll(async ({ playwright, baseURL }) => {
  // No cookies: the admin's session must not reach the visitor's requests.
  visitor = await playwright.request.newContext({ baseURL: baseURL!, storageState: { cookies: [], origins: [] } });
});
test.afterAll(() => visitor.dispose());

/** A new widget visitor's first message (a new conversation, so a new row in the inbox). */
async function visitorWrites(baseURL: string, body: string): Promise<string> {
  const id = Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
  const res = await visitor.post('/api/chat/messages', { headers: { origin: baseURL, 'x-chat-visitor': id, 'x-real-ip': freshClientIp() }, data: { body } });
  expect(res.status(), await res.text()).toBe(200);
  return ((await res.json()) as ChatSendResponse).conversation.id;
}

const rowOf = (page: Page, conversationId: string) => page.locator(`[data-conversation-row="${conversationId}"]`);

/** Every value the inbox's feed indicator takes, recorded in the page from the moment it loads. */
async function recordFeedModes(page: Page) {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { feedModes: string[] }).feedModes = seen;
    new MutationObserver(() => {
      const mode = document.querySelector('[data-feed]')?.getAttribute('data-feed');
      if (mode && seen.at(-1) !== mode) seen.push(mode);
    }).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-feed'] });
  });
  return () => page.evaluate(() => (window as unknown as { feedModes: string[] }).feedModes);
}

test('an admin demoted from another admin’s session stops receiving the inbox’s live messages', async ({ browser, playwright, baseURL }) => {
  test.setTimeout(90_000);
  const anonymous = await playwright.request.newContext({ baseURL });
  const helper = await createVerifiedAccount(anonymous, baseURL!, 'grant');
  await anonymous.dispose();

  const context = await browser.newContext({ storageState: { cookies: [], origins: [] }, extraHTTPHeaders: { 'x-real-ip': freshClientIp() } });
  const page = await context.newPage();
  await logInViaUi(page, helper);
  const helperId = String((await sessionUser(page))!.id);
  const owner = await playwright.request.newContext({ baseURL, storageState: ADMIN_STATE });
  try {
    expect((await callAction(owner, baseURL!, 'admin.users.setRole', { userId: helperId, role: 'admin' })).status).toBe(200);
    await gotoHydrated(page, '/admin/chat-settings');
    await expect(page.locator('[data-feed="live"]')).toBeVisible();
    // Live while they are an admin.
    const before = await visitorWrites(baseURL!, `Before the demotion ${unique()}`);
    await expect(rowOf(page, before)).toBeVisible({ timeout: 5000 });

    expect((await callAction(owner, baseURL!, 'admin.users.setRole', { userId: helperId, role: 'user' })).status).toBe(200);
    // The stream ended with the grant; the reconnect is refused and the feed says so.
    await expect(page.locator('[data-feed="ended"]')).toBeVisible({ timeout: 10_000 });
    await expect(page.locator('[data-feed="ended"]')).toContainText('no longer an admin');
    const after = await visitorWrites(baseURL!, `After the demotion ${unique()}`);
    // The owner's inbox has it; the demoted admin's open page never gets it.
    await expect.poll(async () => ((await (await owner.get('/api/admin/chat/inbox')).json()) as { conversations: { id: string }[] }).conversations.some((c) => c.id === after)).toBe(true);
    await page.waitForTimeout(3000);
    await expect(rowOf(page, after)).toHaveCount(0);
  } finally {
    // The server is left with its one admin for the next spec.
    await callAction(owner, baseURL!, 'admin.users.setRole', { userId: helperId, role: 'user' });
    await owner.dispose();
    await context.close();
  }
});

test('a stream the server ends routinely is replaced at once: the inbox stays live and shows no error', async ({ page, baseURL }) => {
  const feedModes = await recordFeedModes(page);
  let streamsOpened = 0;
  // The first stream ends the way the server ends one whose lifetime is up; the next ones are the server's.
  await page.route('**/api/admin/chat/stream', async (route) => {
    streamsOpened += 1;
    if (streamsOpened > 1) return route.continue();
    await route.fulfill({
      status: 200,
      headers: { 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'private, no-store' },
      // A long retry: only the island's own reconnect on `end` can open the next stream within seconds.
      body: 'retry: 30000\n\nevent: end\ndata: {"reason":"lifetime"}\n\n',
    });
  });
  await gotoHydrated(page, '/admin/chat-settings');
  await expect.poll(() => streamsOpened, { timeout: 5000 }).toBe(2);
  await expect(page.locator('[data-feed="live"]')).toBeVisible();

  const conversationId = await visitorWrites(baseURL!, `After a routine reconnect ${unique()}`);
  await expect(rowOf(page, conversationId)).toBeVisible({ timeout: 5000 });
  // Never "Connecting…", "Checking every few seconds" or "Not updating" along the way.
  expect(await feedModes()).toEqual(['connecting', 'live']);
  expect(streamsOpened).toBe(2);
});
