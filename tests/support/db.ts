/**
 * A fresh, migrated, empty database for one test file, installed as the app's database. On PostgreSQL
 * (TEST_DATABASE_URL set) each call creates its own database; otherwise an in-memory PGlite copy of the
 * migrated template.
 */
import fs from 'node:fs';
import { useDatabaseHandle } from '../../src/server/db';
import { openDatabase, type Database, type DatabaseHandle } from '../../src/server/db/client';
import { createPostgresDatabase } from './postgres-database';

export const onPostgres = Boolean(process.env.TEST_DATABASE_URL);

export async function freshDatabase(): Promise<DatabaseHandle> {
  let handle: DatabaseHandle;
  if (process.env.TEST_DATABASE_URL) {
    const database = await createPostgresDatabase(process.env.TEST_DATABASE_URL);
    const opened = await openDatabase({ kind: 'postgres', url: database.url });
    await opened.migrate();
    handle = {
      ...opened,
      close: async () => {
        await opened.close();
        await database.drop();
      },
    };
  } else {
    const template = process.env.TEST_PGLITE_TEMPLATE;
    if (template && fs.existsSync(template)) {
      handle = await openDatabase({ kind: 'memory', loadDataDir: new Blob([fs.readFileSync(template)]) });
    } else {
      handle = await openDatabase({ kind: 'memory' });
      await handle.migrate();
    }
  }
  useDatabaseHandle(handle);
  return handle;
}

/** The connection URL of the PostgreSQL database `handle` is open on (for a second "instance" on it). */
export async function postgresUrlOf(handle: DatabaseHandle): Promise<string> {
  const result = (await handle.db.execute('select current_database() as name')) as unknown as { rows: Array<{ name: string }> };
  const url = new URL(process.env.TEST_DATABASE_URL!);
  url.pathname = `/${result.rows[0]!.name}`;
  return url.toString();
}

/**
 * A fresh database and a second "instance" on it: on PostgreSQL a connection pool of its own on the same
 * database, as two server processes have; on PGlite (single-process) the same handle.
 */
export async function twoInstances(): Promise<{ handle: DatabaseHandle; otherDb: Database; close(): Promise<void> }> {
  const handle = await freshDatabase();
  const other = onPostgres ? await openDatabase({ kind: 'postgres', url: await postgresUrlOf(handle) }) : undefined;
  return {
    handle,
    otherDb: other?.db ?? handle.db,
    async close() {
      await other?.close();
      await handle.close();
    },
  };
}
