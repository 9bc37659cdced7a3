/**
 * The chat (issue 9, PRODUCT.md "Chat widget"): its settings document, limits, and the shapes the widget,
 * the admin inbox and the server exchange (contract: docs/chat-api.md). Pure and browser-safe: the launcher
 * imports only types from here; the panel and the admin forms import the schemas.
 */
import { isSitePath } from './site-path';
import { z } from './zod';

export const CHAT_LIMITS = {
  /** One message, in characters (visitor, admin and assistant alike). */
  message: 1000,
  assistantName: 40,
  greeting: 300,
  offlineMessage: 300,
  quickReplies: 6,
  quickReplyLabel: 40,
  quickReplyValue: 500,
  contactName: 100,
  contactMessage: 1000,
  llmModel: 100,
  llmEndpoint: 500,
} as const;

/** Visitor messages per visitor id and per client address (fixed windows, counted in the database). */
export const CHAT_RATE_LIMITS = {
  perVisitor: { max: 10, windowSeconds: 60 },
  perClient: { max: 30, windowSeconds: 60 },
  contactPerClient: { max: 5, windowSeconds: 600 },
} as const;

/** The visitor's random id in local storage (no cookie): 32 lower-case hex characters. */
export const CHAT_VISITOR_STORAGE_KEY = 'chat.visitor';
export const CHAT_VISITOR_HEADER = 'X-Chat-Visitor';
export const CHAT_VISITOR_ID = /^[0-9a-f]{32}$/;
/** The query parameter of a reply mail's link: the conversation to open in the widget (its resume token). */
export const CHAT_RESUME_PARAM = 'chat';

export const CHAT_AUTHORS = ['visitor', 'assistant', 'admin', 'system'] as const;
export type ChatAuthor = (typeof CHAT_AUTHORS)[number];

/** When the widget asks for name and email: only when needed (no good answer, a person asked for, offline), or before the first question. */
export const CHAT_ASK_CONTACT = ['when-needed', 'at-start'] as const;
export type ChatAskContact = (typeof CHAT_ASK_CONTACT)[number];
export const CHAT_ASK_CONTACT_LABELS: Record<ChatAskContact, string> = {
  'when-needed': 'Only when the assistant has no answer, a person is asked for, or outside business hours',
  'at-start': 'Before the first question',
};

export const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

const time = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be a time like 09:00');
const dayHours = z
  .object({ open: z.boolean().default(false), from: time.default('09:00'), to: time.default('17:00') })
  .refine((d) => !d.open || d.from < d.to, { message: 'must close after it opens', path: ['to'] });

const weekdayDefault = { open: true, from: '09:00', to: '17:00' };
const weekendDefault = { open: false, from: '09:00', to: '17:00' };

/**
 * When a person can answer, read in the site's time zone (a general setting since decision 055; documents
 * saved before carry their own `timeZone`, which the schema drops: see legacyChatTimeZone).
 */
export const businessHoursSchema = z.object({
  /** Off: the widget is always "online" (the assistant answers at any hour). */
  enabled: z.boolean().default(false),
  days: z
    .object(Object.fromEntries(WEEKDAYS.map((d) => [d, dayHours.default(d === 'saturday' || d === 'sunday' ? weekendDefault : weekdayDefault)])) as Record<Weekday, z.ZodDefault<typeof dayHours>>)
    .prefault({}),
});
export type BusinessHours = z.infer<typeof businessHoursSchema>;

const hexColour = z.string().regex(/^#[0-9a-fA-F]{6}$/, 'must be a colour like #4f46e5');

export const quickReplySchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('message'),
    label: z.string().trim().min(1).max(CHAT_LIMITS.quickReplyLabel),
    /** Sent as the visitor's message. */
    value: z.string().trim().min(1).max(CHAT_LIMITS.quickReplyValue),
  }),
  z.object({
    kind: z.literal('link'),
    label: z.string().trim().min(1).max(CHAT_LIMITS.quickReplyLabel),
    /** A path on this site ("/free-audit", the site's one rule: never "//host" or "/\\host") or an https address. */
    value: z
      .string()
      .trim()
      .max(CHAT_LIMITS.quickReplyValue)
      .refine((v) => isSitePath(v) || /^https:\/\/[^\s/]+[^\s]*$/.test(v), 'must be a path like /free-audit or an https:// address'),
  }),
]);
export type QuickReply = z.infer<typeof quickReplySchema>;

