/**
 * Live replies while the panel is open: the conversation's server-sent events, and polling every 3 s when
 * EventSource fails (a proxy that buffers, a browser without it). Closing stops both. The server ends a
 * stream itself from time to time (`end`: its lifetime is up, or the session it was opened with ended): a
 * new one opens at once and the server checks again. A poll the server refuses (not this browser's
 * conversation any more, e.g. after signing out of the member account) stops listening.
 */
import type { ChatConversationState, ChatMessageDto } from '../../shared/chat';
import { reconnectDelayMs, STREAM_END_EVENT } from '../../shared/live-streams';
import { poll, streamUrl } from './client';
import { POLL_INTERVAL_MS } from './rules';

export interface LiveHandlers {
  onMessages: (messages: ChatMessageDto[]) => void;
  onState: (state: ChatConversationState) => void;
  /** The highest seq the panel has, so a reconnect or a poll asks only for what is new. */
  after: () => number;
}

/** Answers that will not change by asking again: forbidden (not yours) or gone. */
const FINAL_REFUSALS = new Set([403, 404]);

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
    } else if (FINAL_REFUSALS.has(result.status)) {
      stopped = true;
      return;
    }
    timer = setTimeout(() => void pollLoop(), POLL_INTERVAL_MS);
  };

  const fallBack = () => {
    source?.close();
    source = undefined;
    if (!stopped && timer === undefined) timer = setTimeout(() => void pollLoop(), 0);
  };

  const connect = () => {
    const stream = new EventSource(streamUrl(conversation, handlers.after()));
    source = stream;
    stream.addEventListener('message', (e) => handlers.onMessages([JSON.parse((e as MessageEvent<string>).data) as ChatMessageDto]));
    stream.addEventListener('state', (e) => handlers.onState(JSON.parse((e as MessageEvent<string>).data) as ChatConversationState));
    // Routine, not a failure: a new stream (from the last message the panel has), checked anew; after a
    // server restart, a moment later.
    stream.addEventListener(STREAM_END_EVENT, (e) => {
      stream.close();
      if (stopped) return;
      const delay = reconnectDelayMs((e as MessageEvent<string>).data);
      if (delay === 0) connect();
      else timer = setTimeout(() => {
        timer = undefined;
        if (!stopped) connect();
      }, delay);
    });
    stream.addEventListener('error', () => {
      if (stream === source) fallBack();
    });
  };

  if (typeof EventSource === 'function') connect();
  else fallBack();

  return () => {
    stopped = true;
    source?.close();
    if (timer !== undefined) clearTimeout(timer);
  };
}
