/**
 * The website audits' own process (audit-process.ts): one audit at a time, at a lower CPU priority than the
 * server. Parsing a stranger's HTML is synchronous work of up to seconds for a hostile page; here it never
 * holds up the server's requests, and its memory is capped and given back when the process ends. It runs
 * with a minimal environment (none of the server's secrets), and the browser it starts for Lighthouse ends
 * with it, however it ends (decision 056).
 */
import { adoptStandIns, type StandIns } from '../../http/safe-fetch';
import { logger } from '../../logger';
import { auditSite } from './audit-site';
import type { BrowserEvent } from './browser/contained-browser';
import { runOnIdleCpuOnly } from './idle-priority';
import { CRAWL_LIMITS } from './crawl-context';
import type { CrawlOptions } from './crawl';
import { MB } from './text';

/** What the browser may use and who it runs as (AUDIT_BROWSER_MEMORY_MB, AUDIT_BROWSER_CPU_SECONDS, AUDIT_BROWSER_USER). */
export interface BrowserSettings {
  memoryMb: number;
  cpuSeconds: number;
  user: string;
}

/** What the server sends with an audit: the crawl's options, and the Chromium to run Lighthouse in, if any. */
export type AuditProcessOptions = Omit<CrawlOptions, 'signal' | 'lighthouse'> & { chromiumPath?: string | undefined; browser?: BrowserSettings | undefined };

export interface AuditJobMessage {
  url: string;
  options: AuditProcessOptions;
  standIns: StandIns;
}

/** Lighthouse and its browser driver are loaded only by a process that has a Chromium to run. */
async function crawlOptions({ chromiumPath, browser, ...options }: AuditProcessOptions): Promise<CrawlOptions> {
  if (!chromiumPath) return options;
  const { lighthouseRunner, browserWallMs } = await import('./lighthouse');
  const lighthouse = lighthouseRunner({
    chromiumPath,
    allowedPorts: options.allowedPorts ?? CRAWL_LIMITS.allowedPorts,
    userAgent: options.userAgent,
    bounds: {
      ...(browser && { memoryBytes: browser.memoryMb * MB, cpuMs: browser.cpuSeconds * 1000 }),
      wallMs: browserWallMs(options.auditTimeoutMs ?? CRAWL_LIMITS.auditTimeoutMs),
    },
    browserUser: browser?.user,
    // The server cleans up after a browser whose check process died without doing so.
    onBrowser: (event) => process.send?.({ browser: event } satisfies AuditProcessMessage),
  });
  return { ...options, lighthouse };
}

export type AuditJobReply = { ok: true; result: Awaited<ReturnType<typeof auditSite>> } | { ok: false; message: string };
/** Everything the process sends the server: an audit's reply, or news of its browser. */
export type AuditProcessMessage = AuditJobReply | { browser: BrowserEvent };

// Only CPU time nothing else wants: the server's requests come first.
runOnIdleCpuOnly();

// A browser stopped at a bound leaves Lighthouse's own waits for it (checkForQuiet …) failing with no one
// to catch them: the audit's outcome is already decided by then, so they must not end this process.
process.on('unhandledRejection', (err) => logger.debug({ err }, 'a promise of the stopped Lighthouse run failed unhandled'));

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

// The server went away (stopped, or killed), or tells this process to stop: nothing is left to answer to.
// process.exit runs the browsers' exit handler (contained-browser.ts), which kills them first.
process.once('disconnect', () => process.exit(0));
process.once('SIGTERM', () => process.exit(0));
