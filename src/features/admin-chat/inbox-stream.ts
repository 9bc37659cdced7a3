/**
 * The inbox's live feed for the admin islands: server-sent events from /api/admin/chat/stream (`conversation`
 * and `message`), and when the browser has no EventSource or the stream is closed for good, a poll of
 * /api/admin/chat/inbox?after= every few seconds. After the stream reconnects, one poll fetches what
 * changed while it was away (the handlers must accept the same change twice). The server ends a stream
 * itself from time to time (`end`: its lifetime is up, or the admin's access ended): the feed opens a new
 * one at once, without showing anything, and the server checks the admin again. When the server says the
 * admin may not read the inbox any more, the feed stops and says so.
 */
import { useEffect, useRef, useState } from 'react';
import type { ChatMessageDto, InboxConversationDto } from '../../shared/chat';
import { reconnectDelayMs, STREAM_END_EVENT } from '../../shared/live-streams';

export type InboxMessageEvent = ChatMessageDto & { conversationId: string };

export interface InboxHandlers {
  onConversation(c: InboxConversationDto): void;
  onMessage?(m: InboxMessageEvent): void;
}

export type FeedMode = 'connecting' | 'live' | 'polling' | 'ended';

export const POLL_INTERVAL_MS = 3000;
const STREAM_URL = '/api/admin/chat/stream';

/** Signed out, or no longer an admin: polling on would only collect refusals. */
class AccessEnded extends Error {}

async function changedSince(after: string): Promise<InboxConversationDto[]> {
  const res = await fetch(`/api/admin/chat/inbox?after=${encodeURIComponent(after)}`, { headers: { accept: 'application/json' } });
  if (res.status === 401 || res.status === 403) throw new AccessEnded();
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
    let source: EventSource | undefined;
    // A second of overlap: a change committed while the previous poll was answered is not missed.
    let since = new Date(Date.now() - 1000).toISOString();

    const stop = () => {
      stopped = true;
      clearTimeout(timer);
      source?.close();
    };
    const catchUp = async () => {
      const from = since;
      since = new Date(Date.now() - 1000).toISOString();
      try {
        for (const c of await changedSince(from)) if (!stopped) latest.current.onConversation(c);
      } catch (err) {
        if (err instanceof AccessEnded) {
          stop();
          setMode('ended');
          return;
        }
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

    /** `resumed`: a stream the server ended; what changed until the new one opened is fetched once. */
    const connect = (resumed: boolean) => {
      const stream = new EventSource(STREAM_URL);
      source = stream;
      let wasDown = resumed;
      stream.addEventListener('open', () => {
        setMode('live');
        if (wasDown) void catchUp();
        wasDown = false;
      });
      stream.addEventListener('conversation', (e) => latest.current.onConversation(JSON.parse((e as MessageEvent<string>).data) as InboxConversationDto));
      stream.addEventListener('message', (e) => latest.current.onMessage?.(JSON.parse((e as MessageEvent<string>).data) as InboxMessageEvent));
      // Routine, not a failure: a new stream at once (not after the browser's retry delay), checked anew;
      // after a server restart, a moment later.
      stream.addEventListener(STREAM_END_EVENT, (e) => {
        stream.close();
        if (stopped) return;
        const delay = reconnectDelayMs((e as MessageEvent<string>).data);
        if (delay === 0) connect(true);
        else timer = setTimeout(() => !stopped && connect(true), delay);
      });
      stream.addEventListener('error', () => {
        if (stream !== source) return; // one already replaced after its `end`
        wasDown = true;
        // CONNECTING: the browser retries by itself. CLOSED: it gave up (an error answer): poll instead.
        if (stream.readyState === EventSource.CLOSED) poll();
        else setMode('connecting');
      });
    };

    if (typeof EventSource === 'undefined') poll();
    else connect(false);
    return stop;
  }, []);

  return mode;
}

export const FEED_MODE_LABELS: Record<FeedMode, string> = {
  connecting: 'Connecting…',
  live: 'Live',
  polling: 'Checking every few seconds',
  ended: 'Not updating: you are signed out or no longer an admin. Reload the page.',
};
