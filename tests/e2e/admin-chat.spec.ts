/**
 * /admin/chat-settings as the admin uses it, in Chromium: the settings reach every public page's widget on
 * the next request (pages requested until they are cache hits first), bad input is told beside its field
 * and saves nothing, quick replies reorder by keyboard, switching the chat off removes the widget from a
 * cached page at once; and the inbox: a visitor's conversation shows with its unread count, the admin opens
 * it, replies (the visitor's stream gets it), marks it handled; markup typed by a visitor is text in admin.
 * The settings go back to the defaults afterwards, as the other specs expect.
 */
import { expect, test, type APIRequestContext, type Page } from './support/fixtures';
import { DEFAULT_CHAT_SETTINGS, type ChatMessageDto, type ChatSendResponse, type PublicChatConfig } from '../../src/shared/chat';
import { ADMIN_STATE, freshClientIp, gotoHydrated, islandsHydrated } from './support/accounts';
import { callAction } from './support/admin-actions';
import { moveByKeyboard } from './support/sortable';

test.use({ storageState: ADMIN_STATE });

const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

let visitor: APIRequestContext;
test.beforeAll(async ({ playwright, baseURL }) => {
  // No cookies: the admin's session must not reach the visitor's requests.
  visitor = await playwright.request.newContext({ baseURL: baseURL!, storageState: { cookies: [], origins: [] } });
});

test.afterAll(async ({ playwright, baseURL }) => {
  await visitor.dispose();
  const admin = await playwright.request.newContext({ baseURL, storageState: ADMIN_STATE });
  const restored = await callAction(admin, baseURL!, 'admin.chat.saveSettings', { value: DEFAULT_CHAT_SETTINGS });
  expect(restored.status, JSON.stringify(restored.error)).toBe(200);
  await admin.dispose();
});

/** Asks for `path` until the route cache answers it, so the next check proves the save invalidated it. */
async function cachedAsVisitor(path: string) {
  await visitor.get(path);
  const second = await visitor.get(path);
  expect(second.headers()['x-astro-cache'], `${path} is served from the route cache`).toBe('HIT');
}

async function visitorHtml(path: string) {
  const res = await visitor.get(path);
  expect(res.status()).toBe(200);
  return res.text();
}

/** The widget's public settings as the visitor's page carries them (its JSON), or undefined: no widget. */
async function widgetConfig(path: string): Promise<PublicChatConfig | undefined> {
  const json = /<script type="application\/json" id="chat-config">([\s\S]*?)<\/script>/.exec(await visitorHtml(path))?.[1];
  return json ? (JSON.parse(json) as PublicChatConfig) : undefined;
}

async function saveWithShortcut(page: Page) {
  await page.keyboard.press('ControlOrMeta+s');
  await expect(page.locator('[data-save-state]')).toHaveText('All changes saved');
}

async function openSettings(page: Page) {
  await gotoHydrated(page, '/admin/chat-settings/settings');
  await expect(page.getByRole('heading', { name: 'Widget' })).toBeVisible();
}

