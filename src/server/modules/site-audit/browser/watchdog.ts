/**
 * Starts the browser's watchdog thread (watchdog-thread.ts) and reads its verdict: which bound, if any,
 * ended the browser, and the most memory its processes held together (for the log and the tests).
 */
import { Worker } from 'node:worker_threads';
import { BROWSER_STOPS, type BrowserBounds, type BrowserStop } from './bounds';

/** watchdog-thread.ts as it is (tsx, Vitest), or its chunk in the server build (src/build/node-worker-entries.ts). */
const threadUrl = /* node-worker */ new URL('./watchdog-thread.ts', import.meta.url);

/** How often the thread looks: at the 470 MB a second the review's page allocated, about 50 MB between looks. */
const POLL_MS = 100;

/** The shared Int32Array's slots: the bound that stopped the browser (1-based index in BROWSER_STOPS), peak KB, processor ms. */
export const VERDICT_SLOTS = { stop: 0, peakKb: 1, cpuMs: 2 } as const;

export interface WatchdogData {
  pgid: number;
  bounds: BrowserBounds;
  /** Date.now() when the browser was started. */
  startedAt: number;
  pollMs: number;
  verdict: SharedArrayBuffer;
  cgroupDir: string | undefined;
}

export interface Watchdog {
  /** The bound the browser was stopped at, once it was. */
  stop(): BrowserStop | undefined;
  /** The most memory the browser's processes held together, in bytes. */
  peakMemoryBytes(): number;
  cpuMs(): number;
  /** Ends the thread (the browser is gone). */
  end(): Promise<void>;
}

export function watchBrowser(pgid: number, bounds: BrowserBounds, cgroupDir?: string): Watchdog {
  const verdict = new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT * 3);
  const slots = new Int32Array(verdict);
  const data: WatchdogData = { pgid, bounds, startedAt: Date.now(), pollMs: POLL_MS, verdict, cgroupDir };
  // Run as TypeScript (tsx, Vitest), the thread needs tsx's loader; the build's chunk is JavaScript.
  const thread = new Worker(threadUrl, {
    workerData: data,
    execArgv: threadUrl.pathname.endsWith('.ts') ? ['--import', 'tsx'] : [],
    resourceLimits: { maxOldGenerationSizeMb: 32 },
  });
  // The browser must never keep its check process alive, nor must its watchdog.
  thread.unref();
  return {
    stop: () => BROWSER_STOPS[Atomics.load(slots, VERDICT_SLOTS.stop) - 1],
    peakMemoryBytes: () => Atomics.load(slots, VERDICT_SLOTS.peakKb) * 1024,
    cpuMs: () => Atomics.load(slots, VERDICT_SLOTS.cpuMs),
    end: () => thread.terminate().then(() => undefined),
  };
}
