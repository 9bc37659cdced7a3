/**
 * The website audit's worker thread (run-in-worker.ts): one audit per thread. Parsing a stranger's HTML
 * is synchronous work of up to seconds for a hostile page; here it never holds up the server's requests,
 * and the thread's memory is capped by its parent.
 */
import { parentPort } from 'node:worker_threads';
import { adoptStandIns, type StandIns } from '../../http/safe-fetch';
import { auditSite } from './audit-site';
import type { CrawlOptions } from './crawl';

export interface AuditJobMessage {
  url: string;
  options: Omit<CrawlOptions, 'signal' | 'lighthouse'>;
  standIns: StandIns;
}

parentPort?.once('message', async ({ url, options, standIns }: AuditJobMessage) => {
  try {
    adoptStandIns(standIns);
    parentPort!.postMessage({ ok: true, result: await auditSite(url, options) });
  } catch (err) {
    parentPort!.postMessage({ ok: false, message: err instanceof Error ? err.message : String(err) });
  }
});
