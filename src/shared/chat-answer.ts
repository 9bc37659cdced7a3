/**
 * The chat assistant's pure rules (decision 012): what counts as a price question, how money amounts are
 * removed from any answer, which search hit is good enough to answer with, and how an answer is worded.
 * The database search (src/server/modules/chat-search) feeds these; nothing here touches the network.
 */
import type { ChatSource } from './chat';

export type SearchKind = 'faq' | 'service' | 'package' | 'article';

/** One row of the chat's full-text search, best first. */
export interface SearchHit {
  kind: SearchKind;
  refId: string;
  title: string;
  /** A path on this site: "/#faq-…", "/service/…", "/package/…", "/article/<slug>". */
  href: string;
  /** Plain text to answer with. */
  snippet: string;
  /** ts_rank of the stored vector against the question's OR-ed lexemes (length-normalised). */
  rank: number;
  /** How many of the question's distinct lexemes the document contains… */
  matched: number;
  /** …how many of those are in its title (the FAQ's question, the service's name)… */
  titleMatched: number;
  /** …out of this many. */
  total: number;
}

export interface ComposedAnswer {
  body: string;
  sources: ChatSource[];
  confident: boolean;
}

/**
 * "Confident" (decision 012): the document holds at least half of the question's meaningful lexemes (one
 * of one or two, two of three or four, …), at least one of them in its title, or else every one of two or
 * more; and it ranks above a floor that filters words buried deep in a long article. A lone word of the
 * question found only in a body ("where are you based?" in "appointment-based") is not an answer.
 */
export const SEARCH_CONFIDENCE = { minCoverage: 0.5, minRank: 0.01 } as const;

export const MAX_SOURCES = 3;
const FAQ_ANSWER_CHARS = 900;
const SNIPPET_CHARS = 220;

export function isConfidentHit(hit: SearchHit): boolean {
  if (hit.total === 0 || hit.matched === 0 || hit.rank < SEARCH_CONFIDENCE.minRank) return false;
  if (hit.matched / hit.total < SEARCH_CONFIDENCE.minCoverage) return false;
  return hit.titleMatched > 0 || (hit.matched === hit.total && hit.total >= 2);
}

// ---------------------------------------------------------------------------------------------------------
// Prices: the assistant never states one, to anyone.

/** "How much", "price", "cost", "pricing", "fees", "quote"… but not "how much time". */
const PRICE_QUESTION =
  /\b(?:how\s+much(?!\s+(?:time|longer|work|effort|notice))|pric(?:e|es|ed|ing)|costs?|costing|fees?|expensive|cheap(?:er|est)?|afford(?:able)?|quote)\b/i;

export function isPriceQuestion(question: string): boolean {
  return PRICE_QUESTION.test(question);
}

export const PRICE_ANSWER: ComposedAnswer = {
  body: 'Prices are shown to members. Sign up or log in to see them, or have a look at what each package includes.',
  sources: [
    { title: 'Sign up or log in', href: '/auth' },
    { title: 'Packages', href: '/packages' },
  ],
  confident: true,
};

/** What replaces a money amount in an answer. */
export const PRICE_REDACTED = '[price shown to members]';

const CURRENCY_SYMBOL = '[$€£¥₹]';
const CURRENCY_CODE = '(?:USD|EUR|GBP|CHF|CAD|AUD|NZD|JPY|INR|SEK|NOK|DKK|PLN)';
const CURRENCY_WORD = '(?:dollars?|euros?|pounds?|bucks|francs?)';
const AMOUNT = '\\d(?:[\\d,.\'’]*\\d)?(?:\\s?(?:k|K|m|M|bn)\\b)?';
const PERIOD = '(?:\\s?(?:/|per\\s|a\\s)\\s?(?:month|mo|year|yr|week|wk|hour|hr|day|user|seat)\\b)?';
const MONEY = new RegExp(
  [
    `(?:US|CA|AU|NZ)?${CURRENCY_SYMBOL}\\s?${AMOUNT}(?:\\s?${CURRENCY_CODE}\\b)?`,
    `\\b${CURRENCY_CODE}\\s?${AMOUNT}`,
    `\\b${AMOUNT}\\s?(?:${CURRENCY_SYMBOL}|${CURRENCY_CODE}\\b|${CURRENCY_WORD}\\b)`,
  ]
    .map((p) => `(?:${p})${PERIOD}`)
    .join('|'),
  'g',
);

/** Removes every money amount ("$1,500", "1500 USD", "€99/month", "USD 20") from an answer's text. */
export function redactPrices(text: string): string {
  return text.replace(MONEY, PRICE_REDACTED);
}

// ---------------------------------------------------------------------------------------------------------
// A person asked for (src/shared/person-request.ts): the person path, never a search answer.

export interface PersonAnswerFacts {
  /** Inside business hours (always, when the owner set none): the inbox shows the conversation live. */
  online: boolean;
  /** The email the visitor already left, or ''. */
  contactEmail: string;
}

/**
 * What the assistant says when the visitor asks for a person (decision 031). The widget shows the contact
 * form after it whenever no email is known (shouldAskContact), so the words point to it; with an email
 * known they say where the answer will go.
 */
export function personAnswer({ online, contactEmail }: PersonAnswerFacts): ComposedAnswer {
  const body = online
    ? contactEmail
      ? `Of course. Someone from our team will answer here as soon as they can, or write to you at ${contactEmail}.`
      : 'Of course. Someone from our team will answer here as soon as they can. Leave your name and email below, so we can reach you if you have to go.'
    : contactEmail
      ? `Our team is away right now. A person will get back to you at ${contactEmail} during business hours.`
      : 'Our team is away right now. Leave your name and email below and a person will get back to you during business hours.';
  return { body, sources: [], confident: true };
}

