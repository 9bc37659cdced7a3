/**
 * Editing the policy pages (src/server/modules/policies/service.ts) and the rich-text preview: an admin's
 * write only, sanitized, version-checked (a second admin is told who saved), recorded and revertible;
 * saving the built-in text restores the default. The preview Action returns exactly what saving stores.
 */
import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { activityLog, appConfig, users } from '../../src/server/db/schema';
import { sanitizeHtml } from '../../src/server/html/sanitize';
import { revertChange, getForEditor } from '../../src/server/modules/content/service';
import { getPolicy, policyConfigKey } from '../../src/server/modules/pages/service';
import { getPolicyForEditor, savePolicy } from '../../src/server/modules/policies/service';
import { getSiteContent } from '../../src/server/modules/site/service';
import { DEFAULT_POLICIES_UPDATED_AT } from '../../src/shared/policies';
import { createAuthHarness, type AuthHarness, type Browser } from '../support/auth';
import { readSession } from '../../src/server/guards/session';

vi.mock('astro:actions', async () => {
  const server = await import('../../node_modules/astro/dist/actions/runtime/server.js');
  const client = await import('../../node_modules/astro/dist/actions/runtime/client.js');
  return { defineAction: server.defineAction, ActionError: client.ActionError, isInputError: client.isInputError };
});
const { server } = await import('../../src/actions');

let h: AuthHarness;
let owner: { userId: string; browser: Browser };
let member: { userId: string; browser: Browser };
beforeEach(async () => {
  h = await createAuthHarness();
  owner = await h.signUpVerified({ email: 'owner@example.com' });
  member = await h.signUpVerified({ email: 'member@example.com' });
});
afterEach(() => h.close());

const activities = () => h.handle.db.select().from(activityLog).orderBy(activityLog.at);
const storedRow = async (kind: 'privacy' | 'terms') => (await h.handle.db.select().from(appConfig).where(eq(appConfig.key, policyConfigKey(kind))))[0];

async function contextFor(browser?: Browser) {
  const headers = new Headers(browser ? { cookie: browser.cookieHeader } : {});
  const found = await readSession(headers, (hs) => h.auth.api.getSession({ headers: hs }));
  return { locals: found ? { user: found.user, session: found.session } : {} };
}
type Handler = { orThrow: (this: unknown, input: unknown) => Promise<unknown> };
const call = async <T,>(action: unknown, input: unknown, browser?: Browser) => (await (action as Handler).orThrow.call(await contextFor(browser), input)) as T;

describe('who may edit a policy', () => {
  it('refuses a member and a visitor, and changes nothing', async () => {
    await expect(savePolicy(member.userId, 'privacy', { version: '', html: '<p>Mine now</p>' })).rejects.toMatchObject({ code: 'NOT_ADMIN' });
    await expect(savePolicy(undefined, 'privacy', { version: '', html: '<p>Mine now</p>' })).rejects.toMatchObject({ code: 'NO_USER_LOGGED_IN' });
    await expect(call(server.admin.policies.save, { kind: 'terms', version: '', fields: { html: '<p>x</p>' } }, member.browser)).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(call(server.admin.html.preview, { html: '<p>x</p>' }, member.browser)).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(call(server.admin.html.preview, { html: '<p>x</p>' })).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    expect(await storedRow('privacy')).toBeUndefined();
    expect(await storedRow('terms')).toBeUndefined();
    expect(await activities()).toEqual([]);
  });
});

