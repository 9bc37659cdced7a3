/**
 * PostgreSQL cutting the site's connections (a restart, a failover, an administrator's
 * pg_terminate_backend) must not crash the process, whether the connection is idle in the pool or held by
 * a transaction between two statements; the pool then serves again with new connections (decision 025).
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../src/server/db/client';
import { CONNECT_TIMEOUT_MS, POOL_SIZE } from '../../src/server/db/postgres-pool';
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

  it('a cut connection is remembered for a moment: a request that failed with it is put down to the outage', async () => {
    const client = await handle.postgres!.pool.connect();
    const { rows } = await client.query<{ pid: number }>('select pg_backend_pid() as pid');
    client.release();
    await new Promise((resolve) => setTimeout(resolve, 3_100)); // the earlier tests' cuts are forgotten
    expect(handle.lostConnectionRecently!()).toBe(false);
    await terminate(rows[0]!.pid);
    await settle();
    expect(handle.lostConnectionRecently!()).toBe(true);
  });

  it('a full pool is busy, not down: a request waits past the connect timeout for a free connection, and ping answers', async () => {
    const pool = handle.postgres!.pool;
    await new Promise((resolve) => setTimeout(resolve, 3_100));
    // Every connection busy for longer than a new connection may take to open.
    const holdMs = CONNECT_TIMEOUT_MS + 1_500;
    const holders = Array.from({ length: POOL_SIZE }, () => pool.query(`select pg_sleep(${holdMs / 1000})`));
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(pool.waitingCount).toBe(0);
    const started = Date.now();
    const waiting = pool.query('select 1 as one');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(pool.waitingCount).toBe(1);
    // The health check asks on a connection of its own, so /readyz and the 503 rule see a server that answers.
    await handle.ping();
    const { rows } = await waiting;
    expect(rows[0].one).toBe(1);
    expect(Date.now() - started).toBeGreaterThan(CONNECT_TIMEOUT_MS);
    await Promise.all(holders);
    expect(handle.lostConnectionRecently!()).toBe(false);
  }, 30_000);

  it('a server that refuses connections fails fast and is remembered as a loss', async () => {
    const refused = await openDatabase({ kind: 'postgres', url: 'postgres://postgres:postgres@127.0.0.1:9/none' });
    const started = Date.now();
    await expect(refused.ping()).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(CONNECT_TIMEOUT_MS);
    expect(refused.lostConnectionRecently!()).toBe(true);
    await refused.close();
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
