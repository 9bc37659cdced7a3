/**
 * The event bus's start and stop (docs/decisions/022). On PostgreSQL the start-up waits until this
 * process LISTENs, so no event published after it serves its first request is missed; on PGlite (one
 * process) events stay in this process. Closed before the database on shutdown.
 */
import { beforeDatabaseClose } from '../db';
import type { DatabaseHandle } from '../db/client';
import { closeTransport, receive, resync, useTransport } from './bus';
import { startPostgresTransport } from './postgres';

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
