/**
 * A fresh, migrated, empty database for one test file, installed as the app's database. On PostgreSQL
 * (TEST_DATABASE_URL set) each call creates its own database; otherwise an in-memory PGlite copy of the
 * migrated template.
 */
import fs from 'node:fs';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { useDatabaseHandle } from '../../src/server/db';
import { openDatabase, type DatabaseHandle } from '../../src/server/db/client';

export const onPostgres = Boolean(process.env.TEST_DATABASE_URL);

export async function freshDatabase(): Promise<DatabaseHandle> {
  let handle: DatabaseHandle;
  if (process.env.TEST_DATABASE_URL) {
    const adminUrl = new URL(process.env.TEST_DATABASE_URL);
    const name = `test_${Date.now()}_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: adminUrl.toString() });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    const opened = await openDatabase({ kind: 'postgres', url: url.toString() });
    await opened.migrate();
    handle = {
      ...opened,
      close: async () => {
        await opened.close();
        const cleanup = new pg.Client({ connectionString: adminUrl.toString() });
        await cleanup.connect();
        await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await cleanup.end();
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
