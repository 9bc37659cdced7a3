/**
 * The general settings as a site-wide document (decision 055; src/server/modules/site-admin, kind
 * 'general-settings'): saved by an admin only through admin.settings.save, validated with messages by field
 * (nothing stored on a refusal), refused when based on an older version, recorded with a summary and
 * labelled field changes, reverted from the activity log, and dropping the `chat` tag so the site's time
 * zone (the admin's times, the chat's business hours) and the Reply-To of the next mail follow at once.
 */
import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { invalidateMemos } from '../../src/server/cache/memo';
import { activityLog, appConfig, mailQueue } from '../../src/server/db/schema';
import { submitAuditRequest } from '../../src/server/modules/audit/service';
import { revertOffers } from '../../src/server/modules/activity/revert-offers';
import { activityPage } from '../../src/server/modules/activity/service';
import { getGeneralSettings } from '../../src/server/modules/settings/general';
import { generalSettingsForEditor, saveGeneralSettings } from '../../src/server/modules/site-admin/service';
import { siteTimeZone } from '../../src/server/modules/site/time-zone';
import { documentChanges } from '../../src/shared/document-changes';
import { DEFAULT_GENERAL_SETTINGS, GENERAL_SETTINGS_KEY } from '../../src/shared/general-settings';
import { auditSubmissionOf } from '../../src/shared/schemas/audit';
import { createAuthHarness, randomIp, type AuthHarness, type Browser } from '../support/auth';
import { actionCaller } from '../support/call-action';

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
  invalidateMemos(['chat', 'site']);
  ({ userId: admin, browser: adminBrowser } = await h.signUpVerified({ email: 'owner@example.com' }));
  ({ userId: member, browser: memberBrowser } = await h.signUpVerified({ email: 'member@example.com' }));
});
afterEach(() => h.close());

const activities = () => h.handle.db.select().from(activityLog).orderBy(activityLog.at);
const lastEntry = async () => (await activities()).at(-1)!;
const storedRow = async () => (await h.handle.db.select().from(appConfig).where(eq(appConfig.key, GENERAL_SETTINGS_KEY)))[0];

const call = (action: unknown, input: unknown, browser: Browser | undefined, invalidate?: (o: { tags: string[] }) => void) => actionCaller(h)(action, input, browser, invalidate);

/** A free-audit request by a new prospect (no owner): the Reply-To of its confirmation is the team's. */
async function confirmationReplyTo(email: string): Promise<string | null> {
  const fields = { fullName: 'Ada Lovelace', email, businessName: 'Analytical Clinic', website: '', businessType: 'clinic', goals: ['more-leads'], message: '', consent: true };
  await submitAuditRequest(auditSubmissionOf(fields), { clientIp: randomIp(), userId: undefined });
  const [mail] = await h.handle.db.select().from(mailQueue).where(eq(mailQueue.to, email));
  return mail?.replyTo ?? null;
}

