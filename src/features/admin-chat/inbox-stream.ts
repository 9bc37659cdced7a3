/**
 * The inbox's live feed for the admin islands: server-sent events from /api/admin/chat/stream (`conversation`
 * and `message`), and when the browser has no EventSource or the stream is closed for good, a poll of
 * /api/admin/chat/inbox?after= every few seconds. After the stream reconnects, one poll fetches what
 * changed while it was away (the handlers must accept the same change twice).
 */
import { useEffect, useRef, useState } from 'react';
import type { ChatMessageDto, InboxConversationDto } from '../../shared/chat';

export type InboxMessageEvent = ChatMessageDto & { conversationId: string };

export interface InboxHandlers {
  onConversation(c: InboxConversationDto): void;
  onMessage?(m: InboxMessageEvent): void;
}

export type FeedMode = 'connecting' | 'live' | 'polling';

export const POLL_INTERVAL_MS = 3000;

async function changedSince(after: string): Promise<InboxConversationDto[]> {
  const res = await fetch(`/api/admin/chat/inbox?after=${encodeURIComponent(after)}`, { headers: { accept: 'application/json' } });
  if (!res.ok) return [];
  return ((await res.json()) as { conversations?: InboxConversationDto[] }).conversations ?? [];
}

export function useInboxFeed(handlers: InboxHandlers): FeedMode {
  const latest = useRef(handlers);
  latest.current = handlers;
  const [mode, setMode] = useState<FeedMode>('connecting');

  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    // A second of overlap: a change committed while the previous poll was answered is not missed.
    let since = new Date(Date.now() - 1000).toISOString();

    const catchUp = async () => {
      const from = since;
      since = new Date(Date.now() - 1000).toISOString();
      try {
        for (const c of await changedSince(from)) if (!stopped) latest.current.onConversation(c);
      } catch {
        // Offline for a moment: the next poll asks again from the same point.
        since = from;
      }
    };
    const poll = () => {
      if (stopped) return;
      setMode('polling');
      void catchUp().finally(() => {
        if (!stopped) timer = setTimeout(poll, POLL_INTERVAL_MS);
      });
    };

    if (typeof EventSource === 'undefined') {
      poll();
      return () => {
        stopped = true;
        clearTimeout(timer);
      };
    }
    const source = new EventSource('/api/admin/chat/stream');
    let wasDown = false;
    source.addEventListener('open', () => {
      setMode('live');
      if (wasDown) void catchUp();
      wasDown = false;
    });
    source.addEventListener('conversation', (e) => latest.current.onConversation(JSON.parse((e as MessageEvent<string>).data) as InboxConversationDto));
    source.addEventListener('message', (e) => latest.current.onMessage?.(JSON.parse((e as MessageEvent<string>).data) as InboxMessageEvent));
    source.addEventListener('error', () => {
      wasDown = true;
      // CONNECTING: the browser retries by itself. CLOSED: it gave up (an error answer): poll instead.
      if (source.readyState === EventSource.CLOSED) poll();
      else setMode('connecting');
    });
    return () => {
      stopped = true;
      clearTimeout(timer);
      source.close();
    };
  }, []);

  return mode;
}

export const FEED_MODE_LABELS: Record<FeedMode, string> = {
  connecting: 'Connecting…',
  live: 'Live',
  polling: 'Checking every few seconds',
};
