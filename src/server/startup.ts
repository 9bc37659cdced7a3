/**
 * The server's start-up, run once before the first request is served (server.mjs warms the app up through
 * /readyz before it listens): open and migrate the database, listen to the other server processes' events,
 * then the tasks that need it (the admin claim, the job queue's and the CDN purge's workers), and hand
 * server.mjs its media fast path, its metrics (when METRICS_TOKEN is set) and the shutdown's drain. A
 * failure rejects, and the server stops instead of serving errors.
 */
import { startCdnPurgeWorker } from './cdn/purge-queue';
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
import './modules/today/live';
// The kinds of job the worker runs are defined when their modules load.
import './mail/queue';
import './modules/site-audit/service';
import './modules/lead-sequences/schedule';
import './modules/chat/reply-mail';
import './modules/lead-notices/service';
import { scheduleTodaysReminders } from './modules/leads/reminders';
import { startJobWorker } from './jobs/queue';
import { useFixtureHosts } from './http/safe-fetch';
import { logger } from './logger';
import { registerMediaFastPath } from './media/fast-path';
import { installMetrics } from './metrics';
import { removeLeftoverBrowsers } from './modules/site-audit/audit-process';
import { announceAdminClaim } from './modules/users/admin-claim';
import { stopOnSignals } from './shutdown';

const state = globalThis as unknown as { __appStarted?: Promise<DatabaseHandle> };

export function startUp(): Promise<DatabaseHandle> {
  state.__appStarted ??= (async () => {
    const handle = await ready();
    const cfg = config();
    stopOnSignals(handle, cfg.SHUTDOWN_TIMEOUT_MS);
    await startEvents(handle);
    await announceAdminClaim(cfg.SITE_URL);
    if (cfg.AUDIT_FIXTURE_HOSTS.length > 0) {
      useFixtureHosts(cfg.AUDIT_FIXTURE_HOSTS);
      logger.warn({ hosts: cfg.AUDIT_FIXTURE_HOSTS }, 'AUDIT_FIXTURE_HOSTS is set: website audits reach these .test names on this machine (127.0.0.1). For tests only; unset it in production.');
    }
    await scheduleTodaysReminders();
    // Before any check runs: browsers and profiles an earlier run of the server left behind.
    removeLeftoverBrowsers();
    startJobWorker();
    startCdnPurgeWorker();
    registerMediaFastPath();
    if (cfg.METRICS_TOKEN) installMetrics(cfg.METRICS_TOKEN, handle);
    return handle;
  })();
  return state.__appStarted;
}
