/**
 * Runs one website audit in a worker thread of its own (worker.ts): the crawl and the checks never take
 * the server's event loop, the thread's heap is capped, and past the time limit it is stopped. Whatever
 * goes wrong becomes an Error with a message of ours (the job then tries again, then marks the run failed).
 */
import { Worker } from 'node:worker_threads';
import { currentStandIns } from '../../http/safe-fetch';
import type { SiteAuditResult } from './audit-site';
import { CRAWL_LIMITS, type CrawlOptions } from './crawl';
import type { AuditJobMessage } from './worker';

/** worker.ts as it is (tsx, Vitest), or its chunk in the server build (src/build/node-worker-entries.ts). */
const workerUrl = /* node-worker */ new URL('./worker.ts', import.meta.url);

/** The thread's heap: pages are read up to 2 MB each and parsed one at a time; far more than an audit needs. */
export const AUDIT_WORKER_HEAP_MB = 256;
/** The crawl's own limit plus time for the checks. */
const GRACE_MS = 15_000;

export function auditSiteInWorker(url: string, options: Omit<CrawlOptions, 'signal' | 'lighthouse'>): Promise<SiteAuditResult> {
  // In dev and under Vitest the worker is the TypeScript file itself: tsx's loader runs it.
  const execArgv = workerUrl.pathname.endsWith('.ts') ? ['--import', 'tsx'] : [];
  const worker = new Worker(workerUrl, { execArgv, resourceLimits: { maxOldGenerationSizeMb: AUDIT_WORKER_HEAP_MB } });
  const limitMs = (options.auditTimeoutMs ?? CRAWL_LIMITS.auditTimeoutMs) + GRACE_MS;
  return new Promise<SiteAuditResult>((resolve, reject) => {
    let settled = false;
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void worker.terminate();
      outcome();
    };
    const timer = setTimeout(() => settle(() => reject(new Error(`the check did not finish within ${Math.round(limitMs / 1000)} seconds`))), limitMs);
    worker.once('message', (reply: { ok: true; result: SiteAuditResult } | { ok: false; message: string }) =>
      settle(() => (reply.ok ? resolve(reply.result) : reject(new Error(reply.message)))),
    );
    worker.once('error', (err: Error & { code?: string }) =>
      settle(() => reject(new Error(err.code === 'ERR_WORKER_OUT_OF_MEMORY' ? 'the website check ran out of memory (the site is too large to judge)' : err.message))),
    );
    worker.once('exit', (code) => settle(() => reject(new Error(`the check stopped unexpectedly (exit code ${code})`))));
    const message: AuditJobMessage = { url, options, standIns: currentStandIns() };
    worker.postMessage(message);
  });
}
