/**
 * The widget's calls to /api/chat (docs/chat-api.md). Every call carries the visitor id header; a
 * signed-in member's session cookie goes along by itself (same origin). Failures come back as plain words,
 * never as a thrown network error.
 */
import type { CHAT_VISITOR_HEADER, CHAT_VISITOR_STORAGE_KEY, ChatContactResponse, ChatErrorBody, ChatMessageDto, ChatConversationState, ChatSendResponse, ChatSessionResponse, ChatStreamLine } from '../../shared/chat';
import { readAttribution } from '../attribution/store';
import { errorText, hexId, splitLines, statusOf, type ChatError } from './rules';

const VISITOR_KEY: typeof CHAT_VISITOR_STORAGE_KEY = 'chat.visitor';
const VISITOR_HEADER: typeof CHAT_VISITOR_HEADER = 'X-Chat-Visitor';

let memoryId: string | undefined;

/** The visitor's random id: kept in local storage (no cookie); in memory for this page when storage is blocked. */
export function visitorId(): string {
  try {
    const stored = localStorage.getItem(VISITOR_KEY);
    if (stored && /^[0-9a-f]{32}$/.test(stored)) return stored;
  } catch {
    // Storage blocked: fall through to a page-lifetime id.
  }
  memoryId ??= hexId(crypto.getRandomValues(new Uint8Array(16)));
  try {
    localStorage.setItem(VISITOR_KEY, memoryId);
  } catch {
    // The conversation then lasts as long as this page.
  }
  return memoryId;
}

export type Result<T> = { ok: true; data: T } | { ok: false; status: number; message: string; fieldErrors?: Record<string, string> };

async function failure(res: Response): Promise<Result<never>> {
  let error: ChatError | undefined;
  try {
    error = ((await res.json()) as ChatErrorBody).error;
  } catch {
    error = undefined;
  }
  const retry = Number(res.headers.get('Retry-After'));
  return { ok: false, status: res.status, message: errorText(res.status, error, Number.isFinite(retry) ? retry : undefined), ...(error?.fieldErrors ? { fieldErrors: error.fieldErrors } : {}) };
}

const offline = (): Result<never> => ({ ok: false, status: 0, message: errorText(0, undefined) });

function headers(json: boolean): HeadersInit {
  return { accept: 'application/json', [VISITOR_HEADER]: visitorId(), ...(json ? { 'content-type': 'application/json' } : {}) };
}

async function call<T>(url: string, init: RequestInit = {}): Promise<Result<T>> {
  try {
    const res = await fetch(url, { credentials: 'same-origin', ...init, headers: { ...headers(init.body !== undefined), ...init.headers } });
    if (!res.ok) return await failure(res);
    return { ok: true, data: (await res.json()) as T };
  } catch {
    return offline();
  }
}

export const loadSession = () => call<ChatSessionResponse>('/api/chat/session');

/** A reply mail's link opened here: its conversation becomes this browser's. */
export const resumeConversation = (token: string) => call<{ conversation: ChatConversationState }>('/api/chat/resume', { method: 'POST', body: JSON.stringify({ token }) });

// launcher.ts's HAS_CONVERSATION_KEY: a browser that has a conversation asks, on later pages, whether the team replied.
const HAS_CONVERSATION_KEY = 'chat.conversation';

/** Notes that this browser has a conversation (the launcher then shows an unread mark for team replies). */
export function rememberConversation() {
  try {
    localStorage.setItem(HAS_CONVERSATION_KEY, '1');
  } catch {
    // Storage blocked: no unread mark on later visits.
  }
}

export const sendContact = (contact: { name: string; email: string; message?: string; followUps?: boolean }) =>
  call<ChatContactResponse>('/api/chat/contact', { method: 'POST', body: JSON.stringify(contact) });

export const poll = (conversation: ChatConversationState, after: number) =>
  call<{ messages: ChatMessageDto[]; conversation: ChatConversationState }>(
    `/api/chat/poll?c=${encodeURIComponent(conversation.id)}&t=${encodeURIComponent(conversation.streamToken)}&after=${after}`,
  );

export const streamUrl = (conversation: ChatConversationState, after: number) =>
  `/api/chat/stream?c=${encodeURIComponent(conversation.id)}&t=${encodeURIComponent(conversation.streamToken)}&after=${after}`;

/**
 * Sends a message. A JSON answer comes at once; in LLM mode the answer is ndjson (`ChatStreamLine`) and
 * `onDelta` gets the growing text until the final messages arrive.
 */
export async function sendMessage(body: string, onDelta: (textSoFar: string) => void): Promise<Result<ChatSendResponse>> {
  let res: Response;
  try {
    res = await fetch('/api/chat/messages', {
      method: 'POST',
      credentials: 'same-origin',
      headers: { ...headers(true), accept: 'application/x-ndjson, application/json' },
      body: JSON.stringify({ body, attribution: readAttribution() }),
    });
  } catch {
    return offline();
  }
  if (!res.ok) return failure(res);
  if (!(res.headers.get('content-type') ?? '').includes('ndjson') || !res.body) {
    try {
      return { ok: true, data: (await res.json()) as ChatSendResponse };
    } catch {
      return offline();
    }
  }
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  let text = '';
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (value) buffer += value;
      const { lines, rest } = splitLines(done ? `${buffer}\n` : buffer);
      buffer = rest;
      for (const raw of lines) {
        const line = JSON.parse(raw) as ChatStreamLine;
        if (line.type === 'delta') onDelta((text += line.text));
        else if (line.type === 'done') return { ok: true, data: line.response };
        else return { ok: false, status: statusOf(line.error.code), message: errorText(statusOf(line.error.code), line.error) };
      }
      if (done) return offline();
    }
  } catch {
    return offline();
  }
}
