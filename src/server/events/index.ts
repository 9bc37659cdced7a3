/**
 * The event bus's start and stop (docs/decisions/022). On PostgreSQL the start-up waits until this
 * process LISTENs, so no event published after it serves its first request is missed; on PGlite (one
 * process) events stay in this process. Closed before the database on shutdown.
 */
import { beforeDatabaseClose } from '../db';
import type { DatabaseHandle } from '../db/client';
import { closeTransport, encodeEnvelope, receive, resync, useTransport } from './bus';
import { EVENTS_CHANNEL, startPostgresTransport } from './postgres';

export { onEvent, onResync, publish } from './bus';

export async function startEvents(handle: DatabaseHandle): Promise<void> {
  if (!handle.postgres) return;
  const { url, pool } = handle.postgres;
  const transport = startPostgresTransport({
    url,
    query: (text, values) => pool.query(text, values),
    onPayload: receive,
    onReconnected: resync,
  });
  await transport.listening;
  useTransport(transport);
  beforeDatabaseClose(closeTransport);
}

/**
 * From a process that does not listen (a CLI script writing to the database the servers use): tells the
 * running servers on PostgreSQL. On PGlite no server runs beside a CLI (the data folder is locked).
 */
export async function announce(handle: DatabaseHandle, topic: string, data: unknown): Promise<void> {
  await handle.postgres?.pool.query('select pg_notify($1, $2)', [EVENTS_CHANNEL, encodeEnvelope(topic, data)]);
}
