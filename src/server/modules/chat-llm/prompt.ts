/**
 * The messages sent to the LLM: a system prompt grounded in the search results (titles, snippets, links),
 * the recent conversation, then the question. Amounts are removed from the grounding so the model never
 * sees a price it could repeat.
 */
import { CHAT_LIMITS, type ChatAuthor } from '../../../shared/chat';
import { clip, redactPrices, type SearchHit } from '../../../shared/chat-answer';

export interface LlmMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** How much of the conversation and of the search results the model sees. */
export const LLM_CONTEXT = { historyMessages: 8, groundingHits: 5, snippetChars: 600 } as const;

export function groundingOf(hits: readonly SearchHit[]): string {
  const top = hits.slice(0, LLM_CONTEXT.groundingHits);
  if (top.length === 0) return 'No page of the site matched the question.';
  return top
    .map((h, i) => `[${i + 1}] ${redactPrices(h.title)} (${h.href})\n${redactPrices(clip(h.snippet, LLM_CONTEXT.snippetChars))}`)
    .join('\n\n');
}

export function systemPrompt(assistantName: string, hits: readonly SearchHit[]): string {
  return [
    `You are ${assistantName}, the assistant on this agency's website. Answer the visitor's question in a few short sentences of plain text (no Markdown, no HTML).`,
    'Answer only from the site content below. If it does not answer the question, say that you are not sure and offer to connect the visitor with a person from the team.',
    'Never state or estimate a price, fee or cost. If asked about prices, say that prices are shown to members who sign up or log in.',
    'You may mention the links of the content you used.',
    '',
    'Site content:',
    groundingOf(hits),
  ].join('\n');
}

export function llmMessages(
  question: string,
  hits: readonly SearchHit[],
  history: readonly { author: ChatAuthor; body: string }[],
  assistantName: string,
): LlmMessage[] {
  // The server may already have stored the question as the last visitor message.
  const last = history.at(-1);
  const earlier = last?.author === 'visitor' && last.body.trim() === question.trim() ? history.slice(0, -1) : history;
  const past = earlier
    .filter((m) => m.author !== 'system')
    .slice(-LLM_CONTEXT.historyMessages)
    .map((m): LlmMessage => ({ role: m.author === 'visitor' ? 'user' : 'assistant', content: clip(m.body, CHAT_LIMITS.message) }));
  return [{ role: 'system', content: systemPrompt(assistantName, hits) }, ...past, { role: 'user', content: clip(question, CHAT_LIMITS.message) }];
}
