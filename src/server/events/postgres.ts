/**
 * The PostgreSQL transport of the event bus (docs/decisions/022). One dedicated connection per process
 * LISTENs on one channel — not a pooled one: a pooled connection goes back to the pool and its LISTEN
 * with it. Sending is a `pg_notify` on the pool. When the listening connection drops (PostgreSQL
 * restarted, the backend terminated, the network), it reconnects with growing back-off, and after every
 * reconnect `onReconnected` runs: what was sent meanwhile was lost, so the process drops what it caches.
 * A periodic round trip on the listening connection finds a connection that died without telling.
 */
import pg from 'pg';
import { logger } from '../logger';
import type { Transport } from './bus';

export const EVENTS_CHANNEL = 'agency_events';

export interface PostgresTransportOptions {
  /** The database every server process uses (DATABASE_URL). */
  url: string;
  /** Where NOTIFYs are sent from (the application's pool). */
  query: (text: string, values: unknown[]) => Promise<unknown>;
  onPayload(payload: string): void;
  /** After the listener came back: events may have been missed. */
  onReconnected(): void;
  /** Back-off bounds and the liveness check's interval (tests shorten them). */
  minDelayMs?: number;
  maxDelayMs?: number;
  checkEveryMs?: number;
}

export interface PostgresTransport extends Transport {
  /** Resolves once the first LISTEN is in place (start-up waits for it; rejects if it fails). */
  readonly listening: Promise<void>;
  /** How many times the listener has reconnected (tests, metrics). */
  readonly reconnects: number;
  /** The listening backend's pid (tests end it with pg_terminate_backend). */
  readonly backendPid: number | undefined;
}

export function startPostgresTransport(options: PostgresTransportOptions): PostgresTransport {
  const minDelay = options.minDelayMs ?? 250;
  const maxDelay = options.maxDelayMs ?? 10_000;
  const checkEvery = options.checkEveryMs ?? 30_000;
  let client: pg.Client | undefined;
  let backendPid: number | undefined;
  let closed = false;
  let reconnects = 0;
  let failures = 0;
  let retry: NodeJS.Timeout | undefined;
  let check: NodeJS.Timeout | undefined;
  let resolveFirst!: () => void;
  let rejectFirst!: (err: unknown) => void;
  let first = true;
  const listening = new Promise<void>((resolve, reject) => {
    resolveFirst = resolve;
    rejectFirst = reject;
  });
  // Start-up awaits it; a transport closed before it listened must not leave a rejection nobody handles.
  listening.catch(() => {});

  const dropped = (current: pg.Client, err?: unknown) => {
    if (client !== current) return;
    client = undefined;
    backendPid = undefined;
    clearInterval(check);
    current.removeAllListeners('notification');
    current.end().catch(() => {});
    if (closed) return;
    logger.warn({ err }, 'the event listener lost its PostgreSQL connection; reconnecting');
    schedule();
  };

  const schedule = () => {
    // Exponential with jitter, so processes cut off together do not all come back in the same instant.
    const delay = Math.min(maxDelay, minDelay * 2 ** Math.min(failures, 10)) * (0.5 + Math.random() / 2);
    failures += 1;
    retry = setTimeout(() => void connect(), delay);
  };

  const connect = async () => {
    if (closed) return;
    const next = new pg.Client({ connectionString: options.url, keepAlive: true, application_name: 'agency-events' });
    // Errors after connect come here; without a listener they would crash the process.
    next.on('error', (err) => dropped(next, err));
    next.on('end', () => dropped(next));
    try {
      await next.connect();
      await next.query(`LISTEN ${EVENTS_CHANNEL}`);
      const pid = await next.query<{ pid: number }>('select pg_backend_pid() as pid');
      if (closed) {
        await next.end().catch(() => {});
        return;
      }
      client = next;
      backendPid = pid.rows[0]?.pid;
      next.on('notification', (message) => {
        if (message.channel === EVENTS_CHANNEL && message.payload !== undefined) options.onPayload(message.payload);
      });
      failures = 0;
      check = setInterval(() => {
        next.query('select 1').catch((err: unknown) => dropped(next, err));
      }, checkEvery);
      check.unref();
      if (first) {
        first = false;
        resolveFirst();
      } else {
        reconnects += 1;
        logger.info({ reconnects }, 'the event listener is back; dropping what this process cached');
        options.onReconnected();
      }
    } catch (err) {
      next.removeAllListeners('end');
      next.end().catch(() => {});
      if (first) {
        // At start-up a database that cannot be listened to is a failed start, like a failed migration.
        closed = true;
        rejectFirst(err);
        return;
      }
      logger.warn({ err }, 'the event listener could not reconnect yet');
      schedule();
    }
  };

  void connect();

  return {
    listening,
    get reconnects() {
      return reconnects;
    },
    get backendPid() {
      return backendPid;
    },
    async send(payload) {
      await options.query('select pg_notify($1, $2)', [EVENTS_CHANNEL, payload]);
    },
    async close() {
      closed = true;
      clearTimeout(retry);
      clearInterval(check);
      const current = client;
      client = undefined;
      if (current) await current.end().catch(() => {});
      if (first) rejectFirst(new Error('the event transport was closed before it listened'));
    },
  };
}
