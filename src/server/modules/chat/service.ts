/**
 * The visitor's side of the chat (PRODUCT.md "Chat widget", docs/chat-api.md). A message is validated,
 * counted against the rate limits, stored (creating the conversation on the first one, attaching a visitor
 * conversation to the member who signs in) and published; then — unless a person has taken over — the
 * assistant answers from the site's content and that answer is stored and published too. A contact form
 * stores the lead, its lead event and each admin's notice (or its place in their hour's digest, decision 057)
 * in one transaction.
 */
import { CHAT_RATE_LIMITS, type ChatAuthor, type ChatConversationState, type ChatContactResponse, type ChatMessageDto, type ChatSendResponse, type ChatSessionResponse, type ChatSettings } from '../../../shared/chat';
import { leadReplyTo } from '../leads/reply-to';
import { chatContactFieldErrors, chatContactSchema, chatMessageBodySchema, isWithinBusinessHours, shouldAskContact } from '../../../shared/chat-rules';
import { cleanAttribution } from '../../../shared/schemas/audit';
import { config } from '../../config';
import { db } from '../../db';
import type { Attribution } from '../../db/schema';
import { logger } from '../../logger';
import { insertLeadEvent } from '../audit/repository';
import { notifyAdmins } from '../lead-notices/service';
import { retryInWords } from '../audit/service';
import { consumeRateLimit, type RateRule } from '../rate-limit/service';
import { requireAdmin, UsersError } from '../users/service';
import { getSiteContent } from '../site/service';
import { assistantReply, type AssistantReply } from './assistant';
import { conversationState, messageDto, VISITOR_SELF } from './dto';
import { ChatError, chatDisabled, conversationNotFound, memberSessionNeeded, streamForbidden } from './errors';
import { conversationOfResumeToken, isStreamTokenValid, ownerKeyOf, type ChatIdentity } from './identity';
import { publishChange } from './live';
import { enrollInSequence, timingNow } from '../lead-sequences/schedule';
import { announceNewLead } from '../today/live';
import { chatLeadEmail } from './mails';
import * as repo from './repository';
import { getChatSettings } from './settings';
import { siteTimeZone } from '../site/time-zone';

/** Messages a visitor gets back (the widget's history). */
export const CHAT_HISTORY_LIMIT = 100;
/** What the assistant is shown of the conversation before the question. */
const ASSISTANT_HISTORY = 10;
export const CHAT_LEAD_KIND = 'chat-lead';

export interface VisitorRequest {
  identity: ChatIdentity;
  /** The client's address (rate limits); undefined only outside a request (tests). */
  clientIp: string | undefined;
  now?: Date;
}

async function enabledSettings(): Promise<ChatSettings> {
  const settings = await getChatSettings();
  if (!settings.enabled) throw chatDisabled();
  return settings;
}

const visitorSide = (settings: ChatSettings) => ({ assistantName: settings.assistantName, visitorName: VISITOR_SELF });

async function limit(key: string, rule: RateRule, who: string) {
  const decision = await consumeRateLimit(key, rule);
  if (!decision.ok) {
    throw new ChatError(
      'RATE_LIMITED',
      `Too many messages from ${who}. Please try again ${retryInWords(decision.retryAfterSeconds)}.`,
      undefined,
      decision.retryAfterSeconds,
    );
  }
}

/** The conversation this identity may read: a member's own (or the unattached one of their browser), a visitor's. */
async function ownConversation(identity: ChatIdentity, ex: repo.Reader = db()): Promise<repo.ConversationRow | undefined> {
  if (identity.userId) {
    const owned = await repo.findMemberConversation(identity.userId, ex);
    if (owned) return owned;
  }
  return identity.visitorKey ? repo.findVisitorConversation(identity.visitorKey, ex) : undefined;
}

/**
 * The identity's conversation inside a write transaction: found, attached to the member when it was their
 * browser's visitor conversation, or created (with the visit's attribution).
 */
async function conversationForWrite(tx: repo.Executor, identity: ChatIdentity, attribution: Attribution): Promise<{ row: repo.ConversationRow; created: boolean }> {
  await repo.lockOwner(ownerKeyOf(identity), tx);
  const found = await ownConversation(identity, tx);
  if (found) {
    const row = (await repo.lockConversation(found.id, tx)) ?? found;
    if (identity.userId && row.userId === null) {
      await repo.updateConversation(tx, row.id, { userId: identity.userId });
      return { row: { ...row, userId: identity.userId }, created: false };
    }
    return { row, created: false };
  }
  const row = await repo.insertConversation(tx, { visitorKey: identity.visitorKey, userId: identity.userId, attribution });
  return { row, created: true };
}

// ---------------------------------------------------------------------------------------------------------
// Reading.

