/**
 * SIGTERM/SIGINT drain the server before it exits (docs/decisions/025), in this order:
 * 1. server.mjs stops taking connections (idle keep-alive ones are closed; answers say `Connection: close`);
 * 2. live chat streams end with `end` {reason: 'restart'} and a `retry:` hint, so browsers reconnect —
 *    to another instance behind the proxy, or to this one once restarted — instead of showing an error;
 * 3. requests in flight finish, up to the bound less a margin; whatever is still open then is cut;
 * 4. the buffered analytics are written and the database is closed last;
 * and the process exits 0. Past SHUTDOWN_TIMEOUT_MS it exits 1 whatever is still running. Either exit kills
 * the website checks still running and their browsers (audit-process.ts hooks the exit; decision 056);
 * their jobs are taken again after their lease.
 */
import { closeDatabase } from './db';
import type { DatabaseHandle } from './db/client';
import { logger } from './logger';
import { endOpenStreamsForRestart } from './modules/chat/open-streams';

/**
 * What server.mjs registers under this process-wide symbol (the name is repeated there, keep both in step).
 * Absent in tests and CLI scripts: then there is no HTTP server to drain.
 */
export const HTTP_DRAIN_SYMBOL = Symbol.for('agency.httpDrain');

export interface HttpDrain {
  /** Stops accepting connections and closes idle ones. */
  stopAccepting(): void;
  /** Resolves when every connection has closed (every request in flight answered). */
  idle(): Promise<void>;
  /** Cuts the connections still open. */
  cutAll(): void;
}

/** Kept for the database's close and the analytics flush once requests have drained. */
const CLOSE_MARGIN_MS = 2_000;

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

/** Drains and closes; resolves when it is safe to exit. */
export async function drainAndClose(handle: DatabaseHandle, timeoutMs: number): Promise<void> {
  const http = Reflect.get(globalThis, HTTP_DRAIN_SYMBOL) as HttpDrain | undefined;
  http?.stopAccepting();
  const streams = endOpenStreamsForRestart();
  if (streams > 0) logger.info({ streams }, 'shutting down: live streams told to reconnect');
  if (http) {
    const drained = await Promise.race([http.idle().then(() => true), delay(Math.max(1_000, timeoutMs - CLOSE_MARGIN_MS)).then(() => false)]);
    if (!drained) {
      logger.warn('shutting down: requests still running at the bound were cut');
      http.cutAll();
    }
  }
  await closeDatabase(handle);
}

let hooked = false;

/** Called once by the server's start-up. */
export function stopOnSignals(handle: DatabaseHandle, timeoutMs: number) {
  if (hooked) return;
  hooked = true;
  let stopping = false;
  const stop = (signal: string) => {
    // Ctrl-C reaches the server from the terminal and again from the launchers that forward it (npm, the
    // supervisor): a second signal must not cut the drain or the checkpoint short.
    if (stopping) return;
    stopping = true;
    logger.info({ signal, timeoutMs }, 'shutting down: draining requests, then closing the database');
    setTimeout(() => {
      logger.error({ timeoutMs }, 'shutdown took longer than SHUTDOWN_TIMEOUT_MS: exiting now');
      process.exit(1);
    }, timeoutMs).unref();
    drainAndClose(handle, timeoutMs)
      .catch((err: unknown) => logger.error({ err }, 'error while shutting down'))
      .finally(() => process.exit(0));
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}
