/**
 * Live replies while the panel is open: the conversation's server-sent events, and polling every 3 s when
 * EventSource fails (a proxy that buffers, a browser without it). Closing stops both.
 */
import type { ChatConversationState, ChatMessageDto } from '../../shared/chat';
import { poll, streamUrl } from './client';
import { POLL_INTERVAL_MS } from './rules';

export interface LiveHandlers {
  onMessages: (messages: ChatMessageDto[]) => void;
  onState: (state: ChatConversationState) => void;
  /** The highest seq the panel has, so a reconnect or a poll asks only for what is new. */
  after: () => number;
}

export function listen(conversation: ChatConversationState, handlers: LiveHandlers): () => void {
  let source: EventSource | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;

  const pollLoop = async () => {
    if (stopped) return;
    const result = await poll(conversation, handlers.after());
    if (stopped) return;
    if (result.ok) {
      if (result.data.messages.length > 0) handlers.onMessages(result.data.messages);
      handlers.onState(result.data.conversation);
    }
    timer = setTimeout(() => void pollLoop(), POLL_INTERVAL_MS);
  };

  const fallBack = () => {
    source?.close();
    source = undefined;
    if (!stopped && timer === undefined) timer = setTimeout(() => void pollLoop(), 0);
  };

  if (typeof EventSource === 'function') {
    source = new EventSource(streamUrl(conversation, handlers.after()));
    source.addEventListener('message', (e) => handlers.onMessages([JSON.parse((e as MessageEvent<string>).data) as ChatMessageDto]));
    source.addEventListener('state', (e) => handlers.onState(JSON.parse((e as MessageEvent<string>).data) as ChatConversationState));
    source.addEventListener('error', fallBack);
  } else {
    fallBack();
  }

  return () => {
    stopped = true;
    source?.close();
    if (timer !== undefined) clearTimeout(timer);
  };
}
