/**
 * The website audits' own process (audit-process.ts): one audit at a time, at a lower CPU priority than the
 * server. Parsing a stranger's HTML is synchronous work of up to seconds for a hostile page; here it never
 * holds up the server's requests, and its memory is capped and given back when the process ends.
 */
import { adoptStandIns, type StandIns } from '../../http/safe-fetch';
import { auditSite } from './audit-site';
import { runOnIdleCpuOnly } from './idle-priority';
import { CRAWL_LIMITS } from './crawl-context';
import type { CrawlOptions } from './crawl';

/** What the server sends with an audit: the crawl's options, and the Chromium to run Lighthouse in, if any. */
export type AuditProcessOptions = Omit<CrawlOptions, 'signal' | 'lighthouse'> & { chromiumPath?: string | undefined };

export interface AuditJobMessage {
  url: string;
  options: AuditProcessOptions;
  standIns: StandIns;
}

/** Lighthouse and its browser driver are loaded only by a process that has a Chromium to run. */
async function crawlOptions({ chromiumPath, ...options }: AuditProcessOptions): Promise<CrawlOptions> {
  if (!chromiumPath) return options;
  const { lighthouseRunner } = await import('./lighthouse');
  return { ...options, lighthouse: lighthouseRunner({ chromiumPath, allowedPorts: options.allowedPorts ?? CRAWL_LIMITS.allowedPorts, userAgent: options.userAgent }) };
}

export type AuditJobReply = { ok: true; result: Awaited<ReturnType<typeof auditSite>> } | { ok: false; message: string };

// Only CPU time nothing else wants: the server's requests come first.
runOnIdleCpuOnly();

process.on('message', async ({ url, options, standIns }: AuditJobMessage) => {
  let reply: AuditJobReply;
  try {
    adoptStandIns(standIns);
    reply = { ok: true, result: await auditSite(url, await crawlOptions(options)) };
  } catch (err) {
    reply = { ok: false, message: err instanceof Error ? err.message : String(err) };
  }
  process.send!(reply);
});

// The server went away (stopped, or killed): nothing is left to answer to.
process.once('disconnect', () => process.exit(0));
