/**
 * A fresh, migrated, empty database, installed as the app's database: a copy of the run's migrated
 * template, on PostgreSQL when TEST_DATABASE_URL is set and otherwise in-memory PGlite. A test file's
 * databases are reused from test to test, put back to the template's state (reused-databases.ts).
 */
import fs from 'node:fs';
import { useDatabaseHandle } from '../../src/server/db';
import { openDatabase, type Database, type DatabaseHandle } from '../../src/server/db/client';
import { createPostgresDatabase } from './postgres-database';
import { reusedDatabase } from './reused-databases';

export const onPostgres = Boolean(process.env.TEST_DATABASE_URL);

export async function freshDatabase(): Promise<DatabaseHandle> {
  const handle = await reusedDatabase(openCopy);
  useDatabaseHandle(handle);
  return handle;
}

/** A new copy of the run's migrated template (global-setup.ts); without one, an empty database migrated here. */
async function openCopy(): Promise<DatabaseHandle> {
  if (process.env.TEST_DATABASE_URL) {
    const template = process.env.TEST_POSTGRES_TEMPLATE;
    const database = await createPostgresDatabase(process.env.TEST_DATABASE_URL, 'test', template);
    const opened = await openDatabase({ kind: 'postgres', url: database.url });
    if (!template) await opened.migrate();
    return {
      ...opened,
      close: async () => {
        await opened.close();
        await database.drop();
      },
    };
  }
  const template = process.env.TEST_PGLITE_TEMPLATE;
  if (template && fs.existsSync(template)) return openDatabase({ kind: 'memory', loadDataDir: new Blob([fs.readFileSync(template)]) });
  const handle = await openDatabase({ kind: 'memory' });
  await handle.migrate();
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
