/**
 * The widget's pure rules (unit-tested): which links it follows, how messages merge, what an error says in
 * plain words, when the length counter shows, and how an ndjson answer splits into lines. Browser-safe and
 * dependency-free: only types come from the contract, so the panel chunk does not carry zod.
 */
import type { CHAT_LIMITS, ChatErrorBody, ChatMessageDto } from '../../shared/chat';
// The site's one path rule: a few lines without dependencies.
import { isSitePath } from '../../shared/site-path';

/** The contract's message limit; the type annotation fails the type check if the contract changes it. */
export const MESSAGE_LIMIT: typeof CHAT_LIMITS.message = 1000;
/** The counter appears this many characters before the limit. */
export const COUNTER_FROM = MESSAGE_LIMIT - 200;
export const POLL_INTERVAL_MS = 3000;

export const showCounter = (length: number) => length >= COUNTER_FROM;

/** A link the widget may render: a path on this site or an https address. Anything else (javascript:, //host, /\host) is dropped. */
export function safeHref(href: string): string | undefined {
  if (isSitePath(href)) return href;
  if (/^https:\/\/[^\s/]+[^\s]*$/.test(href)) return href;
  return undefined;
}

/** Messages by seq, oldest first: a message seen twice (answer, stream, poll) is kept once, the newer copy winning. */
export function mergeMessages(current: readonly ChatMessageDto[], incoming: readonly ChatMessageDto[]): ChatMessageDto[] {
  const bySeq = new Map<number, ChatMessageDto>();
  for (const m of current) bySeq.set(m.seq, m);
  for (const m of incoming) bySeq.set(m.seq, m);
  return [...bySeq.values()].sort((a, b) => a.seq - b.seq);
}

export const lastSeq = (messages: readonly ChatMessageDto[]) => messages.reduce((max, m) => Math.max(max, m.seq), 0);

export type ChatError = ChatErrorBody['error'];

function seconds(n: number): string {
  // Seconds up to two minutes (a fixed one-minute window says exactly how long is left), minutes beyond.
  if (n < 120) return n === 1 ? '1 second' : `${n} seconds`;
  return `${Math.ceil(n / 60)} minutes`;
}

/** What the visitor reads for a failed call. `retryAfter` is the Retry-After header, when the body has none. */
export function errorText(status: number, error: ChatError | undefined, retryAfter?: number): string {
  if (status === 0) return 'We could not reach the server. Check your connection and try again.';
  if (status === 429) {
    const wait = error?.retryAfterSeconds ?? retryAfter;
    return wait && wait > 0 ? `You are sending messages too quickly. Please try again in ${seconds(Math.ceil(wait))}.` : 'You are sending messages too quickly. Please wait a moment and try again.';
  }
  if (status === 413) return 'That message is too long.';
  if (status === 404 && error?.code === 'DISABLED') return 'The chat is switched off right now. Please use the contact details on this site.';
  if (status === 403) return 'This conversation could not be opened here. Please reload the page and try again.';
  if (status === 400 && error?.message) return error.message;
  return 'Something went wrong on our side. Please try again in a moment.';
}

/** The HTTP status an error code stands for (an error line inside an ndjson answer has no status of its own). */
export function statusOf(code: ChatError['code']): number {
  return { INVALID: 400, FORBIDDEN: 403, NOT_FOUND: 404, DISABLED: 404, TOO_LARGE: 413, RATE_LIMITED: 429 }[code] ?? 500;
}

/** Splits a growing ndjson buffer into complete lines and the unfinished rest. */
export function splitLines(buffer: string): { lines: string[]; rest: string } {
  const parts = buffer.split('\n');
  const rest = parts.pop() ?? '';
  return { lines: parts.map((l) => l.trim()).filter((l) => l !== ''), rest };
}

/** The 32-hex visitor id from 16 random bytes. */
export const hexId = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');

export interface ContactFields {
  name: string;
  email: string;
  message: string;
}
export type ContactField = keyof ContactFields;

/** Quick checks before the call; the server's field errors say the same in the end. */
export function contactErrors(v: ContactFields): Partial<Record<ContactField, string>> {
  const errors: Partial<Record<ContactField, string>> = {};
  if (!v.name) errors.name = 'Enter your name.';
  if (!v.email) errors.email = 'Enter your email address.';
  else if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v.email)) errors.email = 'Enter an email address like name@example.com.';
  return errors;
}
