/**
 * The chat's live streams open in this process: counted for the metrics, and ended together with their
 * `end` event when the process stops (SIGTERM, `restart` with a reconnect hint: docs/decisions/025) or may
 * have missed other processes' events (`resync`: docs/decisions/022), so the widget and the inbox
 * reconnect — to another instance, or to this one — and catch up instead of seeing an error. On globalThis
 * like the hub: API routes, the event bus and the shutdown may sit in different bundle chunks.
 */
import type { StreamEndReason } from '../../../shared/live-streams';

/** How long a browser should wait before reconnecting to a server that is stopping. */
export const RESTART_RETRY_MS = 2_000;

/** Ends one stream: sends its `end` event with the reason, then closes it. */
type EndStream = (reason: StreamEndReason) => void;

const holder = globalThis as unknown as { __agencyOpenStreams?: { open: Set<EndStream>; stopping: boolean } };
const streams = (holder.__agencyOpenStreams ??= { open: new Set(), stopping: false });

/** Registers an open stream; returns the function that unregisters it (called when it closes). */
export function trackOpenStream(end: EndStream): () => void {
  // A stream that opens while the process is stopping ends at once, with the same hint.
  if (streams.stopping) {
    queueMicrotask(() => end('restart'));
    return () => {};
  }
  streams.open.add(end);
  return () => streams.open.delete(end);
}

export const openStreamCount = () => streams.open.size;

/** Ends every open stream with `reason`; returns how many. */
export function endOpenStreams(reason: StreamEndReason): number {
  const ending = [...streams.open];
  for (const end of ending) {
    try {
      end(reason);
    } catch {
      // One broken stream must not keep the others open.
    }
  }
  return ending.length;
}

/** Ends every open stream with its restart hint, and any that opens from now on; returns how many. */
export function endOpenStreamsForRestart(): number {
  streams.stopping = true;
  return endOpenStreams('restart');
}
