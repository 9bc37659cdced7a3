/**
 * Calling an admin Action from an island, the same way everywhere: the outcome as one value the editor
 * can show (saved, field errors, someone else saved, gone, not allowed, offline), connectivity kept up to
 * date, and retries for calls that are safe to repeat (seed section 9: other idempotent admin calls retry
 * for up to 2 minutes; uploads, 10). Each retry is reported, so the screen can say "Retrying…".
 */
import { isActionError, isInputError } from 'astro:actions';
import { fieldErrorsByPath } from '../../shared/schemas/catalog';
import { markOffline, markOnline } from '../../stores/connectivity';

export const IDEMPOTENT_RETRY_MS = 2 * 60 * 1000;
export const UPLOAD_RETRY_MS = 10 * 60 * 1000;

export type CallOutcome<T> =
  | { ok: true; data: T }
  | { ok: false; kind: 'invalid'; message: string; fieldErrors: Record<string, string> }
  | { ok: false; kind: 'conflict' | 'not-found' | 'forbidden' | 'error' | 'offline'; message: string };

export const OFFLINE_MESSAGE = 'Not saved: the server cannot be reached. Your changes are kept in this browser and are sent when the connection is back.';
const FAILED_MESSAGE = 'Something went wrong on the server. Please try again.';

interface CallOptions {
  /** Keep retrying network failures and server errors for this long (0: no retry). */
  retryForMs?: number;
  /** Before each retry: why (no answer at all, or a server error) and when. */
  onRetry?(attempt: number, nextInMs: number, reason: 'offline' | 'server'): void;
  /** Leading path segments of field errors to drop (an update's fields come as fields.name). */
  fieldPrefix?: string;
}

export type ActionResult<T> = { data?: T; error?: unknown };

/** Waits `ms`, or less when the browser says the network is back. */
function pause(ms: number): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      window.removeEventListener('online', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    window.addEventListener('online', done);
  });
}

/** The wait before retry number `attempt` (1, 2, 4, 8 s…, at most 15 s): every retrying admin call uses it. */
export const retryDelayMs = (attempt: number) => Math.min(15_000, 1000 * 2 ** (attempt - 1));

function outcomeOfError<T>(error: unknown, fieldPrefix: string | undefined): CallOutcome<T> | 'retry' {
  if (isInputError(error)) {
    const all = fieldErrorsByPath(error.issues);
    const fieldErrors: Record<string, string> = {};
    for (const [path, message] of Object.entries(all)) {
      fieldErrors[fieldPrefix && path.startsWith(`${fieldPrefix}.`) ? path.slice(fieldPrefix.length + 1) : path] = message;
    }
    return { ok: false, kind: 'invalid', message: 'Please correct the highlighted fields.', fieldErrors };
  }
  if (isActionError(error)) {
    const { code, message, status } = error;
    if (status >= 500) return 'retry';
    if (code === 'CONFLICT') return { ok: false, kind: 'conflict', message };
    if (code === 'NOT_FOUND') return { ok: false, kind: 'not-found', message };
    if (code === 'UNAUTHORIZED' || code === 'FORBIDDEN') {
      return { ok: false, kind: 'forbidden', message: `${message || 'Not allowed.'} Your session may have ended: log in again in another tab, then save.` };
    }
    return { ok: false, kind: 'error', message: message || FAILED_MESSAGE };
  }
  return 'retry';
}

export async function callAction<T>(run: () => Promise<ActionResult<unknown>>, options: CallOptions = {}): Promise<CallOutcome<T>> {
  const deadline = Date.now() + (options.retryForMs ?? 0);
  for (let attempt = 1; ; attempt++) {
    let result: ActionResult<unknown> | undefined;
    try {
      result = await run();
      markOnline();
    } catch {
      markOffline(); // fetch itself failed: no answer from the server
    }
    if (result && !result.error) return { ok: true, data: result.data as T };
    const outcome = result ? outcomeOfError<T>(result.error, options.fieldPrefix) : 'retry';
    if (outcome !== 'retry') return outcome;
    const wait = retryDelayMs(attempt);
    if (Date.now() + wait > deadline) {
      return result ? { ok: false, kind: 'error', message: FAILED_MESSAGE } : { ok: false, kind: 'offline', message: OFFLINE_MESSAGE };
    }
    options.onRetry?.(attempt, wait, result ? 'server' : 'offline');
    await pause(wait);
  }
}
