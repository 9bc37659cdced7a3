/**
 * Background work lets visitors go first (decision 051): on the embedded database, a job's queries each
 * wait for a turn of the event loop, so a request that arrived meanwhile is handled between them; a
 * request's own queries never wait. The "request" here is an immediate queued while the queries run.
 */
import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { givingWayToRequests, runInBackground } from '../../src/server/db/background-queries';

let raw: PGlite;
let client: PGlite;
beforeAll(async () => {
  raw = await PGlite.create();
  client = givingWayToRequests(raw);
  await client.exec('create table t (n int)');
});
afterAll(() => raw.close());

/**
 * Runs 20 queries (in a transaction when asked) and says after how many of them an immediate queued
 * before them ran: 'after all' when it had not run by the time the last one ended.
 */
async function immediateRanAfter(work: (run: () => Promise<void>) => Promise<void>, transaction: boolean): Promise<number | 'after all'> {
  let done = 0;
  let ranAfter: number | 'after all' = 'after all';
  const twenty = async (query: (sql: string) => Promise<unknown>) => {
    for (let i = 0; i < 20; i++) {
      await query('insert into t values (1)');
      done++;
    }
  };
  setImmediate(() => (ranAfter = done));
  await work(() => (transaction ? client.transaction((tx) => twenty((sql) => tx.query(sql))) : twenty((sql) => client.query(sql))));
  return ranAfter;
}

describe('queries of background work', () => {
  it('give the event loop a turn before each query, in and out of transactions', async () => {
    expect(await immediateRanAfter((run) => runInBackground(run), false)).toBe(0);
    expect(await immediateRanAfter((run) => runInBackground(run), true)).toBe(0);
  });

  it("leave a request's own queries as they are: chained, nothing between them", async () => {
    expect(await immediateRanAfter((run) => run(), false)).toBe('after all');
    expect(await immediateRanAfter((run) => run(), true)).toBe('after all');
  });

  it('answer as the client does, rows and all', async () => {
    const counted = await runInBackground(() => client.query<{ n: number }>('select count(*)::int as n from t'));
    expect(counted.rows[0]!.n).toBe(80);
    expect(client.ready).toBe(true);
  });
});
