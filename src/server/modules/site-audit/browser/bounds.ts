/**
 * What the check's browser may use (decision 056): memory held by its whole process tree, processor time
 * used by it, and time since it started. Past one of them the tree is killed, Lighthouse is given up and
 * the check says which bound the page hit; the crawl's checks keep their results.
 */
import { MB } from '../text';

export interface BrowserBounds {
  /** Memory the browser's processes hold of their own, together (AUDIT_BROWSER_MEMORY_MB). */
  memoryBytes: number;
  /** Processor time of all its processes, together (AUDIT_BROWSER_CPU_SECONDS). */
  cpuMs: number;
  /** From its start: the audit's own time limit plus a margin, kept even when the audit's process is busy. */
  wallMs: number;
}

export const DEFAULT_BROWSER_MEMORY_MB = 1024;
export const DEFAULT_BROWSER_CPU_SECONDS = 45;

export type BrowserStop = 'memory' | 'cpu' | 'time';
export const BROWSER_STOPS: readonly BrowserStop[] = ['memory', 'cpu', 'time'];

/** The reader's words: the site's owner and the requester see it under the Lighthouse checks. */
export function browserStopMessage(stop: BrowserStop, bounds: BrowserBounds): string {
  const seconds = (ms: number) => `${Math.round(ms / 1000)} seconds`;
  const what = {
    memory: `too much memory (more than ${Math.round(bounds.memoryBytes / MB)} MB)`,
    cpu: `too much processor time (more than ${seconds(bounds.cpuMs)})`,
    time: `too much time (more than ${seconds(bounds.wallMs)})`,
  }[stop];
  return `Lighthouse stopped: the page used ${what}.`;
}

/** Thrown by the Lighthouse run when the browser was stopped at a bound. */
export class BrowserBoundError extends Error {
  constructor(
    readonly stop: BrowserStop,
    bounds: BrowserBounds,
  ) {
    super(browserStopMessage(stop, bounds));
    this.name = 'BrowserBoundError';
  }
}
