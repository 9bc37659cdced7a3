/**
 * The chat assistant's answer to a visitor's question (decision 012): full-text search over the site's own
 * FAQs, services, packages and articles, worded by src/shared/chat-answer.ts, or, in LLM mode, a streamed
 * answer grounded in the same results. A visitor asking for a person gets the person path instead. Never a price: price questions get the members' answer, and every
 * answer's text loses its money amounts. The chat service (src/server/modules/chat) stores and sends it.
 */
import type { ChatAuthor, ChatSettings, ChatSource } from '../../../shared/chat';
import { composeSearchAnswer, isPriceQuestion, personAnswer, PRICE_ANSWER, redactPrices, sourcesOf } from '../../../shared/chat-answer';
import { asksForPerson } from '../../../shared/person-request';
import { searchSite } from '../chat-search/service';
import { llmAnswer } from '../chat-llm/service';

export interface AssistantReply {
  body: string;
  sources: ChatSource[];
  confident: boolean;
}

export interface AssistantContext {
  settings: ChatSettings;
  history: { author: ChatAuthor; body: string }[];
  /** The person path's words: inside business hours (default yes), and the email the visitor left (default none). */
  online?: boolean;
  contactEmail?: string;
  /** LLM mode: each streamed piece of the answer (already without amounts). */
  onDelta?: (text: string) => void;
  signal?: AbortSignal;
}

export async function assistantReply(question: string, ctx: AssistantContext): Promise<AssistantReply> {
  // A person asked for goes straight to the person path: no search, no model (decision 031).
  if (asksForPerson(question)) return personAnswer({ online: ctx.online ?? true, contactEmail: ctx.contactEmail ?? '' });
  if (isPriceQuestion(question)) return { ...PRICE_ANSWER, sources: [...PRICE_ANSWER.sources] };
  const hits = await searchSite(question);
  const fromSearch = composeSearchAnswer(hits);
  if (!ctx.settings.llm.enabled) return fromSearch;
  const text = await llmAnswer({ question, hits, settings: ctx.settings, history: ctx.history, onDelta: ctx.onDelta, signal: ctx.signal });
  if (text === null) return fromSearch;
  // The model may have answered from its own knowledge anyway: the links are the search's, confidence too.
  return { body: redactPrices(text.trim()), sources: sourcesOf(hits), confident: fromSearch.confident };
}
