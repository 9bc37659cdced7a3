/**
 * admin.chat.* — the inbox's writes: reply (takes the conversation over), release, mark handled/open, mark
 * read. Admin-only in the route guard (every `admin.` Action) and again in the service's transaction.
 * Thin: parse → service → result. Exported as an object so the settings Action joins the same group.
 */
import { ActionError, defineAction } from 'astro:actions';
import { z } from 'astro/zod';
import { markConversationRead, releaseConversation, replyToConversation, setConversationStatus } from '../server/modules/chat/admin';
import { ChatError } from '../server/modules/chat/errors';
import { CHAT_LIMITS } from '../shared/chat';
import { toActionError } from './errors';

const conversationId = z.uuid();

/** The chat's refusals as ActionErrors (a bad reply reads like a field error beside the reply box). */
function chatActionError(err: unknown): never {
  if (err instanceof ChatError) {
    if (err.code === 'INVALID' && err.fieldErrors) {
      const issues = Object.entries(err.fieldErrors).map(([path, message]) => ({ code: 'custom', path: [path], message }));
      const error = new ActionError({ code: 'BAD_REQUEST', message: err.message });
      throw Object.assign(error, { type: 'AstroActionInputError', issues, fields: {} });
    }
    throw new ActionError({ code: err.code === 'NOT_FOUND' ? 'NOT_FOUND' : err.code === 'FORBIDDEN' ? 'FORBIDDEN' : 'BAD_REQUEST', message: err.message });
  }
  return toActionError(err);
}

async function run<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    return chatActionError(err);
  }
}

export const chatActions = {
  reply: defineAction({
    // The service holds the message's rule (and its words); this only bounds what is read.
    input: z.object({ conversationId, body: z.string().max(CHAT_LIMITS.message * 2) }),
    handler: ({ conversationId: id, body }, ctx) => run(() => replyToConversation(ctx.locals.user?.id, id, body)),
  }),
  release: defineAction({
    input: z.object({ conversationId }),
    handler: ({ conversationId: id }, ctx) => run(() => releaseConversation(ctx.locals.user?.id, id)),
  }),
  setStatus: defineAction({
    input: z.object({ conversationId, status: z.enum(['open', 'handled']) }),
    handler: ({ conversationId: id, status }, ctx) => run(() => setConversationStatus(ctx.locals.user?.id, id, status)),
  }),
  markRead: defineAction({
    input: z.object({ conversationId }),
    handler: ({ conversationId: id }, ctx) => run(() => markConversationRead(ctx.locals.user?.id, id)),
  }),
};