describe('the general settings, through admin.settings.save', () => {
  it('open as not chosen (UTC); a save sets the zone and the reply address for the site at once, named in the log', async () => {
    expect(await generalSettingsForEditor()).toEqual({ settings: DEFAULT_GENERAL_SETTINGS, version: '' });
    expect(await siteTimeZone()).toBe('UTC'); // memoised now
    expect(await confirmationReplyTo('ada@example.com')).toBe('"Autoflow Agency" <hello@autoflow.agency>');

    const invalidate = vi.fn();
    const saved = (await call(server.admin.settings.save, { version: '', settings: { timeZone: 'Europe/Berlin', replyTo: ' team@autoflow.agency ' } }, adminBrowser, invalidate)) as { id: string; version: string };
    expect(saved).toEqual({ id: GENERAL_SETTINGS_KEY, version: (await storedRow())!.updatedAt.toISOString() });
    // The zone is the chat's business-hours zone too: the tag drops every cached page and the settings' memo.
    expect(invalidate.mock.calls.map(([o]) => o.tags)).toEqual([['chat']]);
    expect(await siteTimeZone()).toBe('Europe/Berlin');
    expect(await getGeneralSettings()).toEqual({ timeZone: 'Europe/Berlin', replyTo: 'team@autoflow.agency' });
    expect(await confirmationReplyTo('grace@example.com')).toBe('"Autoflow Agency" <team@autoflow.agency>');

    const entry = await lastEntry();
    expect(entry).toMatchObject({
      actorEmail: 'owner@example.com',
      action: 'update',
      entityType: 'general-settings',
      entityId: GENERAL_SETTINGS_KEY,
      summary: 'Updated the settings: time zone Europe/Berlin, replies go to team@autoflow.agency',
      before: null,
      after: { timeZone: 'Europe/Berlin', replyTo: 'team@autoflow.agency' },
    });
    expect(documentChanges(entry)?.map((c) => [c.label, c.before, c.after])).toEqual([
      ['Time zone', 'Not chosen: times are in UTC', 'Europe/Berlin'],
      ['Replies to emails go to', undefined, 'team@autoflow.agency'],
    ]);

    // The same save again (a retried request whose answer was lost) changes nothing and logs nothing.
    expect(await call(server.admin.settings.save, { version: '', settings: { timeZone: 'Europe/Berlin', replyTo: 'team@autoflow.agency' } }, adminBrowser)).toEqual(saved);
    expect(await activities()).toHaveLength(1);
    // Another tab opened before that save is told who saved and when, on the site's clock; nothing is overwritten.
    await expect(call(server.admin.settings.save, { version: '', settings: { timeZone: 'Asia/Tokyo', replyTo: '' } }, adminBrowser)).rejects.toMatchObject({
      code: 'CONFLICT',
      message: expect.stringMatching(/^owner@example\.com saved the general settings at \d\d:\d\d, after you opened this page/),
    });
    expect(await siteTimeZone()).toBe('Europe/Berlin');
  });

  it('answers field errors under `settings`, and stores nothing', async () => {
    const bad = call(server.admin.settings.save, { version: '', settings: { timeZone: 'Mars/Olympus_Mons', replyTo: 'Team <team@autoflow.agency>' } }, adminBrowser);
    await expect(bad).rejects.toMatchObject({ type: 'AstroActionInputError', code: 'BAD_REQUEST' });
    const err = (await bad.catch((e: unknown) => e)) as { issues: { path: (string | number)[]; message: string }[] };
    expect(err.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['settings.timeZone', 'Must be a time zone like Europe/London'],
      ['settings.replyTo', 'Must be an email address such as team@example.com'],
    ]);
    expect(await storedRow()).toBeUndefined();
    expect(await activities()).toHaveLength(0);
  });

  it('refuses a member and a visitor; the service checks the admin itself', async () => {
    const input = { version: '', settings: { timeZone: 'Europe/Berlin', replyTo: '' } };
    await expect(call(server.admin.settings.save, input, memberBrowser)).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(call(server.admin.settings.save, input, undefined)).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    await expect(saveGeneralSettings(member, input)).rejects.toMatchObject({ code: 'NOT_ADMIN' });
    expect(await storedRow()).toBeUndefined();
  });

  it('reverts from the activity log, back to the earlier zone and then to not chosen', async () => {
    const first = await saveGeneralSettings(admin, { version: '', settings: { timeZone: 'Asia/Tehran', replyTo: '' } });
    const firstSave = await lastEntry();
    await saveGeneralSettings(admin, { version: first.version, settings: { timeZone: 'America/New_York', replyTo: '' } });
    const secondSave = await lastEntry();
    expect(secondSave.summary).toBe('Updated the settings: time zone America/New_York');

    const { rows, revertedBy } = await activityPage({}, 1);
    const offers = await revertOffers(rows, revertedBy);
    expect(offers.get(secondSave.id)).toEqual({ offered: true });
    expect(offers.get(firstSave.id)).toMatchObject({ offered: false, reason: expect.stringContaining('The general settings changed again after that entry') });

    const invalidate = vi.fn();
    await call(server.admin.activity.revert, { id: secondSave.id }, adminBrowser, invalidate);
    expect(invalidate.mock.calls.map(([o]) => o.tags)).toEqual([['chat']]);
    expect(await siteTimeZone()).toBe('Asia/Tehran');
    await call(server.admin.activity.revert, { id: firstSave.id }, adminBrowser);
    expect(await storedRow()).toBeUndefined();
    expect(await getGeneralSettings()).toEqual(DEFAULT_GENERAL_SETTINGS);
    expect(await lastEntry()).toMatchObject({ action: 'revert', entityType: 'general-settings', summary: 'Reverted a change to the general settings (back to the defaults)' });
  });
});
