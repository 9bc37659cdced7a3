/**
 * LLM mode (settings.llm): the answer streamed from an OpenAI-compatible endpoint, grounded in the search
 * results. The key comes only from LLM_API_KEY; it is never logged, stored or sent to the browser, and
 * neither is logged what the visitor typed. Any failure gives `null`: the caller answers from search.
 */
import type { ChatAuthor, ChatSettings } from '../../../shared/chat';
import { priceSafeStream, type SearchHit } from '../../../shared/chat-answer';
import { config } from '../../config';
import { logger } from '../../logger';
import { LlmError, streamCompletion } from './client';
import { llmMessages } from './prompt';

let warnedNoKey = false;

export interface LlmAnswerInput {
  question: string;
  hits: readonly SearchHit[];
  settings: ChatSettings;
  history: readonly { author: ChatAuthor; body: string }[];
  onDelta?: ((text: string) => void) | undefined;
  signal?: AbortSignal | undefined;
}

/** Whether LLM mode is on and usable; without a key it is skipped (warned once per process). */
export function llmUsable(settings: ChatSettings, apiKey: string | undefined): apiKey is string {
  if (!settings.llm.enabled || !settings.llm.endpoint || !settings.llm.model) return false;
  if (apiKey) return true;
  if (!warnedNoKey) {
    warnedNoKey = true;
    logger.warn('AI answers are on in the chat settings but LLM_API_KEY is not set: answering from search');
  }
  return false;
}

/** The streamed answer with money amounts removed, or null when LLM mode is off or failed. */
export async function llmAnswer(input: LlmAnswerInput): Promise<string | null> {
  const apiKey = config().LLM_API_KEY;
  if (!llmUsable(input.settings, apiKey)) return null;
  const stream = priceSafeStream((text) => input.onDelta?.(text));
  const started = Date.now();
  try {
    await streamCompletion({
      endpoint: input.settings.llm.endpoint,
      model: input.settings.llm.model,
      apiKey,
      messages: llmMessages(input.question, input.hits, input.history, input.settings.assistantName),
      onDelta: (text) => stream.push(text),
      signal: input.signal,
    });
    return stream.finish();
  } catch (err) {
    const reason = err instanceof LlmError ? err.reason : 'unknown';
    const status = err instanceof LlmError ? err.status : undefined;
    if (reason === 'aborted') logger.info({ reason }, 'LLM answer stopped: the visitor left');
    else logger.warn({ reason, status, endpointHost: hostOf(input.settings.llm.endpoint), ms: Date.now() - started }, 'LLM answer failed; answering from search');
    return null;
  }
}

function hostOf(endpoint: string): string {
  try {
    return new URL(endpoint).host;
  } catch {
    return '';
  }
}
