/**
 * Testing a migration on data of the shape before it: a migrations folder holding every migration before a
 * tag (as the app had them), an empty database (in-memory PGlite, or a new database on TEST_DATABASE_URL's
 * server), and the app's own migrator run on a folder (MIGRATIONS_DIR) or on the real one.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase, type DatabaseHandle } from '../../src/server/db/client';
import { createPostgresDatabase } from './postgres-database';

export const DRIZZLE = path.resolve('drizzle');

/** A migrations folder holding every migration before `tag`. */
export function migrationsBefore(tag: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'migrations-before-'));
  const journal = JSON.parse(fs.readFileSync(path.join(DRIZZLE, 'meta', '_journal.json'), 'utf8')) as { entries: { tag: string }[] };
  const index = journal.entries.findIndex((e) => e.tag === tag);
  if (index <= 0) throw new Error(`no migration ${tag} with migrations before it`);
  const earlier = journal.entries.slice(0, index);
  fs.mkdirSync(path.join(dir, 'meta'));
  fs.writeFileSync(path.join(dir, 'meta', '_journal.json'), JSON.stringify({ ...journal, entries: earlier }));
  for (const e of earlier) fs.copyFileSync(path.join(DRIZZLE, `${e.tag}.sql`), path.join(dir, `${e.tag}.sql`));
  return dir;
}

export async function emptyDatabase(): Promise<DatabaseHandle> {
  if (!process.env.TEST_DATABASE_URL) return openDatabase({ kind: 'memory' });
  const database = await createPostgresDatabase(process.env.TEST_DATABASE_URL);
  const opened = await openDatabase({ kind: 'postgres', url: database.url });
  return {
    ...opened,
    close: async () => {
      await opened.close();
      await database.drop();
    },
  };
}

/** The app's migrator (handle.migrate) on the migrations in `folder`, or on the real ones when undefined. */
export async function migrateFrom(handle: DatabaseHandle, folder: string | undefined) {
  const previous = process.env.MIGRATIONS_DIR;
  if (folder) process.env.MIGRATIONS_DIR = folder;
  else delete process.env.MIGRATIONS_DIR;
  try {
    await handle.migrate();
  } finally {
    if (previous === undefined) delete process.env.MIGRATIONS_DIR;
    else process.env.MIGRATIONS_DIR = previous;
  }
}
