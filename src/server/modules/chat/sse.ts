/**
 * Server-sent event streams fed by the in-process hub (docs/decisions/013): a listener costs a closure and
 * a timer, never a database query while idle. The stream subscribes first, then replays what was stored
 * after the client's last event, then passes live events on — an event that arrives during the replay is
 * held and sent once, in order. A comment line every 25 s keeps proxies from closing an idle connection.
 * The server ends a stream itself when its grant ends or its lifetime is up (docs/decisions/017): it sends
 * `event: end` and closes, and the browser opens a new stream, which runs every check again. When the
 * process stops, `end` says `restart` after a `retry:` field (docs/decisions/025): reconnect a little later.
 * When this process may have missed other processes' events (its listener reconnected, docs/decisions/022)
 * every open stream ends with `resync`: the new one replays what the browser has not seen.
 */
import { onResync } from '../../events/bus';
import { STREAM_END_EVENT, type StreamEndData, type StreamEndReason } from '../../../shared/live-streams';
import { NO_STORE } from './http';
import { endOpenStreams, RESTART_RETRY_MS, trackOpenStream } from './open-streams';

export const PING_INTERVAL_MS = 25_000;
/** How long a browser waits before reconnecting after the stream drops. */
const RETRY_MS = 3000;

export interface SseEvent {
  event: string;
  data: unknown;
  /** The message's seq: the browser sends it back as Last-Event-ID when it reconnects. */
  id?: number;
}

const encoder = new TextEncoder();
export const formatEvent = (e: SseEvent) => encoder.encode(`${e.id !== undefined ? `id: ${e.id}\n` : ''}event: ${e.event}\ndata: ${JSON.stringify(e.data)}\n\n`);

export interface SseSource {
  /** Subscribes to live events; returns the unsubscribe function. */
  subscribe(push: (e: SseEvent) => void): () => void;
  /** What to send first (the replay and the current state), read after subscribing. */
  initial(): Promise<SseEvent[]>;
  /** Called once when the stream ends, however it ends. */
  onClose?: () => void;
}

export interface SseEnding {
  /** Aborted when the grant the stream was opened under ends (live-grants). */
  grantEnded?: AbortSignal;
  /** The stream ends after this long, whatever happens. */
  maxLifetimeMs?: number;
}

onResync('live-streams', () => void endOpenStreams('resync'));

/** `signal` is the client's (it left); `ending` are the server's reasons to end the stream. */
export function sseResponse(source: SseSource, signal: AbortSignal, ending: SseEnding = {}): Response {
  let cleanup = () => {};
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      let closed = false;
      let ready = false;
      const held: SseEvent[] = [];
      let lastSentSeq = -1;
      const write = (chunk: Uint8Array) => {
        if (closed) return;
        try {
          controller.enqueue(chunk);
        } catch {
          cleanup();
        }
      };
      const send = (e: SseEvent) => {
        // A message already replayed is not sent twice.
        if (e.id !== undefined) {
          if (e.id <= lastSentSeq) return;
          lastSentSeq = e.id;
        }
        write(formatEvent(e));
      };
      const unsubscribe = source.subscribe((e) => (ready ? send(e) : held.push(e)));
      const ping = setInterval(() => write(encoder.encode(': ping\n\n')), PING_INTERVAL_MS);
      const end = (reason: StreamEndReason) => {
        const data: StreamEndData = reason === 'restart' ? { reason, retryMs: RESTART_RETRY_MS } : { reason };
        if (reason === 'restart') write(encoder.encode(`retry: ${RESTART_RETRY_MS}\n\n`));
        write(formatEvent({ event: STREAM_END_EVENT, data }));
        cleanup();
      };
      const untrack = trackOpenStream(end);
      const endWithGrant = () => end('grant-ended');
      const lifetime = ending.maxLifetimeMs !== undefined ? setTimeout(() => end('lifetime'), ending.maxLifetimeMs) : undefined;
      cleanup = () => {
        if (closed) return;
        closed = true;
        untrack();
        clearInterval(ping);
        clearTimeout(lifetime);
        unsubscribe();
        source.onClose?.();
        signal.removeEventListener('abort', cleanup);
        ending.grantEnded?.removeEventListener('abort', endWithGrant);
        try {
          controller.close();
        } catch {
          // Already closed or errored.
        }
      };
      signal.addEventListener('abort', cleanup, { once: true });
      if (signal.aborted) return cleanup();
      ending.grantEnded?.addEventListener('abort', endWithGrant, { once: true });
      if (ending.grantEnded?.aborted) return endWithGrant();
      write(encoder.encode(`retry: ${RETRY_MS}\n\n`));
      try {
        for (const e of await source.initial()) send(e);
      } catch {
        return cleanup();
      }
      ready = true;
      for (const e of held.splice(0)) send(e);
    },
    cancel() {
      cleanup();
    },
  });
  return new Response(stream, {
    status: 200,
    headers: {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': NO_STORE,
      'X-Accel-Buffering': 'no',
    },
  });
}