export const chatSettingsSchema = z.object({
  /** Off removes the widget from every page at once (the `chat` cache tag). */
  enabled: z.boolean().default(true),
  assistantName: z.string().trim().min(1).max(CHAT_LIMITS.assistantName).default('Autoflow Assistant'),
  greeting: z
    .string()
    .trim()
    .min(1)
    .max(CHAT_LIMITS.greeting)
    .default('Hi! Ask me about our services, packages or the free audit, or leave your details and a person will get back to you.'),
  /** The launcher's and the visitor bubbles' background under white text: must keep 4.5:1 contrast. */
  accentColor: hexColour.refine((c) => contrastWithWhite(c) >= 4.5, 'is too light for white text (needs 4.5:1 contrast)').default('#4338ca'),
  quickReplies: z
    .array(quickReplySchema)
    .max(CHAT_LIMITS.quickReplies)
    .default([
      { kind: 'message', label: 'What do you offer?', value: 'What services do you offer?' },
      { kind: 'link', label: 'Get a free audit', value: '/free-audit' },
      { kind: 'message', label: 'Talk to a person', value: 'I would like to talk to a person.' },
    ]),
  askContact: z.enum(CHAT_ASK_CONTACT).default('when-needed'),
  businessHours: businessHoursSchema.prefault({}),
  offlineMessage: z
    .string()
    .trim()
    .min(1)
    .max(CHAT_LIMITS.offlineMessage)
    .default("We're away right now. Leave your name and email and we'll reply during business hours."),
  /** Optional LLM answers: an OpenAI-compatible chat-completions endpoint; the key only from LLM_API_KEY. */
  llm: z
    .object({
      enabled: z.boolean().default(false),
      endpoint: z
        .string()
        .trim()
        .max(CHAT_LIMITS.llmEndpoint)
        // The server's API key travels with every request: never in clear text (decision 018).
        .refine((v) => v === '' || /^https:\/\/[^\s]+$/.test(v), 'must be an https:// address')
        .default(''),
      model: z.string().trim().max(CHAT_LIMITS.llmModel).default(''),
    })
    .refine((l) => !l.enabled || l.endpoint !== '', { message: 'is required when AI answers are on', path: ['endpoint'] })
    .refine((l) => !l.enabled || l.model !== '', { message: 'is required when AI answers are on', path: ['model'] })
    .prefault({}),
});
export type ChatSettings = z.infer<typeof chatSettingsSchema>;
export const DEFAULT_CHAT_SETTINGS: ChatSettings = chatSettingsSchema.parse({});

/**
 * Why AI answers cannot use `endpoint` with the server's API key, or undefined when they can. The key is
 * the operator's: it only ever goes, over https, to the origin the environment names (LLM_API_ORIGIN); an
 * admin chooses the path on it, never the host (decision 018).
 */
export function llmEndpointProblem(endpoint: string, allowedOrigin: string | undefined): string | undefined {
  if (!allowedOrigin) {
    return 'cannot be used yet: the server sends its API key to no address until LLM_API_ORIGIN is set in its environment (the https origin of your AI provider, e.g. https://api.openai.com)';
  }
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return 'must be an https:// address';
  }
  if (url.protocol !== 'https:') return 'must be an https:// address';
  if (url.username || url.password) return 'must not contain a user name or password';
  if (url.origin !== allowedOrigin) return `must start with ${allowedOrigin}/ (LLM_API_ORIGIN), the only address the server sends its API key to`;
  return undefined;
}

/**
 * What an admin's save must meet (the editor and the server alike): the stored form, and with AI answers on
 * an endpoint the server's key may go to. Reading a stored document needs only chatSettingsSchema.
 */
export function chatSettingsSchemaFor(llmOrigin: string | undefined) {
  return chatSettingsSchema.superRefine((s, ctx) => {
    // Runs after the field rules too: an empty or non-https endpoint already has its message.
    if (s.llm?.enabled !== true || typeof s.llm.endpoint !== 'string' || !s.llm.endpoint.startsWith('https://')) return;
    const problem = llmEndpointProblem(s.llm.endpoint, llmOrigin);
    if (problem) ctx.addIssue({ code: 'custom', path: ['llm', 'endpoint'], message: problem });
  });
}

/**
 * The zone a chat settings document or activity entry holds from before the site's time zone became a
 * general setting (decision 055: `businessHours.timeZone`), or undefined.
 */
