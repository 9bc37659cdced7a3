/**
 * Opening the database: PostgreSQL when a URL is given, otherwise embedded PGlite in DATA_DIR/pgdata
 * (or in memory, for tests). Both are driven through the same Drizzle PostgreSQL-dialect API.
 */
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { givingWayToRequests } from './background-queries';
import type pg from 'pg';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { inProcessLocks, postgresLocks, type SiteLocks } from './advisory-lock';
import { acquireDataDirLock, type DataDirLock } from './lock';
import { OwnerOnlyNodeFS } from './owner-only-fs';
import { openPostgresPool } from './postgres-pool';
import * as schema from './schema';

export type Schema = typeof schema;
export type Database = PgDatabase<PgQueryResultHKT, Schema>;

export type DatabaseTarget =
  | { kind: 'postgres'; url: string }
  | { kind: 'pglite'; dataDir: string }
  | { kind: 'memory'; loadDataDir?: Blob };

export interface DatabaseHandle {
  db: Database;
  kind: DatabaseTarget['kind'];
  /** Migrates once however many processes start together (under the site-wide migrate lock). */
  migrate(): Promise<void>;
  /** Work that must happen once across every process on this database (see advisory-lock.ts). */
  locks: SiteLocks;
  /** Cheap round trip, for /readyz. */
  ping(): Promise<void>;
  /** PostgreSQL only: a connection was lost or refused in the last few seconds (postgres-pool.ts). */
  lostConnectionRecently?(): boolean;
  close(): Promise<void>;
  /** PGlite only: the raw client (dump/restore in tests). */
  pglite?: PGlite;
  /** PostgreSQL only: the connection string and the pool (the event bus NOTIFYs through it; its counts are metrics). */
  postgres?: { url: string; pool: pg.Pool };
}

export { APPLICATION_NAME, CONNECT_TIMEOUT_MS } from './postgres-pool';

/**
 * PGlite's default 128 MB buffer pool lives in WebAssembly memory that is never returned; a small site's
 * working set fits in 16 MB, and the server must stay under 400 MB RSS (measured: -130 MB).
 */
export const SMALL_BUFFER_POOL = [...PGlite.defaultStartParams, '-c', 'shared_buffers=16MB'];

export function migrationsFolder(): string {
  return process.env.MIGRATIONS_DIR ?? path.resolve(process.cwd(), 'drizzle');
}

export async function openDatabase(target: DatabaseTarget): Promise<DatabaseHandle> {
  if (target.kind === 'postgres') {
    const { pool, ping, lostConnectionRecently } = openPostgresPool(target.url);
    const db = drizzlePg(pool, { schema }) as unknown as Database;
    const locks = postgresLocks(target.url);
    return {
      db,
      kind: 'postgres',
      postgres: { url: target.url, pool },
      locks,
      // Drizzle's migrator is not safe to run twice at once (both create its schema, both apply the same
      // migration; one fails): processes starting together take turns, and the later ones find nothing to do.
      migrate: () => locks.runExclusive('migrate', () => migratePg(db as never, { migrationsFolder: migrationsFolder() })),
      ping,
      lostConnectionRecently,
      close: async () => {
        await locks.releaseAll();
        if (pool.ended || pool.ending) return;
        await pool.end();
      },
    };
  }

  let lock: DataDirLock | undefined;
  let client: PGlite;
  if (target.kind === 'pglite') {
    lock = acquireDataDirLock(target.dataDir);
    try {
      client = await PGlite.create({ fs: new OwnerOnlyNodeFS(path.join(target.dataDir, 'pgdata')), startParams: SMALL_BUFFER_POOL });
    } catch (e) {
      lock.release();
      throw e;
    }
  } else {
    client = await PGlite.create(target.loadDataDir ? { loadDataDir: target.loadDataDir } : {});
  }
  const db = drizzlePglite(givingWayToRequests(client), { schema }) as unknown as Database;
  let closed = false;
  return {
    db,
    kind: target.kind,
    locks: inProcessLocks,
    pglite: client,
    migrate: () => migratePglite(db as never, { migrationsFolder: migrationsFolder() }),
    ping: async () => {
      await client.query('select 1');
    },
    close: async () => {
      if (closed) return;
      closed = true;
      try {
        // PGlite never fsyncs on its own: a checkpoint makes committed rows durable before we exit.
        if (target.kind === 'pglite') await client.exec('CHECKPOINT');
        await client.close();
      } finally {
        lock?.release();
      }
    },
  };
}

export function targetFromConfig(cfg: { DATABASE_URL?: string | undefined; dataDir: string }): DatabaseTarget {
  return cfg.DATABASE_URL ? { kind: 'postgres', url: cfg.DATABASE_URL } : { kind: 'pglite', dataDir: cfg.dataDir };
}
