/**
 * The chat settings as a site-wide document (src/server/modules/site-admin, kind 'chat-settings'): saved by an
 * admin only, validated by chatSettingsSchema with messages by field path (nothing stored on a refusal), refused
 * when based on an older version, recorded with a summary naming the changed settings, reverted from the
 * activity log, and through admin.chat.saveSettings it drops the `chat` tag (every cached public page and the
 * settings' memo), so the widget's public config follows at once.
 */
import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

/** The one origin the server sends its AI key to (decision 018), set before the config is read. */
const LLM_ORIGIN = vi.hoisted(() => (process.env.LLM_API_ORIGIN = 'https://api.example-llm.com'));
import { invalidateMemos } from '../../src/server/cache/memo';
import { activityLog, appConfig } from '../../src/server/db/schema';
import { readSession } from '../../src/server/guards/session';
import { CHAT_SETTINGS_KEY, getChatSettings } from '../../src/server/modules/chat/settings';
import { chatSettingsForEditor, revertDocumentChange, saveChatSettings } from '../../src/server/modules/site-admin/service';
import { siteTimeZone } from '../../src/server/modules/site/time-zone';
import { DEFAULT_CHAT_SETTINGS, publicChatConfig, type ChatSettings } from '../../src/shared/chat';
import { createAuthHarness, type AuthHarness, type Browser } from '../support/auth';

vi.mock('astro:actions', async () => {
  const server = await import('../../node_modules/astro/dist/actions/runtime/server.js');
  const client = await import('../../node_modules/astro/dist/actions/runtime/client.js');
  return { defineAction: server.defineAction, ActionError: client.ActionError, isInputError: client.isInputError };
});
const { server } = await import('../../src/actions');

let h: AuthHarness;
let admin: string;
let adminBrowser: Browser;
let member: string;
let memberBrowser: Browser;
beforeEach(async () => {
  h = await createAuthHarness();
  invalidateMemos(['chat']);
  ({ userId: admin, browser: adminBrowser } = await h.signUpVerified({ email: 'owner@example.com' }));
  ({ userId: member, browser: memberBrowser } = await h.signUpVerified({ email: 'member@example.com' }));
});
afterEach(() => h.close());

const defaults = (): ChatSettings => structuredClone(DEFAULT_CHAT_SETTINGS);
const failure = (code: string) => expect.objectContaining({ code });
const activities = () => h.handle.db.select().from(activityLog).orderBy(activityLog.at);
const lastEntry = async () => (await activities()).at(-1)!;
const storedRow = async () => (await h.handle.db.select().from(appConfig).where(eq(appConfig.key, CHAT_SETTINGS_KEY)))[0];

