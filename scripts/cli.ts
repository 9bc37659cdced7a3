/**
 * Shared start-up for CLI scripts: validated config, the data folder made owner-only, the database opened
 * under the data-folder lock, and clear one-line failures (locked folder, bad config) instead of stack traces.
 */
import { fileURLToPath } from 'node:url';
import { ConfigError, config, type AppConfig } from '../src/server/config';
import { DataDirPermissionError } from '../src/server/data-dir';
import { openConfiguredDatabase, useDatabaseHandle } from '../src/server/db';
import type { DatabaseHandle } from '../src/server/db/client';
import { DataDirLockedError } from '../src/server/db/lock';
import { CACHE_TAGS, TAGS_TOPIC } from '../src/server/cache/tags';
import { announce } from '../src/server/events';

// Migrations ship with the project: scripts may be run from any working directory.
process.env.MIGRATIONS_DIR ??= fileURLToPath(new URL('../drizzle', import.meta.url));

export class UsageError extends Error {}

export async function runWithDatabase(task: (ctx: { cfg: AppConfig; handle: DatabaseHandle }) => Promise<void>) {
  let handle: DatabaseHandle | undefined;
  try {
    const cfg = config();
    handle = await openConfiguredDatabase(cfg);
    await handle.migrate();
    useDatabaseHandle(handle);
    await task({ cfg, handle });
    // Servers running on the same PostgreSQL database may cache what the script changed (an import, a
    // seed): they drop every cached page and memo (decision 022). Cheap, and scripts are rare.
    await announce(handle, TAGS_TOPIC, { tags: Object.values(CACHE_TAGS) });
    await handle.close();
  } catch (err) {
    await handle?.close().catch(() => {});
    // Failures the user can fix: the message says everything, a stack trace would only bury it.
    const expected = [ConfigError, DataDirLockedError, DataDirPermissionError, UsageError];
    if (expected.some((kind) => err instanceof kind)) {
      console.error((err as Error).message);
    } else {
      console.error(err);
    }
    process.exit(1);
  }
}
