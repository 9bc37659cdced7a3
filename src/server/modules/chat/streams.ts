/** The two live streams: one conversation's (the visitor's widget) and the whole inbox's (admins). */
import { conversationState } from './dto';
import { ChatError } from './errors';
import { subscribeToConversation, subscribeToInbox } from './hub';
import { findConversationView } from './repository';
import { conversationByToken, messagesAfter } from './service';
import { sseResponse, type SseEvent } from './sse';

/**
 * Open visitor streams per client address: a person has a few tabs, an office behind one address a few
 * dozen; thousands from one address would only be someone holding the server's memory.
 */
export const MAX_STREAMS_PER_CLIENT = 50;
const openByClient = new Map<string, number>();

/** GET /api/chat/stream: after a valid token, `message` events (id = seq) and `state` events. */
export async function conversationStream(conversationId: string, token: string, afterSeq: number | undefined, signal: AbortSignal, clientIp = 'unknown'): Promise<Response> {
  await conversationByToken(conversationId, token);
  const open = openByClient.get(clientIp) ?? 0;
  if (open >= MAX_STREAMS_PER_CLIENT) {
    throw new ChatError('RATE_LIMITED', 'Too many chat windows are open from your connection. Please close some and try again.', undefined, 30);
  }
  openByClient.set(clientIp, open + 1);
  return sseResponse(
    {
      onClose() {
        const left = (openByClient.get(clientIp) ?? 1) - 1;
        if (left > 0) openByClient.set(clientIp, left);
        else openByClient.delete(clientIp);
      },
      subscribe: (push) =>
        subscribeToConversation(conversationId, (e) => push(e.event === 'message' ? { event: 'message', data: e.data, id: e.data.seq } : { event: 'state', data: e.data })),
      async initial() {
        const [view, replay] = await Promise.all([findConversationView(conversationId), afterSeq !== undefined ? messagesAfter(conversationId, afterSeq) : []]);
        const events: SseEvent[] = replay.map((m) => ({ event: 'message', data: m, id: m.seq }));
        if (view) events.push({ event: 'state', data: conversationState(view) });
        return events;
      },
    },
    signal,
  );
}

/** GET /api/admin/chat/stream: `conversation` and `message` events of every conversation. */
export function inboxStream(signal: AbortSignal): Response {
  return sseResponse(
    {
      subscribe: (push) => subscribeToInbox((e) => push({ event: e.event, data: e.data })),
      initial: async () => [],
    },
    signal,
  );
}
