/**
 * Site-wide locks for work that must happen once however many processes share one PostgreSQL database
 * (migrations and first-run seeding at start, the admin claim link). They are PostgreSQL session advisory
 * locks, each held on a connection of its own outside the pool, so the work itself may use the pool and
 * a process that dies releases its locks with its connection. PGlite is single-process (the data-folder
 * lock keeps others out): there every lock is granted at once.
 */
import pg from 'pg';
import { logger } from '../logger';

/** The locks of this site: one pair of numbers each ([namespace, id] of pg_advisory_lock(int, int)). */
const NAMESPACE = 0x61677379; // 'agsy'
export const SITE_LOCKS = {
  /** Migrating the schema (every process start, every CLI script). */
  migrate: 1,
  /** First-run demo content. */
  seed: 2,
  /** Held by the process that printed the admin claim link, for as long as it runs. */
  adminClaim: 3,
  /** Around a start's look at the claim, so one starting alongside the printer reads its link's time. */
  announceClaim: 4,
} as const;
export type SiteLock = keyof typeof SITE_LOCKS;

export interface HeldLock {
  release(): Promise<void>;
}

export interface SiteLocks {
  /** Runs `task` while holding `lock`, waiting for another process that holds it. */
  runExclusive<T>(lock: SiteLock, task: () => Promise<T>): Promise<T>;
  /** Takes `lock` if no other process holds it, and keeps it until release() or the process ends. */
  tryHold(lock: SiteLock): Promise<HeldLock | undefined>;
  /** Releases every lock still held (the database is closing). */
  releaseAll(): Promise<void>;
}

/** Single-process databases: nothing to wait for. */
export const inProcessLocks: SiteLocks = {
  runExclusive: (_lock, task) => task(),
  tryHold: async () => ({ release: async () => {} }),
  releaseAll: async () => {},
};

export function postgresLocks(url: string): SiteLocks {
  const held = new Set<pg.Client>();

  async function connect(): Promise<pg.Client> {
    const client = new pg.Client({ connectionString: url });
    // A lock connection cut by the server (restart, failover) loses its lock; that must not crash the process.
    client.on('error', (err) => logger.warn({ err }, 'PostgreSQL closed a lock connection; its lock is released'));
    await client.connect();
    held.add(client);
    return client;
  }
  async function end(client: pg.Client) {
    held.delete(client);
    await client.end().catch(() => {});
  }

  return {
    async runExclusive(lock, task) {
      const client = await connect();
      try {
        await client.query('select pg_advisory_lock($1, $2)', [NAMESPACE, SITE_LOCKS[lock]]);
        return await task();
      } finally {
        // Ending the session releases the lock.
        await end(client);
      }
    },
    async tryHold(lock) {
      const client = await connect();
      try {
        const { rows } = await client.query<{ got: boolean }>('select pg_try_advisory_lock($1, $2) as got', [NAMESPACE, SITE_LOCKS[lock]]);
        if (rows[0]?.got) return { release: () => end(client) };
      } catch (err) {
        await end(client);
        throw err;
      }
      await end(client);
      return undefined;
    },
    async releaseAll() {
      await Promise.all([...held].map(end));
    },
  };
}
