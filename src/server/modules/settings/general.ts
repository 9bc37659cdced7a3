/**
 * The general settings document (src/shared/general-settings.ts). Admin pages and mail read it through a
 * memo dropped with the `chat` cache tag (the time zone is also the chat's business hours' zone, which
 * every public page's widget carries); a transaction that must see it beside its own writes reads it
 * through its executor.
 */
import { eq } from 'drizzle-orm';
import { DEFAULT_GENERAL_SETTINGS, GENERAL_SETTINGS_KEY, resolveGeneralSettings, type GeneralSettings } from '../../../shared/general-settings';
import { tagMemo } from '../../cache/memo';
import { CACHE_TAGS, PUBLIC_PAGE_MAX_AGE_SECONDS } from '../../cache/tags';
import { db } from '../../db';
import type { Database } from '../../db/client';
import { appConfig } from '../../db/schema';
import { logger } from '../../logger';

type Reader = Pick<Database, 'select'>;

/** The stored settings over the defaults, read through `ex` (a transaction's own connection). */
export async function readGeneralSettings(ex: Reader = db()): Promise<GeneralSettings> {
  const [row] = await ex.select({ value: appConfig.value }).from(appConfig).where(eq(appConfig.key, GENERAL_SETTINGS_KEY));
  return resolveGeneralSettings(row?.value);
}

const memo = tagMemo([CACHE_TAGS.chat], PUBLIC_PAGE_MAX_AGE_SECONDS * 1000, async () => {
  try {
    return await readGeneralSettings();
  } catch (err) {
    logger.error({ err }, 'general settings failed to load; using the defaults');
    return DEFAULT_GENERAL_SETTINGS;
  }
});

export const getGeneralSettings = (): Promise<GeneralSettings> => memo.get(GENERAL_SETTINGS_KEY);
