/** The two live streams: one conversation's (the visitor's widget) and the whole inbox's (admins). */
import { conversationState } from './dto';
import { subscribeToConversation, subscribeToInbox } from './hub';
import { findConversationView } from './repository';
import { conversationByToken, messagesAfter } from './service';
import { sseResponse, type SseEvent } from './sse';

/** GET /api/chat/stream: after a valid token, `message` events (id = seq) and `state` events. */
export async function conversationStream(conversationId: string, token: string, afterSeq: number | undefined, signal: AbortSignal): Promise<Response> {
  await conversationByToken(conversationId, token);
  return sseResponse(
    {
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