export function legacyChatTimeZone(value: unknown): string | undefined {
  const hours = value && typeof value === 'object' ? (value as { businessHours?: unknown }).businessHours : undefined;
  const zone = hours && typeof hours === 'object' ? (hours as { timeZone?: unknown }).timeZone : undefined;
  return typeof zone === 'string' ? zone : undefined;
}

/** A chat settings document as it is stored since decision 055: without the zone of its business hours. */
export function withoutLegacyTimeZone(value: unknown): unknown {
  if (legacyChatTimeZone(value) === undefined) return value;
  const { timeZone: _moved, ...hours } = (value as { businessHours: Record<string, unknown> }).businessHours;
  return { ...(value as object), businessHours: hours };
}

/** What every public page carries (the same for everyone, cached under the `chat` tag): no hours, no LLM. */
export interface PublicChatConfig {
  assistantName: string;
  greeting: string;
  accentColor: string;
  quickReplies: QuickReply[];
  askContact: ChatAskContact;
}
export const publicChatConfig = (s: ChatSettings): PublicChatConfig => ({
  assistantName: s.assistantName,
  greeting: s.greeting,
  accentColor: s.accentColor,
  quickReplies: s.quickReplies,
  askContact: s.askContact,
});

/** WCAG relative-luminance contrast of `#rrggbb` against white. */
export function contrastWithWhite(hex: string): number {
  const channel = (i: number) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  const l = 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
  return 1.05 / (l + 0.05);
}

// ---------------------------------------------------------------------------------------------------------
// What the widget and the inbox exchange with the server (docs/chat-api.md).

export interface ChatSource {
  title: string;
  /** A path on this site: "/service/lead-outreach", "/article/…", "/#faq-…". */
  href: string;
}

export interface ChatMessageDto {
  seq: number;
  author: ChatAuthor;
  /** "You", the assistant's name, the admin's first name, or "" for system notes. */
  authorName: string;
  /** Plain text: always rendered as text, never as HTML. */
  body: string;
  sources: ChatSource[];
  createdAt: string;
}

export interface ChatConversationState {
  id: string;
  /** Opens /api/chat/stream and /api/chat/poll for this conversation only (HMAC of its id). */
  streamToken: string;
  /** A person (admin) is answering: the assistant stays quiet. */
  takenOver: boolean;
  /** The admin's first name while taken over, else "". */
  agentName: string;
  /** Whether name and email were given (a lead exists). */
  hasContact: boolean;
}

export interface ChatSessionResponse {
  conversation: ChatConversationState | null;
  messages: ChatMessageDto[];
  /** Inside business hours (always true when hours are off). */
  online: boolean;
  offlineMessage: string;
}

export interface ChatSendResponse {
  conversation: ChatConversationState;
  /** The visitor's stored message, then the assistant's answer (none while a person has taken over). */
  messages: ChatMessageDto[];
  /** The widget shows the contact form now (no good answer, a person asked for, offline, or at-start). */
  askContact: boolean;
}

export interface ChatContactResponse {
  conversation: ChatConversationState;
  messages: ChatMessageDto[];
}

/** Errors: `{ error: { code, message, fieldErrors? } }` with 400, 403, 413, 429 (+ Retry-After). */
export interface ChatErrorBody {
  error: { code: 'INVALID' | 'FORBIDDEN' | 'RATE_LIMITED' | 'TOO_LARGE' | 'DISABLED' | 'NOT_FOUND'; message: string; fieldErrors?: Record<string, string>; retryAfterSeconds?: number };
}

/** Lines of an LLM-mode answer (`application/x-ndjson` reply to POST /api/chat/messages). */
export type ChatStreamLine = { type: 'delta'; text: string } | { type: 'done'; response: ChatSendResponse } | { type: 'error'; error: ChatErrorBody['error'] };

/** Server-sent events on /api/chat/stream: `message` (id = seq, data ChatMessageDto) and `state` (data ChatConversationState). */
export type ChatStreamEvent = { event: 'message'; data: ChatMessageDto } | { event: 'state'; data: ChatConversationState };

/** The admin inbox's live events on /api/admin/chat/stream. */
export interface InboxConversationDto {
  id: string;
  status: 'open' | 'handled';
  contactName: string;
  contactEmail: string;
  /** "Visitor 3f9a…" or the member's name when there is no contact name. */
  displayName: string;
  unread: number;
  takenOverBy: string | null;
  lastMessageAt: string;
  /** The visitor's last words (their last message, or the contact form's message after it): 140 characters, as text; '' for none. */
  preview: string;
}
