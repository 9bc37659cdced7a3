/**
 * admin.chat.saveSettings — the chat widget's settings document (docs/chat-api.md), saved through the
 * site-document engine (activity log, revert, conflict check). Admin-only in the route guard (every `admin.`
 * Action) and again in the service's transaction. Its `chat` cache tag drops every cached public page and the
 * settings' memo, so switching the chat off removes the widget everywhere on the next request.
 */
import { defineAction } from 'astro:actions';
import { z } from 'astro/zod';
import { invalidateTags } from '../server/cache/tags';
import { saveChatSettings } from '../server/modules/site-admin/service';
import { toActionError } from './errors';

export const chatSettingsActions = {
  saveSettings: defineAction({
    // The document arrives as a plain object; the service validates it with chatSettingsSchema (messages by field path).
    input: z.object({ value: z.record(z.string(), z.unknown()), expectedUpdatedAt: z.string().max(40).optional() }),
    handler: async (input, ctx) => {
      try {
        const result = await saveChatSettings(ctx.locals.user?.id, input);
        if (result.tags.length) await invalidateTags(ctx, result.tags);
        return { version: result.version };
      } catch (err) {
        return toActionError(err, ['value']);
      }
    },
  }),
};
