/**
 * One streamed chat completion from an OpenAI-compatible endpoint (POST, `stream: true`). Time-outs and
 * every failure reject with LlmError; the caller falls back to the search answer.
 */
import { MalformedStreamError, streamedContent } from './sse';
import type { LlmMessage } from './prompt';

/** The LLM's time limits, in one place (tests shorten them). */
export const llmTimeouts = {
  /** From the request to the first piece of text. */
  firstTokenMs: 8_000,
  /** From the request to `[DONE]`. */
  totalMs: 30_000,
};

export type LlmFailure = 'timeout-first-token' | 'timeout-total' | 'http' | 'malformed' | 'network' | 'aborted' | 'empty';

export class LlmError extends Error {
  constructor(
    readonly reason: LlmFailure,
    readonly status?: number,
  ) {
    super(status ? `LLM request failed: ${reason} ${status}` : `LLM request failed: ${reason}`);
  }
}

export interface CompletionRequest {
  endpoint: string;
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
    const res = await fetch(req.endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream', authorization: `Bearer ${req.apiKey}` },
      body: JSON.stringify({ model: req.model, stream: true, messages: req.messages }),
      signal: controller.signal,
      redirect: 'error',
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
    throw new LlmError('network');
  } finally {
    clearTimeout(firstToken);
    clearTimeout(total);
    req.signal?.removeEventListener('abort', onCallerAbort);
    // Ends a stream we stopped reading (an error mid-stream) instead of leaving the socket open.
    controller.abort();
  }
}
