/**
 * PostgreSQL cutting the site's connections (a restart, a failover, an administrator's
 * pg_terminate_backend) must not crash the process, whether the connection is idle in the pool or held by
 * a transaction between two statements; the pool then serves again with new connections (decision 025).
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../src/server/db/client';
import { createPostgresDatabase, type ThrowawayDatabase } from '../support/postgres-database';

const serverUrl = process.env.TEST_DATABASE_URL;
let database: ThrowawayDatabase;
let handle: DatabaseHandle;

beforeAll(async () => {
  if (!serverUrl) return;
  database = await createPostgresDatabase(serverUrl, 'cut');
  handle = await openDatabase({ kind: 'postgres', url: database.url });
});

afterAll(async () => {
  await handle?.close();
  await database?.drop();
});

async function terminate(pid: number) {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query('select pg_terminate_backend($1)', [pid]);
  } finally {
    await admin.end();
  }
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 300));

describe.runIf(serverUrl)('connections PostgreSQL cuts', () => {
  it('a connection held by a transaction: its next statement fails, the process lives, the pool recovers', async () => {
    const client = await handle.postgres!.pool.connect();
    await client.query('begin');
    const { rows } = await client.query<{ pid: number }>('select pg_backend_pid() as pid');
    await terminate(rows[0]!.pid);
    await settle(); // the 'error' event arrives now, while no statement is running
    await expect(client.query('select 1')).rejects.toThrow();
    client.release();
    await handle.ping();
    expect(handle.postgres!.pool.totalCount).toBeGreaterThan(0);
  });

  it('an idle connection in the pool: the process lives and the next query gets a new one', async () => {
    const client = await handle.postgres!.pool.connect();
    const { rows } = await client.query<{ pid: number }>('select pg_backend_pid() as pid');
    client.release();
    await terminate(rows[0]!.pid);
    await settle();
    await handle.ping();
  });
});
