// A bench that runs the app's own functions against its databases: a fresh in-memory PGlite, then, when
// BENCH_DATABASE_URL (or TEST_DATABASE_URL) names a PostgreSQL server, a new database there, dropped after.
// DATA_DIR is a temporary folder for the run (the app keeps its secret there); logs are quiet.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** `{ pglite, postgres? }`: `run(target)` on each engine, `target` as openDatabase takes it. */
export async function onEngines(name, run) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `agency-${name}-bench-`));
  process.env.DATA_DIR = dataDir;
  // 'error': dropping the bench database at the end closes the pool's idle connections, logged as warnings.
  process.env.LOG_LEVEL ??= 'error';
  try {
    const result = { pglite: await run({ kind: 'memory' }) };
    const serverUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
    if (serverUrl) {
      const { createPostgresDatabase } = await import('../tests/support/postgres-database.ts');
      const database = await createPostgresDatabase(serverUrl, `bench_${name.replace(/\W/g, '_')}`);
      try {
        result.postgres = await run({ kind: 'postgres', url: database.url });
      } finally {
        await database.drop();
      }
    }
    return result;
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
