/**
 * The admin live feed, one per admin page (the layout's title and badges, the inbox, a conversation, the
 * overview's Today all listen to the same connection): server-sent events from /api/admin/chat/stream —
 * `conversation`, `message`, `signals` (the counts) and `alert` — and, when the browser has no EventSource
 * or the stream is closed for good (an error answer, e.g. more admin tabs open than the server allows one
 * account), a poll of /api/admin/chat/inbox?after= every few seconds, which brings the changed
 * conversations and the counts. After the stream reconnects, one poll fetches what changed while it was
 * away (listeners must accept the same change twice). The server ends a stream itself from time to time
 * (`end`: its lifetime is up, or the admin's access ended): the feed opens a new one at once, without
 * showing anything, and the server checks the admin again. When the server says the admin may not read
 * the feed any more, it stops and says so. Alerts come live only, never from a poll or a replay.
 */
import { alertOf, signalsOf, type AdminAlert, type AdminSignals } from '../../shared/admin-signals';
import type { ChatMessageDto, InboxConversationDto } from '../../shared/chat';
import { reconnectDelayMs, STREAM_END_EVENT } from '../../shared/live-streams';

export type InboxMessageEvent = ChatMessageDto & { conversationId: string };
export type FeedMode = 'connecting' | 'live' | 'polling' | 'ended';

export interface FeedListener {
  onConversation?(c: InboxConversationDto): void;
  onMessage?(m: InboxMessageEvent): void;
  onSignals?(s: AdminSignals): void;
  onAlert?(a: AdminAlert): void;
  onMode?(mode: FeedMode): void;
}

export const POLL_INTERVAL_MS = 3000;
const STREAM_URL = '/api/admin/chat/stream';

export const FEED_MODE_LABELS: Record<FeedMode, string> = {
  connecting: 'Connecting…',
  live: 'Live',
  polling: 'Checking every few seconds',
  ended: 'Not updating: you are signed out or no longer an admin. Reload the page.',
};

/** Signed out, or no longer an admin: polling on would only collect refusals. */
class AccessEnded extends Error {}

const listeners = new Set<FeedListener>();
let mode: FeedMode = 'connecting';
let latestSignals: AdminSignals | undefined;
let stopFeed: (() => void) | undefined;

function tell(each: (l: FeedListener) => void) {
  for (const l of [...listeners]) {
    try {
      each(l);
    } catch (err) {
      // One broken listener must not stop the others (the title, the inbox, Today).
      console.error(err);
    }
  }
}

function setMode(next: FeedMode) {
  if (mode === next) return;
  mode = next;
  tell((l) => l.onMode?.(next));
}

function receivedSignals(raw: unknown) {
  const signals = signalsOf(raw);
  if (!signals) return;
  latestSignals = signals;
  tell((l) => l.onSignals?.(signals));
}

async function changedSince(after: string): Promise<{ conversations: InboxConversationDto[]; signals?: unknown }> {
  const res = await fetch(`/api/admin/chat/inbox?after=${encodeURIComponent(after)}`, { headers: { accept: 'application/json' } });
  if (res.status === 401 || res.status === 403) throw new AccessEnded();
  if (!res.ok) return { conversations: [] };
  const body = (await res.json()) as { conversations?: InboxConversationDto[]; signals?: unknown };
  return { conversations: body.conversations ?? [], signals: body.signals };
}

function start(): () => void {
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
      const changed = await changedSince(from);
      if (stopped) return;
      for (const c of changed.conversations) tell((l) => l.onConversation?.(c));
      receivedSignals(changed.signals);
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
  const data = (e: Event) => JSON.parse((e as MessageEvent<string>).data) as unknown;

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
    stream.addEventListener('conversation', (e) => tell((l) => l.onConversation?.(data(e) as InboxConversationDto)));
    stream.addEventListener('message', (e) => tell((l) => l.onMessage?.(data(e) as InboxMessageEvent)));
    stream.addEventListener('signals', (e) => receivedSignals(data(e)));
    stream.addEventListener('alert', (e) => {
      const alert = alertOf(data(e));
      if (alert) tell((l) => l.onAlert?.(alert));
    });
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
}

/**
 * Listens to the page's feed (opened by the first listener, closed after the last leaves); the listener
 * is told the current mode and the latest counts at once. Returns the function that stops listening.
 */
export function listenToAdminFeed(listener: FeedListener): () => void {
  listeners.add(listener);
  listener.onMode?.(mode);
  if (latestSignals) listener.onSignals?.(latestSignals);
  stopFeed ??= start();
  return () => {
    listeners.delete(listener);
    if (listeners.size > 0) return;
    stopFeed?.();
    stopFeed = undefined;
    mode = 'connecting';
  };
}
