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

export const STREAM_END_REASONS = ['lifetime', 'grant-ended', 'resync'] as const;
export type StreamEndReason = (typeof STREAM_END_REASONS)[number];

export interface StreamEndData {
  reason: StreamEndReason;
}