describe('saving a policy', () => {
  it('opens the built-in text with an empty version, then saves sanitized HTML dated now, recorded with before and after', async () => {
    const opened = await getPolicyForEditor('privacy');
    expect(opened).toMatchObject({ kind: 'privacy', version: '', isDefault: true, updatedAt: DEFAULT_POLICIES_UPDATED_AT.toISOString() });
    expect(opened.html).toBe(opened.defaultHtml);

    const saved = await savePolicy(owner.userId, 'privacy', { version: '', html: '<h2 onclick="x()">Ours</h2><p>We keep <a href="javascript:alert(1)">nothing</a>.</p><script>alert(1)</script>' });
    expect(saved.tags).toEqual(['policies']);
    expect(saved.snapshot).toMatchObject({ html: '<h2>Ours</h2><p>We keep <a>nothing</a>.</p>', isDefault: false });
    expect(saved.version).toBe(saved.snapshot.updatedAt);

    const site = await getSiteContent();
    const page = await getPolicy('privacy', site);
    expect(page).toEqual({ html: '<h2>Ours</h2><p>We keep <a>nothing</a>.</p>', updatedAt: new Date(saved.snapshot.updatedAt), isDefault: false });
    expect((await getPolicyForEditor('privacy')).version).toBe(saved.version);
    // The terms are untouched.
    expect((await getPolicy('terms', site)).isDefault).toBe(true);

    const [entry] = await activities();
    expect(entry).toMatchObject({ actorEmail: 'owner@example.com', action: 'update', entityType: 'policy', entityId: 'privacy', summary: 'Updated the privacy policy' });
    expect(entry!.before).toMatchObject({ isDefault: true, html: opened.defaultHtml });
    expect(entry!.after).toEqual(saved.snapshot);
  });

  it('refuses an empty page (or one that is only markup or scripts) with a message on the field', async () => {
    for (const html of ['', '<p></p>', '<p> </p><script>alert(1)</script>', '<style>p{}</style>']) {
      await expect(savePolicy(owner.userId, 'terms', { version: '', html })).rejects.toMatchObject({
        code: 'INVALID',
        fieldErrors: { html: 'Write the text of this page, or restore the default text.' },
      });
    }
    await expect(call(server.admin.policies.save, { kind: 'terms', version: '', fields: { html: 'x'.repeat(300_001) } }, owner.browser)).rejects.toMatchObject({
      type: 'AstroActionInputError',
    });
    expect(await storedRow('terms')).toBeUndefined();
  });

  it('a second admin saving later is told who saved; nothing is overwritten; a retried save of the same text passes', async () => {
    await h.handle.db.update(users).set({ role: 'admin' }).where(eq(users.id, member.userId));
    const opened = await getPolicyForEditor('terms');
    const first = await savePolicy(owner.userId, 'terms', { version: opened.version, html: '<p>First admin’s terms</p>' });
    // The first editor's retry (its answer was lost): accepted, nothing changes, nothing recorded.
    expect((await savePolicy(owner.userId, 'terms', { version: opened.version, html: '<p>First admin’s terms</p>' })).tags).toEqual([]);
    await expect(savePolicy(member.userId, 'terms', { version: opened.version, html: '<p>Second admin’s terms</p>' })).rejects.toMatchObject({
      code: 'CONFLICT',
      message: expect.stringMatching(/^owner@example\.com saved this terms of service at \d\d:\d\d, after you opened it\. Your changes are kept here/),
    });
    expect((await getPolicyForEditor('terms')).html).toBe('<p>First admin’s terms</p>');
    // With the current version, the second admin's save goes through.
    await savePolicy(member.userId, 'terms', { version: first.version, html: '<p>Second admin’s terms</p>' });
    expect((await getPolicyForEditor('terms')).html).toBe('<p>Second admin’s terms</p>');
    expect((await activities()).map((e) => e.actorEmail)).toEqual(['owner@example.com', 'member@example.com']);
  });

  it('saving exactly the built-in text restores the default: nothing stored, the page follows the site texts again', async () => {
    const opened = await getPolicyForEditor('privacy');
    const saved = await savePolicy(owner.userId, 'privacy', { version: '', html: '<p>Custom</p>' });
    expect(await storedRow('privacy')).toBeDefined();

    const restored = await savePolicy(owner.userId, 'privacy', { version: saved.version, html: opened.defaultHtml });
    expect(restored).toMatchObject({ version: '', tags: ['policies'], snapshot: { isDefault: true, updatedAt: DEFAULT_POLICIES_UPDATED_AT.toISOString() } });
    expect(await storedRow('privacy')).toBeUndefined();
    expect(await getPolicyForEditor('privacy')).toMatchObject({ version: '', isDefault: true });
    expect((await activities()).at(-1)).toMatchObject({ summary: 'Restored the default privacy policy', before: { html: '<p>Custom</p>', isDefault: false } });
    // Saving the default again when it is already shown changes nothing.
    expect((await savePolicy(owner.userId, 'privacy', { version: '', html: opened.defaultHtml })).tags).toEqual([]);
    expect(await activities()).toHaveLength(2);
  });

  it('works through the Action, with field errors on fields.html', async () => {
    const result = await call<{ version: string; snapshot: { html: string } }>(server.admin.policies.save, { kind: 'terms', version: '', fields: { html: '<p>Via the Action</p>' } }, owner.browser);
    expect(result.snapshot.html).toBe('<p>Via the Action</p>');
    const bad = await call(server.admin.policies.save, { kind: 'terms', version: result.version, fields: { html: '<p></p>' } }, owner.browser).catch((e: unknown) => e);
    expect(bad).toMatchObject({ type: 'AstroActionInputError', issues: [expect.objectContaining({ path: ['fields', 'html'] })] });
    await expect(call(server.admin.policies.save, { kind: 'cookies', version: '', fields: { html: '<p>x</p>' } }, owner.browser)).rejects.toMatchObject({ type: 'AstroActionInputError' });
  });
});

