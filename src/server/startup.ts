/**
 * The server's start-up, run once before the first request is served (server.mjs warms the app up through
 * /readyz before it listens): open and migrate the database, listen to the other server processes' events,
 * then the tasks that need it (the admin claim, the mail queue's worker), and hand server.mjs its media
 * fast path. A failure rejects, and the server stops instead of serving errors.
 */
import { config } from './config';
import { ready } from './db';
import type { DatabaseHandle } from './db/client';
import { startEvents } from './events';
// The modules whose state every process keeps in step register their event handlers when loaded: loaded
// here, so an event that arrives before any request needed them still finds its handler.
import './cache/tags';
import './media/cache';
import './modules/chat/live';
import './modules/chat/sse';
import './modules/live-grants';
import { startMailWorker } from './mail/queue';
import { registerMediaFastPath } from './media/fast-path';
import { announceAdminClaim } from './modules/users/admin-claim';

const state = globalThis as unknown as { __appStarted?: Promise<DatabaseHandle> };

export function startUp(): Promise<DatabaseHandle> {
  state.__appStarted ??= (async () => {
    const handle = await ready();
    await startEvents(handle);
    await announceAdminClaim(config().SITE_URL);
    startMailWorker();
    registerMediaFastPath();
    return handle;
  })();
  return state.__appStarted;
}