describe('saving the chat settings', () => {
  it('opens with the defaults, saves with the version it opened, and names the changed settings in the log', async () => {
    expect(await chatSettingsForEditor()).toEqual({ settings: DEFAULT_CHAT_SETTINGS, version: '' });
    const mine = { ...defaults(), assistantName: 'Ada', greeting: 'Hello there!', accentColor: '#0f766e' };
    const first = await saveChatSettings(admin, { value: mine, expectedUpdatedAt: '' });
    expect(first).toMatchObject({ id: CHAT_SETTINGS_KEY, tags: ['chat'] });
    expect(first.version).toBe((await storedRow())!.updatedAt.toISOString());
    expect(await chatSettingsForEditor()).toEqual({ settings: mine, version: first.version });
    invalidateMemos(['chat']);
    expect(publicChatConfig(await getChatSettings())).toMatchObject({ assistantName: 'Ada', greeting: 'Hello there!', accentColor: '#0f766e' });
    expect(await lastEntry()).toMatchObject({
      actorEmail: 'owner@example.com',
      action: 'update',
      entityType: 'chat-settings',
      entityId: CHAT_SETTINGS_KEY,
      summary: 'Updated the chat settings: assistant name, greeting, accent colour',
      before: null,
    });

    // Switching off leads the summary; other changes follow.
    const off = { ...mine, enabled: false, businessHours: { ...mine.businessHours, enabled: true } };
    // A zone sent with the hours (an old script) is not kept: the site's time zone is a general setting (decision 055).
    const second = await saveChatSettings(admin, { value: { ...off, businessHours: { ...off.businessHours, timeZone: 'Europe/Berlin' } }, expectedUpdatedAt: first.version });
    expect((await lastEntry()).summary).toBe('Updated the chat settings: switched the chat off, business hours');
    expect((await lastEntry()).before).toEqual(mine);
    expect((await lastEntry()).after).toEqual(off);
    invalidateMemos(['chat']);
    expect(await siteTimeZone()).toBe('UTC');

    // Another tab that opened before the last save is told who saved; nothing is overwritten.
    await expect(saveChatSettings(admin, { value: { ...mine, greeting: 'Theirs' }, expectedUpdatedAt: first.version })).rejects.toMatchObject({
      code: 'CONFLICT',
      message: expect.stringMatching(/^owner@example\.com saved the chat settings at \d\d:\d\d, after you opened this page/),
    });
    // The same save retried (its answer lost) is accepted without a new entry.
    expect(await saveChatSettings(admin, { value: off, expectedUpdatedAt: first.version })).toEqual({ id: CHAT_SETTINGS_KEY, version: second.version, tags: [] });
    expect(await activities()).toHaveLength(2);
  });

  it('refuses bad settings by field path and stores nothing', async () => {
    const base = defaults();
    const bad = {
      ...base,
      assistantName: '   ',
      accentColor: '#ffff00',
      quickReplies: [
        { kind: 'link', label: 'Click', value: 'javascript:alert(1)' },
        { kind: 'message', label: 'x'.repeat(41), value: 'Hi' },
      ],
      businessHours: { ...base.businessHours, days: { ...base.businessHours.days, monday: { open: true, from: '18:00', to: '09:00' } } },
      llm: { enabled: true, endpoint: 'ftp://llm.example', model: '' },
    };
    await expect(saveChatSettings(admin, { value: bad, expectedUpdatedAt: '' })).rejects.toMatchObject({
      code: 'INVALID',
      fieldErrors: {
        assistantName: expect.any(String),
        accentColor: 'Is too light for white text (needs 4.5:1 contrast)',
        'quickReplies.0.value': 'Must be a path like /free-audit or an https:// address',
        'quickReplies.1.label': expect.any(String),
        'businessHours.days.monday.to': 'Must close after it opens',
        'llm.endpoint': 'Must be an https:// address',
      },
    });
    // Browsers open "/\\host" and "/<tab>/host" as another site: the site's one path rule refuses them.
    for (const value of ['/\\evil.test/x', '/\t/evil.test', '//evil.test']) {
      await expect(saveChatSettings(admin, { value: { ...base, quickReplies: [{ kind: 'link', label: 'Go', value }] }, expectedUpdatedAt: '' }), value).rejects.toMatchObject({
        fieldErrors: { 'quickReplies.0.value': 'Must be a path like /free-audit or an https:// address' },
      });
    }
    await expect(saveChatSettings(admin, { value: { ...base, accentColor: 'red' }, expectedUpdatedAt: '' })).rejects.toMatchObject({
      fieldErrors: { accentColor: 'Must be a colour like #4f46e5' },
    });
    await expect(saveChatSettings(admin, { value: { ...base, llm: { enabled: true, endpoint: '', model: '' } }, expectedUpdatedAt: '' })).rejects.toMatchObject({
      fieldErrors: { 'llm.endpoint': 'Is required when AI answers are on', 'llm.model': 'Is required when AI answers are on' },
    });
    expect(await storedRow()).toBeUndefined();
    expect(await activities()).toEqual([]);
  });

  it('keeps AI answers to LLM_API_ORIGIN: another host, plain http or an internal address is refused beside the field', async () => {
    const base = defaults();
    const attempt = (endpoint: string) => saveChatSettings(admin, { value: { ...base, llm: { enabled: true, endpoint, model: 'gpt-4o-mini' } }, expectedUpdatedAt: '' });
    const offOrigin = `Must start with ${LLM_ORIGIN}/ (LLM_API_ORIGIN), the only address the server sends its API key to`;
    for (const [endpoint, message] of [
      ['https://attacker.example/v1/chat/completions', offOrigin],
      ['https://127.0.0.1/v1/chat/completions', offOrigin],
      ['https://api.example-llm.com:8443/v1/chat/completions', offOrigin],
      ['http://api.example-llm.com/v1/chat/completions', 'Must be an https:// address'],
      ['http://169.254.169.254/latest/meta-data/', 'Must be an https:// address'],
    ]) {
      await expect(attempt(endpoint!), endpoint).rejects.toMatchObject({ code: 'INVALID', fieldErrors: { 'llm.endpoint': message } });
    }
    expect(await storedRow()).toBeUndefined();

    const saved = await attempt(`${LLM_ORIGIN}/v1/chat/completions`);
    expect((await chatSettingsForEditor()).settings.llm).toEqual({ enabled: true, endpoint: `${LLM_ORIGIN}/v1/chat/completions`, model: 'gpt-4o-mini' });
    expect(saved.version).toMatch(/^\d{4}-/);
  });

  it('refuses a member and a visitor', async () => {
    await expect(saveChatSettings(member, { value: { ...defaults(), enabled: false }, expectedUpdatedAt: '' })).rejects.toEqual(failure('NOT_ADMIN'));
    await expect(saveChatSettings(undefined, { value: { ...defaults(), enabled: false } })).rejects.toEqual(failure('NO_USER_LOGGED_IN'));
    expect(await storedRow()).toBeUndefined();
  });

  it('reverts from the activity log: the earlier settings, then the defaults; a later change must be reverted first', async () => {
    const a = await saveChatSettings(admin, { value: { ...defaults(), assistantName: 'First' }, expectedUpdatedAt: '' });
    const firstSave = await lastEntry();
    await saveChatSettings(admin, { value: { ...defaults(), assistantName: 'Second', enabled: false }, expectedUpdatedAt: a.version });
    const secondSave = await lastEntry();

    await expect(revertDocumentChange(admin, firstSave)).rejects.toMatchObject({ code: 'CONFLICT', message: expect.stringContaining('The chat settings changed again after that entry') });
    const reverted = await revertDocumentChange(admin, secondSave);
    expect(reverted.tags).toEqual(['chat']);
    expect((await chatSettingsForEditor()).settings).toMatchObject({ assistantName: 'First', enabled: true });
    expect(await lastEntry()).toMatchObject({ action: 'revert', entityType: 'chat-settings', revertOf: secondSave.id, summary: 'Reverted a change to the chat settings' });

    await revertDocumentChange(admin, firstSave);
    expect(await storedRow()).toBeUndefined();
    expect(await chatSettingsForEditor()).toEqual({ settings: DEFAULT_CHAT_SETTINGS, version: '' });
  });
});

