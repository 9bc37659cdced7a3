/**
 * The browser's watchdog, on a thread of its own in the check process (watchdog.ts starts it): Lighthouse
 * reads the page's trace and the crawl parses HTML on the process's main thread, each for up to seconds at
 * a time, and a page allocating half a gigabyte a second must not get those seconds. Every POLL_MS it sums
 * the memory the browser's processes hold and the processor time they used, and past a bound, or past
 * its time, it writes which bound into the shared verdict and only then kills the process group, so the
 * main thread, seeing the browser gone, reads why.
 */
import { workerData } from 'node:worker_threads';
import type { BrowserBounds } from './bounds';
import { openBrowserCgroup } from './cgroup';
import { groupMembers, killGroup, ownMemoryBytes } from './processes';
import { VERDICT_SLOTS, type WatchdogData } from './watchdog';

const { pgid, bounds, startedAt, pollMs, verdict: shared, cgroupDir } = workerData as WatchdogData;
const verdict = new Int32Array(shared);
const cgroup = cgroupDir ? openBrowserCgroup(cgroupDir) : undefined;
/** Processor time of every process seen, by PID and start time: a renderer that has ended still counts. */
const cpuByProcess = new Map<string, number>();

function stop(code: number): void {
  Atomics.compareExchange(verdict, VERDICT_SLOTS.stop, 0, code);
  cgroup?.kill();
  killGroup(pgid);
}

function exceeded(memory: number, cpuMs: number, b: BrowserBounds): number {
  if (memory > b.memoryBytes) return 1;
  if (cpuMs > b.cpuMs) return 2;
  if (Date.now() - startedAt > b.wallMs) return 3;
  return 0;
}

const timer = setInterval(() => {
  const members = groupMembers(pgid);
  if (members.length === 0) {
    // All gone: a kernel bound (the cgroup's memory.max) may have been what ended them.
    if (cgroup?.ranOutOfMemory()) Atomics.compareExchange(verdict, VERDICT_SLOTS.stop, 0, 1);
    clearInterval(timer);
    return;
  }
  let memory = 0;
  for (const member of members) {
    memory += ownMemoryBytes(member.pid);
    cpuByProcess.set(`${member.pid}:${member.startTicks}`, member.cpuMs);
  }
  let cpuMs = 0;
  for (const used of cpuByProcess.values()) cpuMs += used;
  const kb = Math.round(memory / 1024);
  if (kb > Atomics.load(verdict, VERDICT_SLOTS.peakKb)) Atomics.store(verdict, VERDICT_SLOTS.peakKb, kb);
  Atomics.store(verdict, VERDICT_SLOTS.cpuMs, cpuMs);
  const code = exceeded(memory, cpuMs, bounds);
  if (code) stop(code);
}, pollMs);
