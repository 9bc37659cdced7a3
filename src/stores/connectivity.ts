/**
 * Backend connectivity (seed section 4): 'unknown' until the first answer, 'offline' after a 10 s
 * time-out or a failed request, 'online' again on the next response of any status (the server answered).
 */
import { atom } from 'nanostores';

export type Connectivity = 'unknown' | 'online' | 'offline';

/** Seed section 9: "Database backend online time-out: 10 s". */
export const CONNECTIVITY_TIMEOUT_MS = 10_000;

export const $connectivity = atom<Connectivity>('unknown');

export function markOnline(): void {
  if ($connectivity.get() !== 'online') $connectivity.set('online');
}

export function markOffline(): void {
  if ($connectivity.get() !== 'offline') $connectivity.set('offline');
}

export class RequestTimeoutError extends Error {
  constructor(ms: number) {
    super(`Request timed out after ${ms} ms`);
    this.name = 'RequestTimeoutError';
  }
}

/**
 * fetch with a deadline that also feeds $connectivity. The store turns 'offline' after
 * CONNECTIVITY_TIMEOUT_MS without an answer even when the caller is willing to wait longer
 * (auth requests wait 30/60 s), so the UI can say so while the request is still pending.
 */
export async function trackedFetch(input: string, init: RequestInit = {}, timeoutMs = CONNECTIVITY_TIMEOUT_MS): Promise<Response> {
  const controller = new AbortController();
  const abort = setTimeout(() => controller.abort(new RequestTimeoutError(timeoutMs)), timeoutMs);
  const slow = setTimeout(markOffline, Math.min(timeoutMs, CONNECTIVITY_TIMEOUT_MS));
  const outer = init.signal;
  const onOuterAbort = () => controller.abort(outer?.reason);
  outer?.addEventListener('abort', onOuterAbort, { once: true });
  try {
    const response = await fetch(input, { ...init, signal: controller.signal });
    markOnline();
    return response;
  } catch (err) {
    // A caller's own abort says nothing about the network.
    if (!outer?.aborted) markOffline();
    throw controller.signal.reason instanceof RequestTimeoutError ? controller.signal.reason : err;
  } finally {
    clearTimeout(abort);
    clearTimeout(slow);
    outer?.removeEventListener('abort', onOuterAbort);
  }
}
