/**
 * The crawl's shared limits in time and in connections: a few requests at once, and one deadline for the
 * whole audit (or the caller's cancel) that stops the requests under way and lets no new one start, so
 * what is done can still be returned.
 */
import type { FetchFailure } from './snapshot';

export interface CrawlBudget {
  /** Aborts every request under way once the audit has to stop. */
  readonly signal: AbortSignal;
  /** Why the audit stopped early ("the audit's time limit of 45 seconds ran out"), undefined while it runs. */
  stopReason(): string | undefined;
  /** The failure of a request the stop cut short. */
  stopFailure(): FetchFailure | undefined;
  /** Runs `task` once a connection is free; undefined when the audit stopped before it could start. */
  run<T>(task: () => Promise<T>): Promise<T | undefined>;
  /** Clears the deadline's timer (the crawl is over). */
  dispose(): void;
}

export function createCrawlBudget({ concurrency, timeoutMs, signal }: { concurrency: number; timeoutMs: number; signal?: AbortSignal | undefined }): CrawlBudget {
  const controller = new AbortController();
  let active = 0;
  const waiting: (() => void)[] = [];
  let stop: { code: 'timeout' | 'aborted'; reason: string } | undefined;
  const stopWith = (code: 'timeout' | 'aborted', reason: string) => {
    if (stop) return;
    stop = { code, reason };
    controller.abort();
    for (const wake of waiting.splice(0)) wake();
  };
  const seconds = Math.round(timeoutMs / 100) / 10;
  const timer = setTimeout(() => stopWith('timeout', `the audit's time limit of ${seconds} seconds ran out`), timeoutMs);
  const onCancel = () => stopWith('aborted', 'the audit was cancelled');
  if (signal?.aborted) onCancel();
  signal?.addEventListener('abort', onCancel, { once: true });

  return {
    signal: controller.signal,
    stopReason: () => stop?.reason,
    stopFailure: () => stop && { code: stop.code, message: `${stop.reason[0]!.toUpperCase()}${stop.reason.slice(1)} before this answered` },
    async run(task) {
      while (!stop && active >= concurrency) await new Promise<void>((wake) => waiting.push(wake));
      if (stop) return undefined;
      active++;
      try {
        return await task();
      } finally {
        active--;
        waiting.shift()?.();
      }
    },
    dispose() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onCancel);
    },
  };
}