/** Whether a person can answer now: inside the business hours, read in the site's time zone. */
const isOnline = async (settings: ChatSettings, now: Date) => isWithinBusinessHours(settings.businessHours, await siteTimeZone(), now);

export async function chatSession(identity: ChatIdentity, now = new Date()): Promise<ChatSessionResponse> {
  const settings = await enabledSettings();
  const found = await ownConversation(identity);
  const online = await isOnline(settings, now);
  if (!found) return { conversation: null, messages: [], online, offlineMessage: settings.offlineMessage };
  const [view, messages] = await Promise.all([repo.findConversationView(found.id), repo.listMessages(found.id, { limit: CHAT_HISTORY_LIMIT })]);
  if (!view) return { conversation: null, messages: [], online, offlineMessage: settings.offlineMessage };
  await markSeen(view.conversation, messages);
  return {
    conversation: conversationState(view),
    messages: messages.map((m) => messageDto(m, visitorSide(settings))),
    online,
    offlineMessage: settings.offlineMessage,
  };
}

/**
 * The visitor's widget was given `messages`: the newest becomes their seen mark when it is newer (one
 * conditional write; nothing when there is nothing new). Only the conversation's own visitor or member
 * counts: an admin reading it (the inbox's polling fallback) does not.
 */
export async function markSeen(conversation: Pick<repo.ConversationRow, 'id' | 'userId' | 'visitorSeenSeq'>, messages: readonly { seq: number }[], viewer: { userId: string } | null = null) {
  const newest = messages.at(-1)?.seq ?? 0;
  if (newest <= conversation.visitorSeenSeq) return;
  if (viewer && viewer.userId !== conversation.userId) return;
  await repo.markSeenByVisitor(conversation.id, newest);
}

/** How many team replies the visitor has not been shown (the launcher's mark); 0 without a conversation. */
export async function unreadReplies(identity: ChatIdentity): Promise<{ unread: number }> {
  await enabledSettings();
  const found = await ownConversation(identity);
  return { unread: found ? await repo.unseenReplies(found) : 0 };
}

/**
 * A reply mail's link opened in this browser: the conversation becomes this visitor's (a member's stays
 * with the member's session, which must be this browser's), so the widget opens it. A changed or cut link
 * is refused (403); a conversation gone is 404.
 */
export async function resumeConversation(identity: ChatIdentity, token: string): Promise<{ conversation: ChatConversationState }> {
  await enabledSettings();
  const conversationId = conversationOfResumeToken(token);
  if (!conversationId) throw new ChatError('FORBIDDEN', 'This chat link is not valid. Open it again from the email, or start a new chat.');
  await db().transaction(async (tx) => {
    const row = await repo.lockConversation(conversationId, tx);
    if (!row) throw conversationNotFound();
    if (row.userId !== null) {
      if (identity.userId !== row.userId) throw memberSessionNeeded();
      return;
    }
    if (!identity.visitorKey) throw new ChatError('INVALID', 'The chat could not identify this browser. Please reload the page.');
    if (row.visitorKey !== identity.visitorKey) await repo.rekeyConversation(row.id, identity.visitorKey, tx);
  });
  const view = await repo.findConversationView(conversationId);
  if (!view) throw conversationNotFound();
  return { conversation: conversationState(view) };
}

/** Whether `userId` is an admin now (a role taken away a moment ago counts). */
async function isAdminNow(userId: string): Promise<boolean> {
  try {
    await requireAdmin(userId, db());
    return true;
  } catch (err) {
    if (err instanceof UsersError) return false;
    throw err;
  }
}

/**
 * The conversation a stream token opens (403 for a wrong token, 404 for one that is gone). A member's
 * conversation also needs that member's session, or an admin's (the inbox's polling fallback): the token
 * alone would let a browser signed out of the account go on reading it (docs/decisions/017).
 */
export async function conversationByToken(conversationId: string, token: string, viewer: { userId: string } | null = null): Promise<repo.ConversationView> {
  await enabledSettings();
  if (!conversationId || !token || !isStreamTokenValid(conversationId, token)) throw streamForbidden();
  const view = await repo.findConversationView(conversationId);
  if (!view) throw conversationNotFound();
  const owner = view.conversation.userId;
  if (owner !== null && viewer?.userId !== owner && !(viewer && (await isAdminNow(viewer.userId)))) throw memberSessionNeeded();
  return view;
}

/** The polling fallback: messages after `afterSeq` and the current state. */
export async function pollConversation(conversationId: string, token: string, afterSeq: number | undefined, viewer: { userId: string } | null = null) {
  const view = await conversationByToken(conversationId, token, viewer);
  const settings = await getChatSettings();
  const messages = await repo.listMessages(conversationId, { afterSeq, limit: CHAT_HISTORY_LIMIT });
  await markSeen(view.conversation, messages, viewer);
  return { messages: messages.map((m) => messageDto(m, visitorSide(settings))), conversation: conversationState(view) };
}

