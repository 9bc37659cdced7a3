/**
 * Runs website audits in processes of their own (worker.ts), at a lower CPU priority than the server: the
 * crawl and the checks never take the server's event loop, and when the machine is busy the kernel gives
 * the server's requests first call on the CPU. A process takes one audit at a time and is kept for the
 * next (forking the server costs its event loop ~30 ms, measured: a stall every visitor would feel), until
 * it has been idle for a minute, fails, or runs past the time limit (then it is killed). Its heap is
 * capped. Whatever goes wrong becomes an Error with a message of ours (the job then tries again, then
 * marks the run failed).
 *
 * The process gets a minimal environment, never the server's secrets (browser/environment.ts). It tells
 * the server of each browser it starts (decision 056): when the process dies without ending its browser
 * (killed, out of memory, past the time limit), the server kills the browser's every process and removes
 * its profile; and when the server itself exits (the SIGTERM drain ends in process.exit), it kills its
 * check processes and their browsers on the way out.
 */
import { fork, type ChildProcess } from 'node:child_process';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { currentStandIns } from '../../http/safe-fetch';
import { logger } from '../../logger';
import type { SiteAuditResult } from './audit-site';
import { cleanUpAfter, endFromOutside, type LiveBrowser } from './browser/cleanup';
import { checkProcessEnv } from './browser/environment';
import { removeLeftovers } from './browser/profiles';
// The limits alone, not the crawler: the server's own process never loads cheerio and the rest of it.
import { CRAWL_LIMITS } from './crawl-context';
import type { AuditJobMessage, AuditProcessMessage, AuditProcessOptions } from './worker';

/** worker.ts as it is (tsx, Vitest), or its chunk in the server build (src/build/node-worker-entries.ts). */
const workerUrl = /* node-worker */ new URL('./worker.ts', import.meta.url);

/** An audit process's heap: pages are read up to 2 MB each and parsed one at a time; far more than needed. */
export const AUDIT_HEAP_MB = 256;
/** With Lighthouse, which reads the browser's trace of the page load into memory (the browser's own is apart). */
export const LIGHTHOUSE_AUDIT_HEAP_MB = 768;
/** 0 is the server's; 19 the lowest. 10: the server gets about nine tenths of a busy CPU. */
const AUDIT_NICENESS = 10;
/** The crawl's own limit plus time for the process to start and the checks to run. */
const GRACE_MS = 15_000;
/** An idle process is ended after this, giving its memory back. */
const IDLE_MS = 60_000;

const idle: { child: ChildProcess; timer: NodeJS.Timeout }[] = [];
/** Every check process alive, with the browsers it has running. */
const running = new Map<ChildProcess, Map<number, LiveBrowser>>();

/** Kills every check process and every browser of theirs, now (the server is exiting). */
export function endAuditProcesses(): void {
  for (const [child, browsers] of running) {
    child.kill('SIGKILL');
    for (const browser of browsers.values()) endFromOutside(browser);
  }
  running.clear();
}

/**
 * At start-up: ends the browsers of check processes that are gone and removes their profiles and cgroups
 * (an older version's, or those of a machine that lost every process at once). Logged when there were any.
 */
export function removeLeftoverBrowsers(): void {
  try {
    const found = removeLeftovers();
    if (found.browsers + found.profiles + found.cgroups > 0) logger.warn(found, 'website check browsers of an earlier run were left over: removed');
  } catch (err) {
    logger.error({ err }, 'the website check browsers of an earlier run could not be looked for');
  }
}

let exitHooked = false;

function track(child: ChildProcess): void {
  if (!exitHooked) {
    exitHooked = true;
    process.on('exit', endAuditProcesses);
  }
  const browsers = new Map<number, LiveBrowser>();
  running.set(child, browsers);
  child.on('message', (message: AuditProcessMessage) => {
    if (!('browser' in message)) return;
    if ('started' in message.browser) browsers.set(message.browser.started.pid, message.browser.started);
    else browsers.delete(message.browser.ended);
  });
  child.once('exit', () => {
    running.delete(child);
    for (const browser of browsers.values()) {
      logger.warn({ pid: browser.pid }, 'a website check process ended before its browser: the browser is ended now');
      void cleanUpAfter(browser);
    }
  });
}

function start(heapMb: number): ChildProcess {
  // Run as it is (tsx, Vitest), the worker is TypeScript: tsx's loader runs it.
  const loader = workerUrl.pathname.endsWith('.ts') ? ['--import', 'tsx'] : [];
  const child = fork(fileURLToPath(workerUrl), [], {
    execArgv: [...loader, `--max-old-space-size=${heapMb}`],
    env: checkProcessEnv(process.env),
    serialization: 'advanced',
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  track(child);
  try {
    if (child.pid) os.setPriority(child.pid, AUDIT_NICENESS);
  } catch (err) {
    logger.warn({ err }, 'the website check runs at the server’s own CPU priority (lowering it failed)');
  }
  // An idle process must not keep the server alive at shutdown.
  child.unref();
  child.channel?.unref();
  return child;
}

function take(heapMb: number): ChildProcess {
  while (idle.length > 0) {
    const { child, timer } = idle.pop()!;
    clearTimeout(timer);
    if (child.exitCode === null && child.connected) return child;
  }
  return start(heapMb);
}

function putBack(child: ChildProcess): void {
  if (child.exitCode !== null || !child.connected) return;
  child.channel?.unref();
  const timer = setTimeout(() => {
    const i = idle.findIndex((entry) => entry.child === child);
    if (i >= 0) idle.splice(i, 1);
    child.kill();
  }, IDLE_MS);
  timer.unref();
  idle.push({ child, timer });
}

export function auditSiteInOwnProcess(url: string, options: AuditProcessOptions): Promise<SiteAuditResult> {
  const child = take(options.chromiumPath ? LIGHTHOUSE_AUDIT_HEAP_MB : AUDIT_HEAP_MB);
  child.channel?.ref();
  const limitMs = (options.auditTimeoutMs ?? CRAWL_LIMITS.auditTimeoutMs) + GRACE_MS;
  return new Promise<SiteAuditResult>((resolve, reject) => {
    let settled = false;
    const onMessage = (reply: AuditProcessMessage) => {
      if ('ok' in reply) settle(true, () => (reply.ok ? resolve(reply.result) : reject(new Error(reply.message))));
    };
    const onError = (err: Error) => settle(false, () => reject(new Error(`the check could not be started: ${err.message}`)));
    const onExit = (code: number | null, signal: NodeJS.Signals | null) =>
      settle(false, () => reject(new Error(code === 134 || signal === 'SIGABRT' ? 'the website check ran out of memory (the site is too large to judge)' : `the check stopped unexpectedly (${signal ?? `exit code ${code}`})`)));
    const settle = (reusable: boolean, outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      child.off('message', onMessage).off('error', onError).off('exit', onExit);
      if (reusable) putBack(child);
      else if (child.exitCode === null) child.kill('SIGKILL');
      outcome();
    };
    const timer = setTimeout(() => settle(false, () => reject(new Error(`the check did not finish within ${Math.round(limitMs / 1000)} seconds`))), limitMs);
    child.on('message', onMessage).on('error', onError).on('exit', onExit);
    const message: AuditJobMessage = { url, options, standIns: currentStandIns() };
    child.send(message);
  });
}
