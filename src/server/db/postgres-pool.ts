/**
 * The site's PostgreSQL pool, and what it knows about the server's health (docs/decisions/025 and 035).
 *
 * Two waits are told apart. A new connection gets CONNECT_TIMEOUT_MS: a server that is down or unreachable
 * must cost a request seconds, not minutes. A request waiting for a free connection of a full pool gets
 * QUEUE_WAIT_MS: under a burst the server is up and every connection busy, and the visitor should get a
 * slower answer, not an error.
 */
import pg from 'pg';
import { logger } from '../logger';

export const CONNECT_TIMEOUT_MS = 5_000;
export const QUEUE_WAIT_MS = 20_000;
export const POOL_SIZE = 10;

/** How long after a lost or refused connection a failed request is put down to the outage. */
const RECENT_LOSS_MS = 3_000;

/** How the site's connections name themselves to PostgreSQL (pg_stat_activity): `db:restore` looks for them. */
export const APPLICATION_NAME = 'agency-site';

export interface SitePool {
  pool: pg.Pool;
  /** `select 1` on the server; on a connection of its own while requests queue for the pool's. */
  ping(): Promise<void>;
  /** Whether a connection was lost, refused or timed out in the last few seconds. */
  lostConnectionRecently(): boolean;
}

export function openPostgresPool(url: string): SitePool {
  let lostAt = 0;
  const noteLoss = () => (lostAt = Date.now());
  class SiteClient extends pg.Client {
    constructor(config?: pg.ClientConfig) {
      // The pool passes its own options, whose timeout is the queue's: a new connection gets the short one.
      super({ ...config, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
    }
  }
  const pool = new pg.Pool({
    connectionString: url,
    Client: SiteClient,
    max: POOL_SIZE,
    connectionTimeoutMillis: QUEUE_WAIT_MS,
    application_name: APPLICATION_NAME,
    // A connection whose server vanished without a word (host down, network cut) is noticed by TCP
    // keep-alive probes, from 30 s of silence on (the system's default waits two hours), and replaced.
    keepAlive: true,
    keepAliveInitialDelayMillis: 30_000,
  });
  // PostgreSQL can cut any connection (restart, failover, an admin's command). pg reports it as an 'error'
  // event, which, unheard, crashes the process: on the client itself (the pool listens there only while
  // the connection is idle in it, not while a transaction holds it between two statements) and, for an
  // idle one, again on the pool. Logged once, here; the pool discards the connection and opens new ones.
  pool.on('connect', (client) =>
    client.on('error', (err) => {
      noteLoss();
      logger.warn({ err }, 'PostgreSQL closed a connection');
    }),
  );
  pool.on('error', noteLoss);
  // Every query (Drizzle's and the pool's own) takes its connection here: a refused or timed-out one is noted.
  const acquire = pool.connect.bind(pool);
  pool.connect = function connect(callback?: (err: Error | undefined, client: pg.PoolClient | undefined, done: (release?: unknown) => void) => void) {
    if (!callback) return acquire().catch((err: unknown) => (noteLoss(), Promise.reject(err)));
    acquire((err, client, done) => {
      if (err) noteLoss();
      callback(err, client, done);
    });
  } as typeof pool.connect;

  return {
    pool,
    async ping() {
      if (pool.waitingCount === 0) {
        await pool.query('select 1');
        return;
      }
      // Requests are queueing for the pool: that says the site is busy, not that the server is down.
      const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: CONNECT_TIMEOUT_MS, application_name: APPLICATION_NAME });
      client.on('error', () => {});
      try {
        await client.connect();
        await client.query('select 1');
      } finally {
        await client.end().catch(() => {});
      }
    },
    lostConnectionRecently: () => Date.now() - lostAt < RECENT_LOSS_MS,
  };
}