test.describe.serial('settings', () => {
  test('name, greeting and accent colour reach the widget of cached public pages on the next request', async ({ page }) => {
    const name = `Ada ${unique()}`;
    const greeting = `Hello from the test ${unique()}!`;
    await cachedAsVisitor('/');
    await cachedAsVisitor('/services');
    await openSettings(page);
    await page.getByLabel('Assistant name').fill(name);
    await page.getByLabel('Greeting').fill(greeting);
    await page.getByLabel('Accent colour (hex)').fill('#0f766e');
    // The live preview and the contrast rule follow the typing.
    const preview = page.locator('[data-chat-preview]');
    await expect(preview).toContainText(name);
    await expect(preview).toContainText(greeting);
    await expect(page.getByText(/White text on it has 5\.\d:1 contrast: readable/)).toBeVisible();
    await saveWithShortcut(page);

    for (const path of ['/', '/services']) {
      expect(await widgetConfig(path), path).toMatchObject({ assistantName: name, greeting, accentColor: '#0f766e' });
    }
    // The launcher is named after the assistant.
    await page.goto('/services');
    await expect(page.getByRole('button', { name: `Chat with ${name}` })).toBeVisible();
    // The editor opens with what was saved.
    await openSettings(page);
    await expect(page.getByLabel('Assistant name')).toHaveValue(name);
  });

  test('a too-light accent and a javascript: link are told beside their fields; nothing is saved', async ({ page }) => {
    await openSettings(page);
    const before = await page.getByLabel('Assistant name').inputValue();
    await page.getByLabel('Accent colour (hex)').fill('#ffff00');
    await expect(page.getByText(/only 1\.\d:1 contrast: too light/)).toBeVisible();
    const reply = page.getByRole('group', { name: /Get a free audit/ });
    await reply.getByLabel('Link').fill('javascript:alert(1)');
    await page.getByLabel('Assistant name').fill(`Never saved ${unique()}`);
    await page.keyboard.press('ControlOrMeta+s');
    await expect(page.getByTestId('editor-invalid')).toBeVisible();
    await expect(page.getByLabel('Accent colour (hex)')).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByText(/Is too light for white text/)).toBeVisible();
    await expect(reply.getByLabel('Link')).toHaveAttribute('aria-invalid', 'true');
    await expect(reply.getByText('Must be a path like /free-audit or an https:// address')).toBeVisible();

    // The server refuses the same values on its own (the form's check is only a convenience).
    const refused = await callAction(page.request, new URL(page.url()).origin, 'admin.chat.saveSettings', {
      value: { ...DEFAULT_CHAT_SETTINGS, accentColor: '#ffff00', quickReplies: [{ kind: 'link', label: 'Click', value: 'javascript:alert(1)' }] },
    });
    expect(refused.status).toBe(400);

    const config = await widgetConfig('/');
    expect(config?.accentColor).not.toBe('#ffff00');
    expect(config?.quickReplies.map((q) => q.value)).not.toContain('javascript:alert(1)');
    expect(config?.assistantName).toBe(before);
    // Leave without the draft: reload offers it back, discard it.
    page.on('dialog', (d) => void d.accept());
    await page.evaluate(() => Object.keys(localStorage).forEach((k) => k.includes('chat-settings') && localStorage.removeItem(k)));
    await openSettings(page);
    await expect(page.getByLabel('Assistant name')).toHaveValue(before);
  });

  test('quick replies reorder by keyboard, and the widget gets the new order', async ({ page }) => {
    await openSettings(page);
    const labels = () => page.locator('[data-object-item] > div:first-child > p').allTextContents();
    expect(await labels()).toEqual(['1. What do you offer?', '2. Get a free audit', '3. Talk to a person']);
    await moveByKeyboard(page, 'Talk to a person', 3, 1);
    expect(await labels()).toEqual(['1. Talk to a person', '2. What do you offer?', '3. Get a free audit']);
    await saveWithShortcut(page);
    await openSettings(page);
    expect(await labels()).toEqual(['1. Talk to a person', '2. What do you offer?', '3. Get a free audit']);
    expect((await widgetConfig('/'))?.quickReplies.map((q) => q.label)).toEqual(['Talk to a person', 'What do you offer?', 'Get a free audit']);
  });

  test('switching the chat off removes the widget from a page cached before; on again brings it back', async ({ page }) => {
    await openSettings(page);
    await cachedAsVisitor('/services');
    expect(await widgetConfig('/services'), 'the widget is on the cached page').toBeDefined();

    await page.getByLabel('Show the chat on every page').uncheck();
    await expect(page.locator('[data-chat-preview]')).toContainText('the chat is off');
    await saveWithShortcut(page);
    expect(await widgetConfig('/services'), 'the widget is gone').toBeUndefined();
    await page.goto('/services');
    await expect(page.locator('[data-chat-launcher]')).toHaveCount(0);
    const closed = await visitor.post('/api/chat/messages', { headers: { origin: new URL(page.url()).origin, 'x-chat-visitor': 'a'.repeat(32) }, data: { body: 'Anyone there?' } });
    expect(closed.status()).toBe(404);

    await openSettings(page);
    await page.getByLabel('Show the chat on every page').check();
    await saveWithShortcut(page);
    expect(await widgetConfig('/services'), 'the widget is back').toBeDefined();
  });
});

