/**
 * What the server's live streams (server-sent events) and the islands that read them agree on
 * (docs/decisions/017). Pure and browser-safe.
 */

/**
 * The last event of a stream the server ends on purpose: its lifetime is up, the grant it was opened
 * under ended (a role change, disabling, sign-out), or the server may have missed events from another
 * server process (`resync`: its connection to the database's notifications was cut). The browser then opens a new stream at once, and the
 * server decides again whether it may; an island treats it as routine, never as an error.
 */
export const STREAM_END_EVENT = 'end';

/**
 * `restart`: the server process is stopping (a deploy, a restart: docs/decisions/025). It sends how long to
 * wait first, so every open page does not knock at once on a server that is going away or coming back.
 * `resync`: this process may have missed other processes' events (docs/decisions/022): reconnect and replay.
 */
export const STREAM_END_REASONS = ['lifetime', 'grant-ended', 'restart', 'resync'] as const;
export type StreamEndReason = (typeof STREAM_END_REASONS)[number];

export interface StreamEndData {
  reason: StreamEndReason;
  /** With `restart`: wait about this long (the same value as the stream's `retry:` field) before reconnecting. */
  retryMs?: number;
}

/**
 * How long an island waits before it opens a new stream after `end` (its event data as sent): at once for
 * a routine end; after a restart, the server's `retryMs` plus up to as much again, so pages spread out.
 */
export function reconnectDelayMs(eventData: string, random: () => number = Math.random): number {
  let data: Partial<StreamEndData>;
  try {
    data = JSON.parse(eventData) as Partial<StreamEndData>;
  } catch {
    return 0;
  }
  if (data.reason !== 'restart') return 0;
  const retryMs = typeof data.retryMs === 'number' && data.retryMs > 0 ? Math.min(data.retryMs, 60_000) : 0;
  return Math.round(retryMs * (1 + random()));
}
