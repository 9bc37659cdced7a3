/**
 * What every server process must see (docs/decisions/022): cache invalidation, live chat events, ended
 * grants, deleted media. One topic has one handler per process, registered by the module that owns the
 * state (`onEvent`). `publish` runs this process's handler at once — no round trip — and hands the event to
 * the transport, which on PostgreSQL is a NOTIFY every other process's LISTEN receives (./postgres.ts);
 * on PGlite (one process) there is no transport. After the transport was cut off, events may have been
 * missed: every `onResync` callback runs (caches dropped, live streams told to reconnect).
 *
 * Payloads are small references (tag names, ids), never rows: a NOTIFY carries less than 8000 bytes.
 */
import { randomUUID } from 'node:crypto';
import { logger } from '../logger';

/** What crosses the process boundary: who sent it (its own echo is ignored), the topic, the data. */
export interface Envelope {
  i: string;
  t: string;
  d: unknown;
}

/** PostgreSQL refuses NOTIFY payloads of 8000 bytes or more; a little is kept for the channel name. */
export const MAX_PAYLOAD_BYTES = 7900;

export interface Transport {
  /** Sends to every other process; rejects when it could not (the caller logs, never fails a write). */
  send(payload: string): Promise<void>;
  close(): Promise<void>;
}

type Handler = (data: never) => unknown;

interface Bus {
  instanceId: string;
  handlers: Map<string, Handler>;
  resyncs: Map<string, () => void>;
  transport?: Transport;
  /** Sends are chained: the order one process publishes in is the order the others receive. */
  sending: Promise<void>;
  /** Events from other processes are handled one after another per topic (a handler may read the database). */
  receiving: Map<string, Promise<void>>;
}

// On globalThis: routes, Actions and the start-up may be bundled into different chunks and share one bus.
const holder = globalThis as unknown as { __agencyEvents?: Bus };
const bus: Bus = (holder.__agencyEvents ??= {
  instanceId: randomUUID(),
  handlers: new Map(),
  resyncs: new Map(),
  sending: Promise.resolve(),
  receiving: new Map(),
});

/** This process's id in every envelope it sends. */
export const instanceId = () => bus.instanceId;

/**
 * The handler of `topic` in this process (a later registration replaces an earlier one, so a module
 * evaluated twice does not handle an event twice). It runs for this process's publishes and for every
 * other process's.
 */
export function onEvent<T>(topic: string, handler: (data: T) => unknown) {
  bus.handlers.set(topic, handler as Handler);
}

/** Runs after the transport reconnected: whatever this process keeps may be stale (by `name`, once). */
export function onResync(name: string, callback: () => void) {
  bus.resyncs.set(name, callback);
}

export interface PublishOptions {
  /** False when the caller already did this process's part itself (it had the data at hand). */
  here?: boolean;
}

/** The envelope as sent; throws on a payload that could not be NOTIFYed (a programming error). */
export function encodeEnvelope(topic: string, data: unknown, id = bus.instanceId): string {
  const payload = JSON.stringify({ i: id, t: topic, d: data } satisfies Envelope);
  const bytes = Buffer.byteLength(payload);
  if (bytes > MAX_PAYLOAD_BYTES) throw new RangeError(`event '${topic}' is ${bytes} bytes; send a reference (an id), not the data`);
  return payload;
}

/**
 * Publishes `data` on `topic`: this process's handler runs now (its errors are logged), then the event is
 * sent to the other processes. Never rejects: the change it announces is already committed, and a process
 * that misses it resyncs when its listener reconnects.
 */
export async function publish(topic: string, data: unknown, options: PublishOptions = {}): Promise<void> {
  const payload = encodeEnvelope(topic, data);
  if (options.here !== false) runHandler(topic, data);
  const transport = bus.transport;
  if (!transport) return;
  const sent = bus.sending.then(() => transport.send(payload));
  bus.sending = sent.catch(() => {});
  try {
    await sent;
  } catch (err) {
    logger.warn({ err, topic }, 'could not send an event to the other server processes');
  }
}

function runHandler(topic: string, data: unknown): unknown {
  const handler = bus.handlers.get(topic);
  if (!handler) return undefined;
  try {
    const result = handler(data as never);
    if (result instanceof Promise) return result.catch((err: unknown) => logger.error({ err, topic }, 'event handler failed'));
    return result;
  } catch (err) {
    logger.error({ err, topic }, 'event handler failed');
    return undefined;
  }
}

/** A payload the transport received: handled unless this process sent it. */
export function receive(payload: string): void {
  let envelope: Envelope;
  try {
    envelope = JSON.parse(payload) as Envelope;
  } catch {
    logger.warn('ignored an event that is not JSON');
    return;
  }
  if (envelope.i === bus.instanceId || typeof envelope.t !== 'string') return;
  const topic = envelope.t;
  const previous = bus.receiving.get(topic) ?? Promise.resolve();
  const next = previous.then(() => runHandler(topic, envelope.d)).then(() => {
    if (bus.receiving.get(topic) === next) bus.receiving.delete(topic);
  });
  bus.receiving.set(topic, next);
}

/** Events may have been missed: every process-local copy is dropped. */
export function resync(): void {
  for (const [name, callback] of bus.resyncs) {
    try {
      callback();
    } catch (err) {
      logger.error({ err, name }, 'resync failed');
    }
  }
}

/** Installs the transport (start-up); events published before it reached this process only. */
export function useTransport(transport: Transport | undefined) {
  bus.transport = transport;
}

/** Closes the transport (shutdown). */
export async function closeTransport(): Promise<void> {
  const transport = bus.transport;
  bus.transport = undefined;
  await transport?.close();
}