describe('reverting a policy change from the activity log', () => {
  it('puts the earlier text back (a saved one, or the default), recorded as a revert; refused when the page changed since', async () => {
    const one = await savePolicy(owner.userId, 'terms', { version: '', html: '<p>One</p>' });
    const two = await savePolicy(owner.userId, 'terms', { version: one.version, html: '<p>Two</p>' });
    const [first, second] = await activities();

    // The first change is not the latest: reverting it would silently drop "Two".
    await expect(revertChange(owner.userId, first!.id)).rejects.toMatchObject({ code: 'CONFLICT', message: expect.stringContaining('changed again') });
    expect((await getPolicyForEditor('terms')).html).toBe('<p>Two</p>');

    const reverted = await revertChange(owner.userId, second!.id);
    expect(reverted.tags).toEqual(['policies']);
    expect((await getPolicyForEditor('terms')).html).toBe('<p>One</p>');
    const entry = (await activities()).at(-1)!;
    expect(entry).toMatchObject({ action: 'revert', entityType: 'policy', entityId: 'terms', revertOf: second!.id, before: { html: '<p>Two</p>' }, after: { html: '<p>One</p>' } });
    expect(two.version).not.toBe((await getPolicyForEditor('terms')).version);

    // Back to the built-in text by reverting the very first change (the newest one now is the revert).
    await expect(revertChange(member.userId, first!.id)).rejects.toMatchObject({ code: 'NOT_ADMIN' });
    await revertChange(owner.userId, first!.id);
    expect(await getPolicyForEditor('terms')).toMatchObject({ isDefault: true, version: '' });
    expect(await storedRow('terms')).toBeUndefined();
  });
});

describe('the rich-text preview', () => {
  const dirty =
    '<h1>Title</h1><p onmouseover="alert(1)">Hello <a href="javascript:alert(1)">there</a> <a href="https://example.com" target="_blank">out</a></p>' +
    '<img src="x" onerror="alert(1)" alt="x"><svg onload="alert(1)"><circle r="1"/></svg><iframe src="https://evil.example"></iframe>' +
    '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)></style></mglyph></table></mtext></math><style>body{display:none}</style><ul><li>One &amp; two</li></ul>';

  it('is byte for byte what saving stores, for a service description and for a policy', async () => {
    const { html: preview } = await call<{ html: string }>(server.admin.html.preview, { html: dirty }, owner.browser);
    expect(preview).toBe(sanitizeHtml(dirty));
    expect(preview).not.toMatch(/script|onerror|onload|onmouseover|javascript:|<svg|<iframe|<style|<math/i);

    const created = await call<{ id: string }>(server.admin.services.create, { fields: { name: 'Preview check', description: dirty } }, owner.browser);
    expect((await getForEditor('service', created.id))?.description).toBe(preview);

    await call(server.admin.policies.save, { kind: 'privacy', version: '', fields: { html: dirty } }, owner.browser);
    expect((await getPolicy('privacy', await getSiteContent())).html).toBe(preview);
  });
});
