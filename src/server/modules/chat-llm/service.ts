/**
 * LLM mode (settings.llm): the answer streamed from an OpenAI-compatible endpoint, grounded in the search
 * results. The key comes only from LLM_API_KEY and goes only to LLM_API_ORIGIN over https (decision 018);
 * it is never logged, stored or sent to the browser, and neither is logged what the visitor typed. Any
 * failure gives `null`: the caller answers from search.
 */
import { llmEndpointProblem, type ChatAuthor, type ChatSettings } from '../../../shared/chat';
import { priceSafeStream, type SearchHit } from '../../../shared/chat-answer';
import { config } from '../../config';
import { logger } from '../../logger';
import { LlmError, streamCompletion } from './client';
import { llmMessages } from './prompt';

/** Each reason AI answers are skipped is logged once per process, not on every question. */
const warned = new Set<string>();
function warnOnce(why: string, message: string, fields?: Record<string, unknown>): void {
  if (warned.has(why)) return;
  warned.add(why);
  if (fields) logger.warn(fields, message);
  else logger.warn(message);
}

export interface LlmAnswerInput {
  question: string;
  hits: readonly SearchHit[];
  settings: ChatSettings;
  history: readonly { author: ChatAuthor; body: string }[];
  onDelta?: ((text: string) => void) | undefined;
  signal?: AbortSignal | undefined;
}

export interface LlmAccess {
  apiKey: string;
  /** LLM_API_ORIGIN: the endpoint is on it. */
  origin: string;
}

/**
 * The key and the origin it may go to when LLM mode is on and usable; undefined otherwise (without a key,
 * without LLM_API_ORIGIN, or with an endpoint off that origin: warned once per process).
 */
export function llmAccess(settings: ChatSettings, env: { LLM_API_KEY?: string | undefined; LLM_API_ORIGIN?: string | undefined }): LlmAccess | undefined {
  if (!settings.llm.enabled || !settings.llm.endpoint || !settings.llm.model) return undefined;
  if (!env.LLM_API_KEY) {
    warnOnce('no-key', 'AI answers are on in the chat settings but LLM_API_KEY is not set: answering from search');
    return undefined;
  }
  if (!env.LLM_API_ORIGIN) {
    warnOnce('no-origin', 'AI answers are on in the chat settings but LLM_API_ORIGIN is not set, so the API key goes nowhere: answering from search');
    return undefined;
  }
  if (llmEndpointProblem(settings.llm.endpoint, env.LLM_API_ORIGIN)) {
    // Saved before LLM_API_ORIGIN changed (a save checks it): the key is not sent there.
    warnOnce(`off-origin ${settings.llm.endpoint}`, 'The AI-answers endpoint is not on LLM_API_ORIGIN: the API key is not sent there; answering from search', {
      endpointHost: hostOf(settings.llm.endpoint),
      allowedOrigin: env.LLM_API_ORIGIN,
    });
    return undefined;
  }
  return { apiKey: env.LLM_API_KEY, origin: env.LLM_API_ORIGIN };
}

/** The streamed answer with money amounts removed, or null when LLM mode is off or failed. */
export async function llmAnswer(input: LlmAnswerInput): Promise<string | null> {
  const access = llmAccess(input.settings, config());
  if (!access) return null;
  const stream = priceSafeStream((text) => input.onDelta?.(text));
  const started = Date.now();
  try {
    await streamCompletion({
      endpoint: input.settings.llm.endpoint,
      allowedOrigin: access.origin,
      model: input.settings.llm.model,
      apiKey: access.apiKey,
      messages: llmMessages(input.question, input.hits, input.history, input.settings.assistantName),
      onDelta: (text) => stream.push(text),
      signal: input.signal,
    });
    return stream.finish();
  } catch (err) {
    const reason = err instanceof LlmError ? err.reason : 'unknown';
    const status = err instanceof LlmError ? err.status : undefined;
    const detail = err instanceof LlmError ? err.detail : undefined;
    if (reason === 'aborted') logger.info({ reason }, 'LLM answer stopped: the visitor left');
    else logger.warn({ reason, status, detail, endpointHost: hostOf(input.settings.llm.endpoint), ms: Date.now() - started }, 'LLM answer failed; answering from search');
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
