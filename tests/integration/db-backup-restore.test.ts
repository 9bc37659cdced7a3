/**
 * `npm run db:backup` / `npm run db:restore` round trip (docs/decisions/025), on the embedded database, or
 * on PostgreSQL when TEST_DATABASE_URL is set: every table's rows and content after the restore are those
 * of the backup, not of the changes made after it; a restore refuses while the site holds the database and
 * changes nothing when the file is not a backup.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseTarget } from '../../src/server/db/client';
import { acquireDataDirLock } from '../../src/server/db/lock';
import { createPostgresDatabase, type ThrowawayDatabase } from '../support/postgres-database';
import { runNode } from '../support/run-process';

const root = path.resolve(import.meta.dirname, '../..');
const temp = fs.mkdtempSync(path.join(os.tmpdir(), 'db-backup-'));
const dataDir = path.join(temp, 'data');
const serverUrl = process.env.TEST_DATABASE_URL;
let postgres: ThrowawayDatabase | undefined;

const target = (): DatabaseTarget => (postgres ? { kind: 'postgres', url: postgres.url } : { kind: 'pglite', dataDir });

function env(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return {
    ...process.env,
    DATA_DIR: dataDir,
    DATABASE_URL: postgres?.url ?? '',
    AUTH_SECRET: 'a-test-secret-that-is-long-enough-for-config',
    LOG_LEVEL: 'silent',
    ...extra,
  };
}

const run = (script: string, args: string[] = [], extra: NodeJS.ProcessEnv = {}) =>
  runNode(['--import', 'tsx', path.join(root, 'scripts', script), '--', ...args], { cwd: root, env: env(extra) });

/** Raw SQL results: the same `rows` on PGlite and on node-postgres. */
const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

type Snapshot = Record<string, { rows: number; digest: string }>;

/** Every table of the site (the migrations' bookkeeping included): its row count and a digest of its rows. */
async function snapshot(): Promise<Snapshot> {
  const handle = await openDatabase(target());
  try {
    const tables = rowsOf<{ schema: string; name: string }>(
      await handle.db.execute(
        sql`select table_schema as schema, table_name as name from information_schema.tables
            where table_type = 'BASE TABLE' and table_schema in ('public', 'drizzle') order by 1, 2`,
      ),
    );
    const result: Snapshot = {};
    for (const { schema, name } of tables) {
      const table = sql.raw(`"${schema}"."${name}"`);
      const [row] = rowsOf<{ rows: number; digest: string }>(
        await handle.db.execute(sql`select count(*)::int as rows, coalesce(md5(string_agg(t::text, E'\\n' order by t::text)), '') as digest from ${table} t`),
      );
      result[`${schema}.${name}`] = { rows: Number(row!.rows), digest: row!.digest };
    }
    return result;
  } finally {
    await handle.close();
  }
}

async function changeEverythingALittle() {
  const handle = await openDatabase(target());
  try {
    await handle.db.execute(sql`update services set name = name || ' (changed after the backup)'`);
    await handle.db.execute(sql`delete from package_services`);
    await handle.db.execute(sql`insert into mail_queue (id, kind, "to", subject, text) values ('after-backup', 'test', 'a@example.com', 'Hi', 'Hello')`);
  } finally {
    await handle.close();
  }
}

beforeAll(async () => {
  if (serverUrl) postgres = await createPostgresDatabase(serverUrl, 'backup');
  const migrated = await run('migrate.ts');
  expect(migrated.stderr).toBe('');
  expect(migrated.code).toBe(0);
}, 180_000);

afterAll(async () => {
  await postgres?.drop();
  fs.rmSync(temp, { recursive: true, force: true });
});

describe(`db:backup and db:restore (${serverUrl ? 'PostgreSQL' : 'embedded database'})`, () => {
  const backup = path.join(temp, 'backups', 'site.backup');

  it('restores every table as it was at the backup, from an owner-only file', { timeout: 240_000 }, async () => {
    const before = await snapshot();
    expect(Object.keys(before)).toEqual(expect.arrayContaining(['public.services', 'public.faqs', 'public.mail_queue', 'public.users', 'drizzle.__drizzle_migrations']));
    expect(before['public.services']!.rows).toBeGreaterThan(0);
    expect(before['public.package_services']!.rows).toBeGreaterThan(0);

    const made = await run('db-backup.ts', [backup]);
    expect(made.stderr).toBe('');
    expect(made.code).toBe(0);
    expect(made.stdout).toContain(`to ${backup}`);
    expect(fs.statSync(backup).mode & 0o777).toBe(0o600);
    expect(fs.readdirSync(path.dirname(backup))).toEqual(['site.backup']); // no partial file left behind

    await changeEverythingALittle();
    const changed = await snapshot();
    expect(changed).not.toEqual(before);

    // Not a backup: refused, and nothing changed.
    const garbage = path.join(temp, 'not-a-backup');
    fs.writeFileSync(garbage, 'hello');
    const refused = await run('db-restore.ts', [garbage]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('Nothing was changed.');
    expect(await snapshot()).toEqual(changed);

    const restored = await run('db-restore.ts', [backup]);
    expect(restored.stderr).toBe('');
    expect(restored.code).toBe(0);
    expect(await snapshot()).toEqual(before);
  });

  it('refuses, in one line, while the site holds the database', { timeout: 120_000 }, async () => {
    const before = await snapshot();
    // The running site: the data folder's lock (embedded), or a connection of the site's pool (PostgreSQL).
    const site = postgres ? await openDatabase(target()) : undefined;
    await site?.ping();
    const lock = postgres ? undefined : acquireDataDirLock(dataDir);
    try {
      const restore = await run('db-restore.ts', [backup]);
      expect(restore.code).toBe(1);
      expect(restore.stderr.trim().split('\n')).toHaveLength(1);
      expect(restore.stderr).toMatch(postgres ? /Cannot restore: 1 connection\(s\) of the running site .* Stop every site process/ : /Cannot restore: .* in use .* Stop the server/);
      if (!postgres) {
        const backupWhileRunning = await run('db-backup.ts', [path.join(temp, 'while-running')]);
        expect(backupWhileRunning.code).toBe(1);
        expect(backupWhileRunning.stderr).toMatch(/^Cannot back up: .* Stop the server/);
        expect(fs.existsSync(path.join(temp, 'while-running'))).toBe(false);
      }
    } finally {
      lock?.release();
      await site?.close();
    }
    expect(await snapshot()).toEqual(before);
  });

  it.runIf(serverUrl)('says what to install when PostgreSQL’s dump tools are missing', async () => {
    const missing = await run('db-backup.ts', [path.join(temp, 'no-tools')], { PATH: '/nonexistent' });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('pg_dump was not found. Install PostgreSQL');
  });
});
