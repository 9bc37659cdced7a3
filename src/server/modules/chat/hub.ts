/**
 * Live chat events inside this server process: the visitor's open widget listens to its conversation, the
 * admin inbox to every conversation. Listeners cost a closure each and nothing polls the database. Other
 * server processes' changes arrive here through the event bus (live.ts, docs/decisions/022), so a visitor
 * on one process and the admin on another see each other live.
 */
import type { AdminAlert, AdminSignals } from '../../../shared/admin-signals';
import type { ChatConversationState, ChatMessageDto, InboxConversationDto } from '../../../shared/chat';

/** An alert as the hub carries it: `by` is the account whose own action it was (never sent to that admin). */
export type FeedAlert = AdminAlert & { by: string | null };

export type ConversationEvent = { event: 'message'; data: ChatMessageDto } | { event: 'state'; data: ChatConversationState };
/**
 * The admin live feed (every admin page): the inbox's conversations and messages, the counts behind the
 * title and the badges (`signals`, src/server/modules/today/live.ts) and the alerts of new chats and leads.
 */
export type InboxEvent =
  | { event: 'conversation'; data: InboxConversationDto }
  | { event: 'message'; data: ChatMessageDto & { conversationId: string } }
  | { event: 'signals'; data: AdminSignals }
  | { event: 'alert'; data: FeedAlert };

type Listener<E> = (event: E) => void;

function channel<E>() {
  const listeners = new Map<string, Set<Listener<E>>>();
  return {
    publish(key: string, event: E) {
      for (const listener of listeners.get(key) ?? []) {
        try {
          listener(event);
        } catch {
          // One broken stream must not stop the others; its own close handler unsubscribes it.
        }
      }
    },
    /** Returns the unsubscribe function. */
    subscribe(key: string, listener: Listener<E>): () => void {
      let set = listeners.get(key);
      if (!set) listeners.set(key, (set = new Set()));
      set.add(listener);
      return () => {
        set.delete(listener);
        if (set.size === 0) listeners.delete(key);
      };
    },
    count: (key?: string) => (key === undefined ? [...listeners.values()].reduce((n, s) => n + s.size, 0) : (listeners.get(key)?.size ?? 0)),
  };
}

// On globalThis: API routes and Actions may be bundled into different chunks and must share one hub.
const holder = globalThis as unknown as { __agencyChatHub?: { conversations: ReturnType<typeof channel<ConversationEvent>>; inbox: ReturnType<typeof channel<InboxEvent>> } };
const hub = (holder.__agencyChatHub ??= { conversations: channel<ConversationEvent>(), inbox: channel<InboxEvent>() });

const INBOX = 'inbox';

export const publishToConversation = (conversationId: string, event: ConversationEvent) => hub.conversations.publish(conversationId, event);
export const subscribeToConversation = (conversationId: string, listener: Listener<ConversationEvent>) => hub.conversations.subscribe(conversationId, listener);
export const publishToInbox = (event: InboxEvent) => hub.inbox.publish(INBOX, event);
export const subscribeToInbox = (listener: Listener<InboxEvent>) => hub.inbox.subscribe(INBOX, listener);
/** Open listeners (bench, tests): of one conversation, or of all. */
export const conversationListenerCount = (conversationId?: string) => hub.conversations.count(conversationId);
/** Open inbox listeners in this process. */
export const inboxListenerCount = () => hub.inbox.count(INBOX);
