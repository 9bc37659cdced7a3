/**
 * Background work lets visitors go first (decision 051). The embedded database runs each query
 * synchronously on the server's own thread, so a job's queries (claiming, storing a website check's
 * findings, finishing) chained one after the other hold every request that arrives meanwhile. Work run
 * under `runInBackground` gives the event loop a turn before each of its queries: requests waiting on a
 * socket are read and answered first, and a job waits at most one query's time for each. Requests'
 * own queries never wait. PostgreSQL runs queries in its own process: there is nothing to give back.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { setImmediate as nextImmediate } from 'node:timers/promises';
import type { PGlite, Transaction } from '@electric-sql/pglite';

const background = new AsyncLocalStorage<true>();

/** Runs `work` (and everything it awaits) as background work. */
export function runInBackground<T>(work: () => Promise<T>): Promise<T> {
  return background.run(true, work);
}

/**
 * One turn of the event loop, with a poll for I/O in it: the first immediate may run in the same turn
 * as the I/O callback that led here, before sockets that became readable meanwhile are polled.
 */
async function oneTurn(): Promise<void> {
  await nextImmediate();
  await nextImmediate();
}

type Query = PGlite['query'];

function yieldingQuery(query: Query): Query {
  return (async (...args: Parameters<Query>) => {
    if (background.getStore()) await oneTurn();
    return query(...args);
  }) as Query;
}

/** `client` with its queries, and its transactions' queries, giving way as above in background work. */
export function givingWayToRequests(client: PGlite): PGlite {
  const query = yieldingQuery(client.query.bind(client));
  const transaction = client.transaction.bind(client);
  return new Proxy(client, {
    // Read from the client itself, not through the proxy: its getters use private fields.
    get(target, property) {
      if (property === 'query') return query;
      if (property === 'transaction') {
        return <T>(callback: (tx: Transaction) => Promise<T>) =>
          transaction((tx) => {
            const txQuery = yieldingQuery(tx.query.bind(tx));
            return callback(new Proxy(tx, { get: (t, p) => (p === 'query' ? txQuery : Reflect.get(t, p)) }));
          });
      }
      const value: unknown = Reflect.get(target, property);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
