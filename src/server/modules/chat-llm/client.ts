/**
 * One streamed chat completion from an OpenAI-compatible endpoint (POST, `stream: true`), through the safe
 * fetch: https only, on the one origin the key may go to (LLM_API_ORIGIN), public addresses only, no
 * redirect followed (decision 018). Time-outs and every failure reject with LlmError; the caller falls back
 * to the search answer.
 */
import { SafeFetchError, safeFetch, type SafeFetchFailure } from '../../http/safe-fetch';
import { MalformedStreamError, streamedContent } from './sse';
import type { LlmMessage } from './prompt';

/** The LLM's time limits, in one place (tests shorten them). */
export const llmTimeouts = {
  /** From the request to the first piece of text. */
  firstTokenMs: 8_000,
  /** From the request to `[DONE]`. */
  totalMs: 30_000,
};

/** A streamed answer is a few kilobytes; this much is a misbehaving endpoint. */
export const LLM_MAX_RESPONSE_BYTES = 1024 * 1024;

/** `refused`: the outbound rules stopped the request before the key left (see `detail`). */
export type LlmFailure = 'timeout-first-token' | 'timeout-total' | 'http' | 'malformed' | 'network' | 'aborted' | 'empty' | 'refused' | 'too-large';

export class LlmError extends Error {
  constructor(
    readonly reason: LlmFailure,
    readonly status?: number,
    /** The safe fetch's code (origin-not-allowed, address-not-allowed, tls-failed…), for the log. */
    readonly detail?: SafeFetchFailure,
  ) {
    super(status ? `LLM request failed: ${reason} ${status}` : `LLM request failed: ${reason}`);
  }
}

const REFUSALS: ReadonlySet<SafeFetchFailure> = new Set(['invalid-url', 'scheme-not-allowed', 'origin-not-allowed', 'address-not-allowed', 'too-many-redirects']);

function llmErrorOf(err: SafeFetchError): LlmError {
  if (REFUSALS.has(err.code)) return new LlmError('refused', undefined, err.code);
  if (err.code === 'response-too-large') return new LlmError('too-large', undefined, err.code);
  if (err.code === 'timeout') return new LlmError('timeout-total', undefined, err.code);
  return new LlmError('network', undefined, err.code);
}

export interface CompletionRequest {
  endpoint: string;
  /** The only origin the key may be sent to (LLM_API_ORIGIN); the endpoint must be on it. */
  allowedOrigin: string;
  model: string;
  apiKey: string;
  messages: LlmMessage[];
  onDelta: (text: string) => void;
  signal?: AbortSignal | undefined;
}

/** Resolves with the whole streamed text. */
export async function streamCompletion(req: CompletionRequest): Promise<string> {
  const controller = new AbortController();
  let reason: LlmFailure | undefined;
  const stop = (why: LlmFailure) => {
    reason ??= why;
    controller.abort();
  };
  const firstToken = setTimeout(() => stop('timeout-first-token'), llmTimeouts.firstTokenMs);
  const total = setTimeout(() => stop('timeout-total'), llmTimeouts.totalMs);
  const onCallerAbort = () => stop('aborted');
  if (req.signal?.aborted) onCallerAbort();
  req.signal?.addEventListener('abort', onCallerAbort, { once: true });
  try {
    const res = await safeFetch(req.endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream', authorization: `Bearer ${req.apiKey}` },
      body: JSON.stringify({ model: req.model, stream: true, messages: req.messages }),
      signal: controller.signal,
      allowedOrigins: [req.allowedOrigin],
      protocols: ['https:'],
      // An API does not redirect; following one would only be a way to move the key elsewhere.
      maxRedirects: 0,
      maxResponseBytes: LLM_MAX_RESPONSE_BYTES,
      timeoutMs: llmTimeouts.totalMs,
    });
    if (!res.ok || !res.body) {
      await res.body?.cancel().catch(() => undefined);
      throw new LlmError('http', res.status);
    }
    let text = '';
    for await (const piece of streamedContent(res.body as unknown as AsyncIterable<Uint8Array>)) {
      clearTimeout(firstToken);
      text += piece;
      req.onDelta(piece);
    }
    if (text.trim() === '') throw new LlmError('empty');
    return text;
  } catch (err) {
    if (err instanceof LlmError) throw err;
    if (reason) throw new LlmError(reason);
    if (err instanceof MalformedStreamError) throw new LlmError('malformed');
    if (err instanceof SafeFetchError) throw llmErrorOf(err);
    throw new LlmError('network');
  } finally {
    clearTimeout(firstToken);
    clearTimeout(total);
    req.signal?.removeEventListener('abort', onCallerAbort);
    // Ends a stream we stopped reading (an error mid-stream) instead of leaving the socket open.
    controller.abort();
  }
}