/** Messages after `afterSeq`, as the visitor sees them (the stream's replay). */
export async function messagesAfter(conversationId: string, afterSeq: number): Promise<ChatMessageDto[]> {
  const settings = await getChatSettings();
  const rows = await repo.listMessages(conversationId, { afterSeq, limit: CHAT_HISTORY_LIMIT });
  return rows.map((m) => messageDto(m, visitorSide(settings)));
}

// ---------------------------------------------------------------------------------------------------------
// Sending a message.

export interface SendInput {
  body: unknown;
  attribution?: unknown;
}

/** A stored visitor message, waiting for the assistant's answer (or for a person). */
export interface AcceptedMessage {
  settings: ChatSettings;
  conversationId: string;
  question: string;
  visitorMessage: ChatMessageDto;
  takenOver: boolean;
  /** The email the visitor left before this message, or ''. */
  contactEmail: string;
  online: boolean;
}

const attributionOf = (raw: unknown): Attribution =>
  raw && typeof raw === 'object' && !Array.isArray(raw) ? cleanAttribution(raw as Record<string, unknown>) : {};

/** Validates, rate-limits and stores the visitor's message, then publishes it. */
export async function acceptVisitorMessage(input: SendInput, request: VisitorRequest): Promise<AcceptedMessage> {
  const settings = await enabledSettings();
  const parsed = chatMessageBodySchema.safeParse(input.body);
  if (!parsed.success) throw new ChatError('INVALID', parsed.error.issues[0]!.message, { body: parsed.error.issues[0]!.message });
  const question = parsed.data;
  const { identity } = request;
  await limit(`chat:${ownerKeyOf(identity)}`, CHAT_RATE_LIMITS.perVisitor, 'this chat');
  await limit(`chat-ip:${request.clientIp ?? 'unknown'}`, CHAT_RATE_LIMITS.perClient, 'your connection');

  const now = request.now ?? new Date();
  const stored = await db().transaction(async (tx) => {
    const { row } = await conversationForWrite(tx, identity, attributionOf(input.attribution));
    const message = await repo.insertMessage(tx, { conversationId: row.id, author: 'visitor', body: question });
    await repo.updateConversation(tx, row.id, { status: 'open', lastMessageAt: message.createdAt, addUnread: 1 });
    return { row, message };
  });
  await publishChange(stored.row.id, [stored.message.seq]);
  return {
    settings,
    conversationId: stored.row.id,
    question,
    visitorMessage: messageDto({ ...stored.message, adminFirstName: null, adminName: null }, visitorSide(settings)),
    takenOver: stored.row.takenOverBy !== null,
    contactEmail: stored.row.contactEmail,
    online: await isOnline(settings, now),
  };
}

const UNAVAILABLE: AssistantReply = {
  body: "Sorry, I can't look that up right now. Leave your name and email and a person from our team will get back to you.",
  sources: [],
  confident: false,
};

export interface AnswerOptions {
  /** Parts of the answer as they arrive (LLM mode streams them to the widget). */
  onDelta?: (text: string) => void;
  signal?: AbortSignal;
}

/**
 * The assistant's answer to an accepted message, stored and published — or nothing while a person has
 * the conversation (also when an admin took over while the assistant was still thinking).
 */
export async function answerVisitorMessage(accepted: AcceptedMessage, options: AnswerOptions = {}): Promise<ChatSendResponse> {
  const { settings, conversationId } = accepted;
  const quiet = async (): Promise<ChatSendResponse> => {
    const view = await repo.findConversationView(conversationId);
    if (!view) throw conversationNotFound();
    return { conversation: conversationState(view), messages: [accepted.visitorMessage], askContact: false };
  };
  if (accepted.takenOver) return quiet();

  const earlier = await repo.listMessages(conversationId, { limit: ASSISTANT_HISTORY + 1 });
  const history = earlier.filter((m) => m.seq !== accepted.visitorMessage.seq && m.author !== 'system').map((m) => ({ author: m.author as ChatAuthor, body: m.body }));
  let reply: AssistantReply;
  try {
    reply = await assistantReply(accepted.question, {
      settings,
      history: history.slice(-ASSISTANT_HISTORY),
      online: accepted.online,
      contactEmail: accepted.contactEmail,
      onDelta: options.onDelta,
      signal: options.signal,
    });
  } catch (err) {
    logger.error({ err, conversationId }, 'chat assistant failed; answering without it');
    reply = UNAVAILABLE;
    options.onDelta?.(reply.body);
  }

  const stored = await db().transaction(async (tx) => {
    const row = await repo.lockConversation(conversationId, tx);
    if (!row || row.takenOverBy !== null) return undefined;
    const message = await repo.insertMessage(tx, { conversationId, author: 'assistant', body: reply.body, sources: reply.sources });
    await repo.updateConversation(tx, conversationId, { lastMessageAt: message.createdAt });
    return message;
  });
  if (!stored) return quiet();
  const view = await publishChange(conversationId, [stored.seq], { state: false });
  if (!view) throw conversationNotFound();
  const askContact = shouldAskContact({
    confident: reply.confident,
    question: accepted.question,
    online: accepted.online,
    askContact: settings.askContact,
    hasContact: view.conversation.contactEmail !== '',
  });
  return {
    conversation: conversationState(view),
    messages: [accepted.visitorMessage, messageDto({ ...stored, adminFirstName: null, adminName: null }, visitorSide(settings))],
    askContact,
  };
}

