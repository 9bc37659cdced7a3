/**
 * Runs once per test run: migrates an in-memory PGlite database and saves it as a template, so every
 * test file starts from a fresh, migrated copy in milliseconds instead of running initdb again.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase } from '../../src/server/db/client';

export default async function setup() {
  if (process.env.TEST_DATABASE_URL) return;
  const handle = await openDatabase({ kind: 'memory' });
  await handle.migrate();
  const dump = await handle.pglite!.dumpDataDir('none');
  const file = path.join(os.tmpdir(), `agency-test-template-${process.pid}.tar`);
  fs.writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  await handle.close();
  process.env.TEST_PGLITE_TEMPLATE = file;
  return () => fs.rmSync(file, { force: true });
}
