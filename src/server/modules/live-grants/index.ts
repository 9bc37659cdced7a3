/**
 * A grant ends everywhere (ARCHITECTURE.md, docs/decisions/017): a live stream is authorization that was
 * checked once, when it opened. Every stream that shows what only an account may see holds a grant here,
 * keyed by the account and the session it was opened with; whatever ends that grant (a role change,
 * disabling, sign-out, a session revoked) calls endStreamsOfUser or endStreamsOfSession, and the stream
 * sends its `end` event and closes. The browser reconnects at once and the server checks again. Streams
 * also end on their own after a bounded lifetime, so nothing the end events miss lives for long.
 */
import { onEvent, publish } from '../../events/bus';
import { logger } from '../../logger';
import { countOpen, endLocalStreams, register, type GrantHolder, type GrantsEnded, type StreamKind } from './registry';

export type { GrantHolder, StreamKind } from './registry';
/** Who opened a stream: the signed-in account and its session. */
export type StreamViewer = Omit<GrantHolder, 'kind'>;

/**
 * The longest a stream stays open. Reconnecting costs one session read and one role check, so ten minutes
 * is cheap, and it bounds how long a grant can outlive an end event this process never received.
 */
export const STREAM_MAX_LIFETIME_MS = 10 * 60_000;
/** Streams opened together (after a restart) should not all reconnect together: up to 10% shorter. */
const LIFETIME_SPREAD = 0.1;

/** This stream's lifetime: STREAM_MAX_LIFETIME_MS less a random part of the spread. */
export function streamLifetimeMs(random: () => number = Math.random): number {
  return Math.round(STREAM_MAX_LIFETIME_MS * (1 - LIFETIME_SPREAD * random()));
}

export interface LiveGrant {
  /** Aborted when the grant ends; the stream then sends `end` and closes. */
  readonly signal: AbortSignal;
  /** Called when the stream closes, however it closes. */
  release(): void;
}

/**
 * Registers a stream before its access is checked: an end published while the check runs still reaches
 * it (`signal.aborted`), so a demotion that lands between "checked" and "open" cannot be missed.
 */
export function holdGrant(holder: GrantHolder): LiveGrant {
  const ended = new AbortController();
  const release = register(holder, () => ended.abort());
  return { signal: ended.signal, release };
}

/** Streams of one kind an account has open in this process (the per-account cap). */
export const liveStreamCount = (userId: string, kind: StreamKind) => countOpen(userId, kind);

const GRANTS_TOPIC = 'grants.ended';

/** Ends this process's streams of the event: for this process's ends and for every other process's. */
function endHere(event: GrantsEnded) {
  const ended = endLocalStreams(event);
  if (ended > 0) logger.info({ ...event, ended }, 'live streams ended with their grant');
}
onEvent<GrantsEnded>(GRANTS_TOPIC, endHere);

/**
 * The one function every end goes through: this process's streams end at once, every other process's
 * when its LISTEN receives the NOTIFY (docs/decisions/022). It never throws: the change that ended the
 * grant is already committed, and a stream the event misses still ends with its lifetime (and every
 * stream of a process whose listener reconnected is told to reconnect).
 */
const publishGrantsEnded = (event: GrantsEnded): Promise<void> => publish(GRANTS_TOPIC, event);

/** After a role change or disabling has committed: every stream of the account, on every session. */
export const endStreamsOfUser = (userId: string) => publishGrantsEnded({ userId });

/** After a session ended (sign-out, revoked, expired, a password change): the streams opened with it. */
export const endStreamsOfSession = (sessionId: string) => publishGrantsEnded({ sessionId });
