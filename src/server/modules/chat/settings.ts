/**
 * The chat settings document (app_config 'chatSettings', edited at /admin/chat-settings/settings through the
 * site-document engine). Every public page reads it to render the widget, so it is memoised under the
 * `chat` cache tag that a save invalidates together with the cached pages.
 */
import { chatSettingsSchema, DEFAULT_CHAT_SETTINGS, type ChatSettings } from '../../../shared/chat';
import { tagMemo } from '../../cache/memo';
import { CACHE_TAGS, PUBLIC_PAGE_MAX_AGE_SECONDS } from '../../cache/tags';
import { logger } from '../../logger';
import { readConfigDocument } from '../site/repository';

export const CHAT_SETTINGS_KEY = 'chatSettings';

/**
 * Stored settings completed with the defaults; a missing or unreadable document gives the defaults (logged).
 * AI answers saved under older rules (an http:// endpoint) are switched off rather than costing the rest.
 */
export function resolveChatSettings(stored: unknown): ChatSettings {
  if (stored === undefined || stored === null) return DEFAULT_CHAT_SETTINGS;
  const parsed = chatSettingsSchema.safeParse(stored);
  if (parsed.success) return parsed.data;
  if (parsed.error.issues.every((i) => i.path[0] === 'llm') && typeof stored === 'object') {
    const withoutLlm = chatSettingsSchema.safeParse({ ...stored, llm: undefined });
    if (withoutLlm.success) {
      logger.warn('the stored AI-answers settings are no longer valid (the endpoint must be https://): AI answers are off until an admin saves them again');
      return withoutLlm.data;
    }
  }
  logger.error({ issues: parsed.error.issues.slice(0, 5) }, 'stored chat settings are invalid; using the defaults');
  return DEFAULT_CHAT_SETTINGS;
}

const memo = tagMemo([CACHE_TAGS.chat], PUBLIC_PAGE_MAX_AGE_SECONDS * 1000, async () => {
  try {
    return resolveChatSettings(await readConfigDocument(CHAT_SETTINGS_KEY));
  } catch (err) {
    logger.error({ err }, 'chat settings failed to load; using the defaults');
    return DEFAULT_CHAT_SETTINGS;
  }
});

export const getChatSettings = (): Promise<ChatSettings> => memo.get(CHAT_SETTINGS_KEY);