// ---------------------------------------------------------------------------------------------------------
// The inbox

/** A visitor of the widget: a random id sent as X-Chat-Visitor, from their own client address. */
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
    async poll(conversation: ChatSendResponse['conversation'], after: number): Promise<ChatMessageDto[]> {
      const res = await visitor.get(`/api/chat/poll?c=${conversation.id}&t=${encodeURIComponent(conversation.streamToken)}&after=${after}`, { headers });
      expect(res.status()).toBe(200);
      return ((await res.json()) as { messages: ChatMessageDto[] }).messages;
    },
  };
}

test.describe.serial('inbox', () => {
  test('a visitor’s conversation appears live with its unread count; the admin opens it, replies (the visitor gets it), hands it back and marks it handled', async ({ page, baseURL }) => {
    test.setTimeout(90_000);
    await gotoHydrated(page, '/admin/chat-settings');
    await expect(page.locator('[data-feed="live"]').first()).toBeVisible();

    const guest = newVisitor(baseURL!);
    const question = `Do you work with dentists in Leeds? ${unique()}`;
    const sent = await guest.send(question);
    const conversationId = sent.conversation.id;

    // Live: the row arrives at the top without a reload, with its unread count, and is announced.
    const row = page.locator(`[data-conversation-row="${conversationId}"]`);
    await expect(row).toBeVisible({ timeout: 5000 });
    // The preview is the visitor's last words, not the assistant's answer after them.
    await expect(row).toContainText(`Visitor ${conversationId.slice(0, 4)}…`);
    await expect(row.locator('[data-preview]')).toHaveText(question);
    await expect(row.locator('[data-unread]')).toHaveText(/\d+ unread/);
    await expect(page.locator('[data-inbox-announcement]')).toContainText('New message from Visitor');
    // Without script the same list renders on the server.
    const html = await (await page.request.get('/admin/chat-settings')).text();
    expect(html).toContain(`/admin/chat-settings/${conversationId}`);

    await row.getByRole('link').click();
    await expect(page).toHaveURL(new RegExp(`/admin/chat-settings/${conversationId}$`));
    await islandsHydrated(page);
    await expect(page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name: 'Chat inbox' })).toBeVisible();
    await expect(page.locator('[data-author="visitor"] [data-message-body]').first()).toHaveText(question);
    await expect(page.locator('[data-feed="live"]')).toBeVisible();
    // Opening it read it.
    await expect
      .poll(async () => {
        const res = await page.request.get('/api/admin/chat/inbox');
        return ((await res.json()) as { conversations: { id: string; unread: number }[] }).conversations.find((c) => c.id === conversationId)?.unread;
      })
      .toBe(0);

    const lastSeq = sent.messages.at(-1)!.seq;
    const reply = `Yes, we do — I am here to help. ${unique()}`;
    await page.getByLabel('Your reply').fill(reply);
    await page.getByRole('button', { name: 'Send reply' }).click();
    await expect(page.locator('[data-author="admin"] [data-message-body]').last()).toHaveText(reply);
    await expect(page.locator('[data-conversation-state]')).toContainText('is answering: the assistant stays quiet');
    // The visitor's poll has the admin's answer.
    await expect.poll(async () => (await guest.poll(sent.conversation, lastSeq)).map((m) => [m.author, m.body]), { timeout: 5000 }).toContainEqual(['admin', reply]);

    // A visitor message while taken over: live on the admin's page, no assistant answer.
    const follow = await guest.send('Great, can we talk tomorrow?');
    expect(follow.messages.map((m) => m.author)).toEqual(['visitor']);
    await expect(page.locator('[data-author="visitor"] [data-message-body]').last()).toHaveText('Great, can we talk tomorrow?', { timeout: 5000 });
    await expect(page.locator('[data-conversation-announcement]')).toContainText('Great, can we talk tomorrow?');

    await page.getByRole('button', { name: 'Hand back to the assistant' }).click();
    await expect(page.locator('[data-conversation-state]')).toContainText('The assistant answers.');
    const answered = await guest.send('What services do you offer?');
    expect(answered.messages.map((m) => m.author)).toEqual(['visitor', 'assistant']);

    // The visitor leaves their details: said at once; after a reload the lead's links are there.
    const email = `lead-${unique()}@clinic.example`;
    await guest.contact({ name: 'Dr <i>Ada</i> Quill', email, message: 'Call me after 3pm <script>x</script>' });
    await expect(page.locator('[data-contact-arrived]')).toContainText(email, { timeout: 5000 });
    await page.locator('[data-contact-arrived]').getByRole('link').click();
    await islandsHydrated(page);
    const contact = page.locator('[data-contact]');
    await expect(contact).toContainText('Dr <i>Ada</i> Quill');
    await expect(contact).toContainText('Call me after 3pm <script>x</script>');
    await expect(contact.getByRole('link', { name: email })).toHaveAttribute('href', `mailto:${email}`);
    await expect(page.locator('[data-audit-link]')).toHaveAttribute('href', `/admin/audit?q=${encodeURIComponent(email)}`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Chat with Dr <i>Ada</i> Quill');

    await page.getByRole('button', { name: 'Mark handled' }).click();
    await expect(page.locator('[data-conversation-state]')).toContainText('Handled');
    await expect(page.getByRole('button', { name: 'Reopen' })).toBeVisible();
    await page.goto('/admin/chat-settings');
    await expect(page.locator(`[data-conversation-row="${conversationId}"]`)).toHaveCount(0);
    await page.goto('/admin/chat-settings?status=handled');
    await expect(page.locator(`[data-conversation-row="${conversationId}"]`)).toHaveCount(1);
  });

  test('markup a visitor types is text in the inbox and the conversation; an unknown conversation is a 404', async ({ page, baseURL }) => {
    const guest = newVisitor(baseURL!);
    const markup = '<img src=x onerror=window.__xss=1> <b>bold?</b>';
    const sent = await guest.send(markup);
    await gotoHydrated(page, '/admin/chat-settings');
    await expect(page.locator(`[data-conversation-row="${sent.conversation.id}"]`)).toBeVisible();
    // The sidebar counts the chats with unread messages beside "Chat".
    await expect(page.getByRole('navigation', { name: 'Admin' }).first().locator('[data-live-count="unreadChats"]')).toHaveText(/^\d+ unread$/);
    await gotoHydrated(page, `/admin/chat-settings/${sent.conversation.id}`);
    await expect(page.locator('[data-author="visitor"] [data-message-body]').first()).toHaveText(markup);
    expect(await page.locator('[data-messages] img, [data-messages] b').count()).toBe(0);
    expect(await page.evaluate(() => (window as { __xss?: number }).__xss)).toBeUndefined();

    expect((await page.request.get('/admin/chat-settings/00000000-0000-4000-8000-000000000000')).status()).toBe(404);
    expect((await page.request.get('/admin/chat-settings/not-a-conversation')).status()).toBe(404);
  });

  test('the inbox works without script: filters and pages are links', async ({ browser }) => {
    const context = await browser.newContext({ storageState: ADMIN_STATE, javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto('/admin/chat-settings');
    await page.getByRole('navigation', { name: 'Conversation filter' }).getByRole('link', { name: 'All' }).click();
    await expect(page).toHaveURL(/\/admin\/chat-settings\?status=all$/);
    await expect(page.getByRole('navigation', { name: 'Conversation filter' }).getByRole('link', { name: 'All' })).toHaveAttribute('aria-current', 'page');
    await expect(page.locator('[data-conversation-row]').first()).toBeVisible();
    await context.close();
  });
});
