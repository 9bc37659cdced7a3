/**
 * The server's start-up, run once before the first request is served (server.mjs warms the app up through
 * /readyz before it listens): open and migrate the database, then the tasks that need it (the admin claim,
 * the mail queue's worker, the CDN purge worker), and hand server.mjs its media fast path. A failure rejects, and the server
 * stops instead of serving errors.
 */
import { startCdnPurgeWorker } from './cdn/purge-queue';
import { config } from './config';
import { ready } from './db';
import type { DatabaseHandle } from './db/client';
import { startMailWorker } from './mail/queue';
import { registerMediaFastPath } from './media/fast-path';
import { announceAdminClaim } from './modules/users/admin-claim';

const state = globalThis as unknown as { __appStarted?: Promise<DatabaseHandle> };

export function startUp(): Promise<DatabaseHandle> {
  state.__appStarted ??= (async () => {
    const handle = await ready();
    await announceAdminClaim(config().SITE_URL);
    startMailWorker();
    startCdnPurgeWorker();
    registerMediaFastPath();
    return handle;
  })();
  return state.__appStarted;
}
