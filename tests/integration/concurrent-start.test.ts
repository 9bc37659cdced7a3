/**
 * Several instances started at once on one fresh PostgreSQL database (issue 19): each runs the start-up's
 * migrate-and-seed step (`scripts/migrate.ts`, what `npm start` runs first) in its own process. Without
 * the site-wide locks, two of them create drizzle's schema or apply the first migration at the same time
 * and one fails, or both seed the demo content.
 */
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresDatabase, type ThrowawayDatabase } from '../support/postgres-database';
import { runNode } from '../support/run-process';

const serverUrl = process.env.TEST_DATABASE_URL;
const root = path.resolve(import.meta.dirname, '../..');
const STARTS = 4;
const unlessPostgres = serverUrl ? '' : ' (skipped: set TEST_DATABASE_URL to a PostgreSQL server)';

describe.skipIf(!serverUrl)(`starting several instances at once on PostgreSQL${unlessPostgres}`, () => {
  let database: ThrowawayDatabase;
  beforeAll(async () => {
    database = await createPostgresDatabase(serverUrl!, 'concurrent_start');
  });
  afterAll(() => database?.drop());

  it('migrates once and seeds the demo content once; every start succeeds', async () => {
    const env = {
      ...process.env,
      DATABASE_URL: database.url,
      AUTH_SECRET: 'a-test-secret-that-is-long-enough-0123456789',
      SEED_DEMO_CONTENT: 'true',
      LOG_LEVEL: 'silent',
    };
    const results = await Promise.all(
      Array.from({ length: STARTS }, () => runNode(['--import', 'tsx', path.join(root, 'scripts', 'migrate.ts')], { cwd: root, env })),
    );
    for (const r of results) expect(r.stderr, r.stdout).toBe('');
    expect(results.map((r) => r.code)).toEqual(Array(STARTS).fill(0));
    expect(results.filter((r) => r.stdout.includes('Seeded the demo content'))).toHaveLength(1);

    const journal = JSON.parse(fs.readFileSync(path.join(root, 'drizzle', 'meta', '_journal.json'), 'utf8')) as { entries: unknown[] };
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      const applied = await client.query('select count(*)::int as n from drizzle.__drizzle_migrations');
      expect(applied.rows[0].n).toBe(journal.entries.length);
      // The demo catalogue once: six services, not twelve.
      const services = await client.query('select count(*)::int as n from services');
      expect(services.rows[0].n).toBe(6);
    } finally {
      await client.end();
    }
  });
});
