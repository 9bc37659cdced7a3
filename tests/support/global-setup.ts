/**
 * Runs once per test run: migrates a database and keeps it as a template, so every test starts from a
 * fresh, migrated copy in milliseconds instead of running initdb and every migration again. On PGlite the
 * template is a dump of the data folder; on PostgreSQL (TEST_DATABASE_URL) a database that CREATE DATABASE
 * … TEMPLATE copies.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase } from '../../src/server/db/client';
import { createPostgresDatabase } from './postgres-database';

export default async function setup() {
  if (process.env.TEST_DATABASE_URL) return postgresTemplate(process.env.TEST_DATABASE_URL);
  const handle = await openDatabase({ kind: 'memory' });
  await handle.migrate();
  const dump = await handle.pglite!.dumpDataDir('none');
  const file = path.join(os.tmpdir(), `agency-test-template-${process.pid}.tar`);
  fs.writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  await handle.close();
  process.env.TEST_PGLITE_TEMPLATE = file;
  return () => fs.rmSync(file, { force: true });
}

async function postgresTemplate(serverUrl: string) {
  const database = await createPostgresDatabase(serverUrl, 'template');
  const handle = await openDatabase({ kind: 'postgres', url: database.url });
  await handle.migrate();
  // A template must have no other connection while it is copied.
  await handle.close();
  process.env.TEST_POSTGRES_TEMPLATE = new URL(database.url).pathname.slice(1);
  return () => database.drop();
}
