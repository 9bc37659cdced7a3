/**
 * WORKERS (issue 19): how many server processes share the port. PGlite is single-process, so more than one
 * is refused at start with one line, by the server and by `npm start` before it builds anything.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseWorkers } from '../../scripts/workers.mjs';
import { runNode } from '../support/run-process';

const root = path.resolve(import.meta.dirname, '../..');
const PG = 'postgres://u:p@db.example/site';

describe('the WORKERS setting', () => {
  it('is 1 when unset or empty, a whole number up to 64, or one per core with auto on PostgreSQL', () => {
    expect(parseWorkers({})).toEqual({ count: 1 });
    expect(parseWorkers({ WORKERS: ' ' })).toEqual({ count: 1 });
    expect(parseWorkers({ WORKERS: '1' })).toEqual({ count: 1 });
    expect(parseWorkers({ WORKERS: '4', DATABASE_URL: PG })).toEqual({ count: 4 });
    expect(parseWorkers({ WORKERS: 'auto', DATABASE_URL: PG }).count).toBeGreaterThanOrEqual(1);
    // auto on the embedded database is the one process it allows.
    expect(parseWorkers({ WORKERS: 'auto' })).toEqual({ count: 1 });
    for (const bad of ['0', '-1', '1.5', 'two', '65', '2x']) {
      expect(parseWorkers({ WORKERS: bad, DATABASE_URL: PG }).error, bad).toMatch(/^WORKERS must be a whole number from 1 to 64, or auto/);
    }
  });

  it('refuses more than one worker on the embedded database', () => {
    expect(parseWorkers({ WORKERS: '2' }).error).toBe(
      'WORKERS=2 needs PostgreSQL (DATABASE_URL): the embedded database can be opened by one process only. Unset WORKERS, or set DATABASE_URL.',
    );
  });

  it.each([['server.mjs'], ['scripts/start.mjs']])('%s stops at once with that one line', async (script) => {
    const env = { ...process.env, WORKERS: '2', DATABASE_URL: '', PORT: '45299', HOST: '127.0.0.1', DATA_DIR: '/tmp/jobs-never-created' };
    const result = await runNode([path.join(root, script)], { cwd: root, env });
    expect(result.code).toBe(1);
    expect(result.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^WORKERS=2 needs PostgreSQL \(DATABASE_URL\)/)]);
    expect(result.stdout).toBe('');
  });
});
