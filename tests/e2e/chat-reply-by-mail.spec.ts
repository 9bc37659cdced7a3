/**
 * A chat reply reaches a visitor who left (issue 35), in Chromium against the real server: the visitor
 * leaves their email in the chat and closes the tab; the admin's reply goes to that address (the e2e server
 * waits 2 s instead of a minute), from the business's name, answerable, with one-click unsubscribe and
 * nothing the visitor typed; its link opens the conversation in another browser (a phone) with the reply
 * there; a later reply shows as an unread mark on the launcher of the next page. Screenshots and axe at
 * 390 and 1280 px.
 */
import { expect, test, type Browser, type Page } from './support/fixtures';
import { ADMIN_STATE, freshClientIp, gotoHydrated, mailsTo } from './support/accounts';
import { axeViolations } from './support/axe';
import { awayFromQuietHours } from './support/quiet-hours';

test.use({ storageState: ADMIN_STATE });

const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
const launcher = (page: Page) => page.getByRole('button', { name: /^Chat with Autoflow Assistant/ });
const panel = (page: Page) => page.getByRole('dialog', { name: 'Autoflow Assistant' });

async function screenshotsAndAxe(page: Page, name: string) {
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 860 });
    await page.screenshot({ path: test.info().outputPath(`${name}-${width}.png`) });
    // Read at rest (tests/e2e/support/axe.ts): the hero's rotating phrase mid-fade is not a contrast fault.
    expect((await axeViolations(page)).map((v) => `${width}: ${v}`)).toEqual([]);
  }
}

async function reply(page: Page, text: string) {
  await page.getByLabel('Your reply').fill(text);
  await page.getByRole('button', { name: 'Send reply' }).click();
  await expect(page.locator('[data-author="admin"]').filter({ hasText: text })).toBeVisible();
}

test('the team’s reply is emailed to a visitor who left, its link reopens the chat on their phone, and a later reply marks the launcher', async ({ page, browser, request, baseURL }) => {
  test.setTimeout(90_000);
  await awayFromQuietHours(page, request, baseURL!, () => visitorWhoLeftGetsTheReply(page, browser));
});

async function visitorWhoLeftGetsTheReply(page: Page, browser: Browser) {
  const id = unique();
  const email = `ada-${id}@example.com`;

  // The visitor asks something nobody can answer, leaves their email, and closes the tab.
  const desk = await browser.newContext({ storageState: { cookies: [], origins: [] }, extraHTTPHeaders: { 'x-real-ip': freshClientIp() } });
  const visitor = await desk.newPage();
  await gotoHydrated(visitor, '/');
  await launcher(visitor).click();
  await panel(visitor).getByLabel('Your message').fill(`Your account is locked ${id} - verify at https://evil.example/login`);
  await panel(visitor).getByRole('button', { name: 'Send', exact: true }).click();
  const form = panel(visitor).getByRole('form', { name: 'Leave your details' });
  await form.getByLabel('Name').fill('Ada Lovelace');
  await form.getByRole('textbox', { name: 'Email' }).fill(email);
  await form.getByRole('button', { name: 'Send my details' }).click();
  await expect(form).toHaveCount(0);
  const visitorId = await visitor.evaluate(() => localStorage.getItem('chat.visitor'));
  const session = (await (await visitor.request.get('/api/chat/session', { headers: { 'X-Chat-Visitor': visitorId! } })).json()) as { conversation: { id: string } };
  await desk.close();

  // The admin answers; the page says where the answer goes.
  await gotoHydrated(page, `/admin/chat-settings/${session.conversation.id}`);
  await expect(page.locator('[data-reply-help]')).toContainText(`it is emailed to ${email}`);
  await reply(page, `Hi Ada, Olivia here ${id}. We can set up reminders for you.`);

  // The mail: from the business, answerable, one-click unsubscribe, the team's words only.
  await expect.poll(() => mailsTo(email).find((m) => /^Subject: .*replied to your chat/m.test(m)), { timeout: 30_000 }).toBeTruthy();
  const mail = mailsTo(email).find((m) => /^Subject: .*replied to your chat/m.test(m))!;
  expect(mail).toMatch(/^From: "?Autoflow Agency"? <no-reply@localhost>/m);
  expect(mail).toMatch(/^Reply-To: .*<\S+@\S+>/m);
  expect(mail).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click/m);
  expect(mail).toContain(`Olivia here ${id}`);
  expect(mail).not.toContain('evil.example');
  const link = /Continue the conversation: (\S+)/.exec(mail)![1]!;
  expect(link).toMatch(/\/\?chat=[\w.-]+$/);

  // The link, opened on a phone that never chatted: the conversation opens with the reply in it.
  const phone = await browser.newContext({ storageState: { cookies: [], origins: [] }, viewport: { width: 390, height: 860 }, extraHTTPHeaders: { 'x-real-ip': freshClientIp() } });
  const reader = await phone.newPage();
  await reader.goto(new URL(link).pathname + new URL(link).search);
  await expect(panel(reader)).toBeVisible();
  await expect(panel(reader).locator('[data-chat-author="admin"]')).toContainText(`Olivia here ${id}`);
  await expect(reader).toHaveURL((url) => !url.searchParams.has('chat'));
  await screenshotsAndAxe(reader, 'chat-resumed');
  await panel(reader).getByRole('button', { name: 'Close chat' }).click();

  // A later reply, while their chat is closed: the launcher of the next page they open marks it.
  await reply(page, `One more thing ${id}: which days suit you?`);
  await gotoHydrated(reader, '/services');
  await expect(launcher(reader)).toHaveAccessibleName('Chat with Autoflow Assistant (1 new reply)');
  await expect(reader.locator('[data-chat-unread]')).toHaveText('1');
  await screenshotsAndAxe(reader, 'chat-unread-mark');
  await launcher(reader).click();
  await expect(panel(reader).locator('[data-chat-author="admin"]').last()).toContainText('which days suit you?');
  await expect(reader.locator('[data-chat-unread]')).toBeHidden();
  await phone.close();
}