export async function sendVisitorMessage(input: SendInput, request: VisitorRequest, options: AnswerOptions = {}): Promise<ChatSendResponse> {
  return answerVisitorMessage(await acceptVisitorMessage(input, request), options);
}

// ---------------------------------------------------------------------------------------------------------
// Contact details (a lead).

export interface ContactInput {
  name?: unknown;
  email?: unknown;
  message?: unknown;
  followUps?: unknown;
  /** Used when the contact form comes before the first message ("at-start"). */
  attribution?: unknown;
}

export async function saveChatContact(input: ContactInput, request: VisitorRequest): Promise<ChatContactResponse> {
  const settings = await enabledSettings();
  const parsed = chatContactSchema.safeParse({ name: input.name, email: input.email, message: input.message ?? undefined, followUps: input.followUps ?? undefined });
  if (!parsed.success) throw new ChatError('INVALID', 'Please correct the highlighted fields.', chatContactFieldErrors(parsed.error));
  await limit(`chat-contact:${request.clientIp ?? 'unknown'}`, CHAT_RATE_LIMITS.contactPerClient, 'your connection');
  const fields = parsed.data;
  const now = request.now ?? new Date();
  const online = await isOnline(settings, now);
  const { siteName } = await getSiteContent();
  const timing = await timingNow(now);

  const stored = await db().transaction(async (tx) => {
    const { row } = await conversationForWrite(tx, request.identity, attributionOf(input.attribution));
    const newLead = row.contactEmail !== fields.email;
    await repo.updateConversation(tx, row.id, {
      contactName: fields.name,
      contactEmail: fields.email,
      contactMessage: fields.message,
      contactAt: now,
      ...(fields.followUps ? { contactConsentAt: now } : {}),
      status: 'open',
      lastMessageAt: now,
      addUnread: 1,
    });
    if (newLead) {
      await insertLeadEvent(tx, { kind: CHAT_LEAD_KIND, email: fields.email, name: fields.name, userId: row.userId, refId: row.id, attribution: row.attribution });
      const adminUrl = new URL(`/admin/chat-settings/${row.id}`, config().SITE_URL).toString();
      const member = row.userId ? await repo.findUserSummary(row.userId, tx) : undefined;
      const lead = { ...fields, conversationId: row.id, memberEmail: member?.email, attribution: row.attribution };
      await notifyAdmins(tx, { kind: 'chat-lead', mailKind: CHAT_LEAD_KIND, name: fields.name, email: fields.email, detail: '', url: adminUrl, replyTo: leadReplyTo(lead), mailTo: (admin) => chatLeadEmail(admin, lead, adminUrl, siteName) }, now);
      // Only with "Email me follow-ups" ticked on this form.
      await enrollInSequence(tx, 'chat-lead', { email: fields.email, name: fields.name, refId: row.id, consentedAt: fields.followUps ? now : null }, timing);
    }
    const when = online ? 'soon' : 'during business hours';
    const thanks = await repo.insertMessage(tx, {
      conversationId: row.id,
      author: 'system',
      body: `Thank you, ${fields.name}! We'll get back to you at ${fields.email} ${when}.`,
    });
    return { row, thanks, newLead };
  });
  logger.info({ conversationId: stored.row.id, newLead: stored.newLead }, 'chat contact received');
  const view = await publishChange(stored.row.id, [stored.thanks.seq]);
  if (stored.newLead) await announceNewLead({ kind: 'chat-lead', id: stored.row.id });
  if (!view) throw conversationNotFound();
  return {
    conversation: conversationState(view),
    messages: [messageDto({ ...stored.thanks, adminFirstName: null, adminName: null }, visitorSide(settings))],
  };
}
