/**
 * The migration that made the site's time zone a general setting (drizzle/0022_general_settings.sql,
 * decision 055). Run by the app's own migrator on a database migrated up to the migration before it and
 * holding chat settings of the old shape: the zone the owner chose moves into the general settings, the chat
 * settings keep everything else, and the app reads both as before. Its statements, run again on other
 * starting points: UTC (the old default) is not taken for a choice, a zone already set is kept, a reply
 * address already set stays beside the moved zone, and running it twice changes nothing.
 */
import fs from 'node:fs';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { invalidateMemos } from '../../src/server/cache/memo';
import { useDatabaseHandle } from '../../src/server/db';
import type { DatabaseHandle } from '../../src/server/db/client';
import { appConfig } from '../../src/server/db/schema';
import { getChatSettings } from '../../src/server/modules/chat/settings';
import { getGeneralSettings } from '../../src/server/modules/settings/general';
import { siteTimeZone } from '../../src/server/modules/site/time-zone';
import { DRIZZLE, emptyDatabase, migrateFrom, migrationsBefore } from '../support/migrations';

const TAG = '0022_general_settings';

let handle: DatabaseHandle;
let before: string;
beforeAll(async () => {
  before = migrationsBefore(TAG);
  handle = await emptyDatabase();
  await migrateFrom(handle, before);
  useDatabaseHandle(handle);
}, 120_000);
afterAll(async () => {
  await handle?.close();
  fs.rmSync(before, { recursive: true, force: true });
});
beforeEach(() => invalidateMemos(['chat']));

const document = async (key: string) => (await handle.db.select().from(appConfig).where(eq(appConfig.key, key)))[0];
const store = (key: string, value: unknown, updatedAt = new Date('2026-11-01T10:00:00Z')) => handle.db.insert(appConfig).values({ key, value, updatedAt });

/** Chat settings as the old editor saved them: every field, the zone inside the business hours. */
const oldChatSettings = (timeZone: string) => ({
  enabled: true,
  assistantName: 'Ada',
  businessHours: { enabled: true, timeZone, days: { monday: { open: true, from: '08:00', to: '16:00' }, sunday: { open: false, from: '09:00', to: '17:00' } } },
  offlineMessage: 'Back at eight.',
});
const { timeZone: _zone, ...hoursWithoutZone } = oldChatSettings('Europe/Berlin').businessHours;
const migratedChatSettings = { ...oldChatSettings('Europe/Berlin'), businessHours: hoursWithoutZone };

describe('the migration, by the app’s migrator on a database of the old shape', () => {
  it('moves the zone the owner chose into the general settings and leaves the rest of the chat settings as they were', async () => {
    expect(await document('generalSettings')).toBeUndefined();
    await store('chatSettings', oldChatSettings('Europe/Berlin'));

    await migrateFrom(handle, undefined);

    expect((await document('generalSettings'))?.value).toEqual({ timeZone: 'Europe/Berlin' });
    const chat = await document('chatSettings');
    expect(chat?.value).toEqual(migratedChatSettings);
    // Its content as the site shows it did not change: an editor's version (and the revert's check) still holds.
    expect(chat?.updatedAt.toISOString()).toBe('2026-11-01T10:00:00.000Z');

    // The app reads the zone from its new place, and the chat settings without it.
    expect(await siteTimeZone()).toBe('Europe/Berlin');
    expect(await getGeneralSettings()).toEqual({ timeZone: 'Europe/Berlin', replyTo: '' });
    const settings = await getChatSettings();
    expect(settings).toMatchObject({ assistantName: 'Ada', offlineMessage: 'Back at eight.', businessHours: { enabled: true, days: { monday: { open: true, from: '08:00', to: '16:00' } } } });
    expect(settings.businessHours).not.toHaveProperty('timeZone');
  });
});

describe('the migration’s statements on other starting points', () => {
  const statements = fs
    .readFileSync(path.join(DRIZZLE, `${TAG}.sql`), 'utf8')
    .split('--> statement-breakpoint')
    .filter((s) => /\b(INSERT|UPDATE)\b/.test(s));
  const runMigration = async () => {
    for (const statement of statements) await handle.db.execute(sql.raw(statement));
  };
  beforeEach(async () => {
    await handle.db.delete(appConfig).where(sql`${appConfig.key} in ('chatSettings', 'generalSettings')`);
  });

  it('is two statements: move the zone, then take it out of the chat settings', () => {
    expect(statements).toHaveLength(2);
  });

  it('does not take UTC, the zone every old save stored by default, for a choice: the owner is asked instead', async () => {
    await store('chatSettings', oldChatSettings('UTC'));
    await runMigration();
    expect(await document('generalSettings')).toBeUndefined();
    expect((await document('chatSettings'))?.value).toEqual({ ...migratedChatSettings });
    expect(await siteTimeZone()).toBe('UTC');
    expect((await getGeneralSettings()).timeZone).toBeNull();
  });

  it('puts the zone beside a reply address already set, and keeps a zone already chosen', async () => {
    await store('chatSettings', oldChatSettings('Asia/Tehran'));
    await store('generalSettings', { timeZone: null, replyTo: 'team@example.com' });
    await runMigration();
    expect((await document('generalSettings'))?.value).toEqual({ timeZone: 'Asia/Tehran', replyTo: 'team@example.com' });

    await handle.db.delete(appConfig).where(eq(appConfig.key, 'generalSettings'));
    await handle.db.update(appConfig).set({ value: oldChatSettings('Asia/Tehran') }).where(eq(appConfig.key, 'chatSettings'));
    await store('generalSettings', { timeZone: 'America/New_York', replyTo: '' });
    await runMigration();
    expect((await document('generalSettings'))?.value).toEqual({ timeZone: 'America/New_York', replyTo: '' });
    expect((await document('chatSettings'))?.value).not.toHaveProperty('businessHours.timeZone');
  });

  it('changes nothing without chat settings, or when run again', async () => {
    await runMigration();
    expect(await document('generalSettings')).toBeUndefined();
    expect(await document('chatSettings')).toBeUndefined();

    await store('chatSettings', oldChatSettings('Europe/Berlin'));
    await runMigration();
    const once = { general: (await document('generalSettings'))?.value, chat: (await document('chatSettings'))?.value };
    await runMigration();
    expect({ general: (await document('generalSettings'))?.value, chat: (await document('chatSettings'))?.value }).toEqual(once);
    expect(once).toEqual({ general: { timeZone: 'Europe/Berlin' }, chat: migratedChatSettings });
  });
});
