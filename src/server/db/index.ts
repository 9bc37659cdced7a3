/**
 * The process-wide database handle. The server opens it once at start-up (see server.mjs warm-up and
 * middleware `ready()`), never lazily on a visitor's request; tests install their own handle.
 */
import { config, type AppConfig } from '../config';
import { secureDataDir } from '../data-dir';
import { logger } from '../logger';
import { openDatabase, targetFromConfig, type Database, type DatabaseHandle } from './client';

/**
 * server.mjs closes the database through this process-wide symbol when it cannot listen after the warm-up;
 * the name is repeated there, keep both in step.
 */
export const CLOSE_DATABASE_SYMBOL = Symbol.for('agency.closeDatabase');

const state = globalThis as unknown as {
  __appDb?: Promise<DatabaseHandle>;
  __appDbHandle?: DatabaseHandle;
  __beforeDbClose?: Set<() => Promise<void>>;
};

// On globalThis like the handle: whichever bundle chunk registers a task, the signal handler sees it.
const beforeCloseTasks = (state.__beforeDbClose ??= new Set());

/**
 * Work that must reach the database before the server closes it on SIGTERM/SIGINT (the analytics counts
 * buffered in memory). A failing task is logged; the database closes all the same.
 */
export function beforeDatabaseClose(task: () => Promise<void>) {
  beforeCloseTasks.add(task);
}

/**
 * The last step of the server's shutdown (src/server/shutdown.ts, after the HTTP server has drained): the
 * tasks registered above, then the database itself. Never rejects: a failure is logged.
 */
export async function closeDatabase(handle: DatabaseHandle): Promise<void> {
  const results = await Promise.allSettled([...beforeCloseTasks].map((task) => task()));
  for (const r of results) if (r.status === 'rejected') logger.error({ err: r.reason }, 'error before closing the database');
  await handle.close().catch((err: unknown) => logger.error({ err }, 'error while closing the database'));
}

/**
 * Every process that uses DATA_DIR — the server (ready() below), migrate and the CLI scripts — opens its
 * database here, so the data folder is made owner-only before anything in it is opened or written.
 */
export async function openConfiguredDatabase(cfg: AppConfig): Promise<DatabaseHandle> {
  secureDataDir(cfg.dataDir);
  return openDatabase(targetFromConfig(cfg));
}

/** Opens (once) and migrates the configured database. Rejects — and the server must stop — on failure. */
export function ready(): Promise<DatabaseHandle> {
  state.__appDb ??= (async () => {
    const handle = await openConfiguredDatabase(config());
    await handle.migrate();
    Reflect.set(globalThis, CLOSE_DATABASE_SYMBOL, () => handle.close());
    state.__appDbHandle = handle;
    return handle;
  })();
  return state.__appDb;
}

export function db(): Database {
  const handle = state.__appDbHandle;
  if (!handle) throw new Error('Database used before ready() completed');
  return handle.db;
}

export function dbHandle(): DatabaseHandle | undefined {
  return state.__appDbHandle;
}

/** Tests: use this handle instead of the configured database. */
export function useDatabaseHandle(handle: DatabaseHandle) {
  state.__appDbHandle = handle;
  state.__appDb = Promise.resolve(handle);
}