// ---------------------------------------------------------------------------------------------------------
// Text.

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', '#39': "'", '#x27': "'" };

/** Tags that separate words; inline ones (<strong>, <a>) do not ("<strong>14</strong> days." stays "14 days."). */
const BLOCK_TAG = /<\/?(p|br|li|ul|ol|h[1-6]|div|blockquote|tr|td|th|table|section|pre|hr)(\s[^>]*)?\/?>/gi;

/**
 * Plain text of (sanitized) HTML: block tags become spaces, inline tags go, common entities are decoded,
 * white space collapses. search_plain_text() in drizzle/0005 does the same in the database.
 */
export function htmlToText(html: string): string {
  return html
    .replace(BLOCK_TAG, ' ')
    .replace(/<[^>]*>/g, '')
    .replace(/&(amp|lt|gt|quot|apos|nbsp|#39|#x27);/g, (_, e: string) => ENTITIES[e]!)
    .replace(/\s+/g, ' ')
    .trim();
}

/** At most `max` characters, cut at a word and ended with "…". */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max * 0.5 ? cut.slice(0, space) : cut).replace(/[\s,;:.–-]+$/, '')}…`;
}

/**
 * Words people wrap questions in ("can you tell me…", "I'd like to know…") that PostgreSQL's English stop
 * list keeps: dropped before the search so they do not dilute the share of the question a document matches.
 */
const FILLER =
  /\b(?:tell|know|want|wanted|like|would|could|please|hi|hello|hey|thanks|thank|wonder|wondering|question|ask|asking|anyone|someone|something|anything|just|really|also|get|got|give|show|explain|help|need|im|i'm|i’d|id)\b/gi;

export function searchTerms(question: string): string {
  return question.replace(FILLER, ' ').replace(/\s+/g, ' ').trim();
}

// ---------------------------------------------------------------------------------------------------------
// Answers.

export const NO_ANSWER_BODY =
  "I'm sorry, I don't have a good answer to that. If you leave your name and email, a person from our team will get back to you.";

const sourceOf = (hit: SearchHit): ChatSource => ({ title: redactPrices(hit.title), href: hit.href });

/** Up to MAX_SOURCES links of the confident hits, one per address. */
export function sourcesOf(hits: readonly SearchHit[]): ChatSource[] {
  const seen = new Set<string>();
  const out: ChatSource[] = [];
  for (const hit of hits) {
    if (!isConfidentHit(hit) || seen.has(hit.href)) continue;
    seen.add(hit.href);
    out.push(sourceOf(hit));
    if (out.length === MAX_SOURCES) break;
  }
  return out;
}

/**
 * The search-mode answer: the best FAQ's answer when an FAQ is the best confident hit, otherwise "Here is
 * what I found" with the top matches' snippets; no confident hit gives the offer to reach a person.
 */
export function composeSearchAnswer(hits: readonly SearchHit[]): ComposedAnswer {
  const good = hits.filter(isConfidentHit);
  const best = good[0];
  if (!best) return { body: NO_ANSWER_BODY, sources: [], confident: false };
  const sources = sourcesOf(good);
  if (best.kind === 'faq' && best.snippet) {
    return { body: redactPrices(clip(best.snippet, FAQ_ANSWER_CHARS)), sources, confident: true };
  }
  const lines = good
    .filter((h, i, all) => all.findIndex((o) => o.href === h.href) === i)
    .slice(0, MAX_SOURCES)
    .map((h) => (h.snippet ? `${h.title}: ${clip(h.snippet, SNIPPET_CHARS)}` : h.title));
  return { body: redactPrices(`Here is what I found:\n\n${lines.join('\n\n')}`), sources, confident: true };
}

// ---------------------------------------------------------------------------------------------------------
// Streaming (LLM mode): chunks reach the visitor as they come, so amounts are redacted before they leave.

/** A token a money amount may continue from ("1,", "$", "USD", "per", "99/"): text after it is held back. */
const MAY_CONTINUE_AMOUNT = new RegExp(`(?:\\d|${CURRENCY_SYMBOL}|^${CURRENCY_CODE}$|^(?:per|a|US|CA|AU|NZ)$|/$)`, 'i');

/**
 * Forwards a streamed answer with its money amounts removed: text is released up to the last white space
 * whose preceding word cannot be part of an amount, redacted as a whole. When a later amount rewrites text
 * already released (rare: "$99 per" + " month"), nothing more is released and `finish()`'s text, which
 * the caller sends as the final answer, is authoritative.
 */
export function priceSafeStream(emit: (text: string) => void) {
  let raw = '';
  let released = '';
  let stalled = false;
  return {
    push(chunk: string) {
      raw += chunk;
      if (stalled) return;
      let cut = raw.length;
      for (;;) {
        const space = raw.slice(0, cut).search(/\s\S*$/);
        if (space <= 0) return;
        const before = raw.slice(0, space).split(/\s+/).pop() ?? '';
        if (!MAY_CONTINUE_AMOUNT.test(before)) {
          cut = space;
          break;
        }
        cut = space;
      }
      const safe = redactPrices(raw.slice(0, cut));
      if (!safe.startsWith(released)) {
        stalled = true;
        return;
      }
      if (safe.length > released.length) {
        emit(safe.slice(released.length));
        released = safe;
      }
    },
    /** The whole answer, redacted. */
    finish(): string {
      return redactPrices(raw);
    },
  };
}
