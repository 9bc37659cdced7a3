/**
 * The chat's live streams open in this process: counted for the metrics, and ended together when the
 * process stops (SIGTERM: docs/decisions/025), each with its `end` event and a reconnect hint, so the
 * widget and the inbox reconnect — to another instance or to this one restarted — instead of seeing an
 * error. On globalThis like the hub: API routes and the shutdown may sit in different bundle chunks.
 */

/** How long a browser should wait before reconnecting to a server that is stopping. */
export const RESTART_RETRY_MS = 2_000;

type EndForRestart = () => void;

const holder = globalThis as unknown as { __agencyOpenStreams?: { open: Set<EndForRestart>; stopping: boolean } };
const streams = (holder.__agencyOpenStreams ??= { open: new Set(), stopping: false });

/** Registers an open stream; returns the function that unregisters it (called when it closes). */
export function trackOpenStream(endForRestart: EndForRestart): () => void {
  // A stream that opens while the process is stopping ends at once, with the same hint.
  if (streams.stopping) {
    queueMicrotask(endForRestart);
    return () => {};
  }
  streams.open.add(endForRestart);
  return () => streams.open.delete(endForRestart);
}

export const openStreamCount = () => streams.open.size;

/** Ends every open stream with its restart hint; returns how many. */
export function endOpenStreamsForRestart(): number {
  streams.stopping = true;
  const ending = [...streams.open];
  for (const end of ending) {
    try {
      end();
    } catch {
      // One broken stream must not keep the others open.
    }
  }
  return ending.length;
}