describe('through admin.chat.saveSettings', () => {
  async function contextFor(browser: Browser | undefined, invalidate: (o: { tags: string[] }) => void) {
    const headers = new Headers(browser ? { cookie: browser.cookieHeader } : {});
    const found = await readSession(headers, (hs) => h.auth.api.getSession({ headers: hs }));
    return { locals: found ? { user: found.user, session: found.session } : {}, cache: { enabled: true, invalidate } };
  }
  type Handler = { orThrow: (this: unknown, input: unknown) => Promise<unknown> };
  const call = async (action: unknown, input: unknown, browser: Browser | undefined, invalidate = vi.fn()) =>
    (action as Handler).orThrow.call(await contextFor(browser, invalidate), input);

  it('saves, drops the chat tag (pages and memo: the widget disappears at once), and the revert Action brings it back', async () => {
    expect((await getChatSettings()).enabled).toBe(true); // memoised now
    const invalidate = vi.fn();
    const saved = (await call(server.admin.chat.saveSettings, { value: { ...defaults(), enabled: false }, expectedUpdatedAt: '' }, adminBrowser, invalidate)) as { version: string };
    expect(saved.version).toMatch(/^\d{4}-/);
    expect(invalidate.mock.calls.map(([o]) => o.tags)).toEqual([['chat']]);
    expect((await getChatSettings()).enabled).toBe(false);

    const entry = await lastEntry();
    await expect(call(server.admin.activity.revert, { id: entry.id }, memberBrowser)).rejects.toMatchObject({ code: 'FORBIDDEN' });
    const again = vi.fn();
    expect(await call(server.admin.activity.revert, { id: entry.id }, adminBrowser, again)).toMatchObject({ id: CHAT_SETTINGS_KEY, version: '' });
    expect(again.mock.calls.map(([o]) => o.tags)).toEqual([['chat']]);
    expect((await getChatSettings()).enabled).toBe(true);
  });

  it('answers field errors under `value` in the shape forms read; refuses a member and a visitor', async () => {
    const bad = call(server.admin.chat.saveSettings, { value: { ...defaults(), accentColor: '#ffff00' }, expectedUpdatedAt: '' }, adminBrowser);
    await expect(bad).rejects.toMatchObject({ type: 'AstroActionInputError', code: 'BAD_REQUEST' });
    const err = (await bad.catch((e: unknown) => e)) as { issues: { path: (string | number)[]; message: string }[] };
    expect(err.issues).toEqual([{ code: 'custom', path: ['value', 'accentColor'], message: 'Is too light for white text (needs 4.5:1 contrast)' }]);
    await expect(call(server.admin.chat.saveSettings, { value: defaults() }, memberBrowser)).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(call(server.admin.chat.saveSettings, { value: defaults() }, undefined)).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    expect(await storedRow()).toBeUndefined();
  });
});
