/**
 * The admin inbox (/admin/chat-settings): reads for its pages and the writes behind admin.chat.* — reply
 * (which takes the conversation over: the assistant stays quiet), release, mark handled/open, mark read.
 * Every write re-checks the admin inside its transaction and is published live after it commits.
 */
import type { ChatMessageDto, InboxConversationDto } from '../../../shared/chat';
import { chatMessageBodySchema } from '../../../shared/chat-rules';
import { withoutBidiControls } from '../../../shared/text-controls';
import { db } from '../../db';
import { insertActivity } from '../activity/repository';
import { requireAdmin } from '../users/service';
import { conversationState, displayNameOf, inboxConversation, messageDto } from './dto';
import { ChatError, conversationNotFound } from './errors';
import { publishChange } from './live';
import { queueReplyMail } from './reply-mail';
import { timingNow } from '../lead-sequences/schedule';
import * as repo from './repository';
import { getChatSettings } from './settings';

export const INBOX_PER_PAGE = 20;
/** Messages the admin page shows (the most recent). */
export const ADMIN_HISTORY_LIMIT = 200;
/** Conversations one inbox poll returns at most. */
const INBOX_POLL_LIMIT = 100;
export const CHAT_ENTITY = 'chat-conversation';
export const INBOX_STATUSES = ['open', 'handled', 'all'] as const;
export type InboxStatusFilter = (typeof INBOX_STATUSES)[number];

const STATUS_LABELS: Record<repo.ConversationStatus, string> = { open: 'Open', handled: 'Handled' };

// ---------------------------------------------------------------------------------------------------------
// Reads (the pages run behind the admin guard).

export async function listInbox(query: { status: InboxStatusFilter; page: number }): Promise<{ rows: InboxConversationDto[]; total: number; pages: number }> {
  const page = Math.max(1, Math.floor(query.page) || 1);
  const { rows, total } = await repo.listConversationViews(query.status, INBOX_PER_PAGE, (page - 1) * INBOX_PER_PAGE);
  return { rows: rows.map(inboxConversation), total, pages: Math.max(1, Math.ceil(total / INBOX_PER_PAGE)) };
}

/** Conversations with activity after `after` (the inbox's polling fallback when its stream fails). */
export async function inboxChangedSince(after: Date | undefined): Promise<InboxConversationDto[]> {
  return (await repo.listConversationViewsSince(after, INBOX_POLL_LIMIT)).map(inboxConversation);
}

export const unreadTotal = () => repo.unreadTotal();

export interface AdminConversation {
  conversation: InboxConversationDto & { createdAt: string; takenOverById: string | null; takenOverAt: string | null; attribution: repo.ConversationRow['attribution'] };
  messages: ChatMessageDto[];
  /** The signed-in member who owns it, if any. */
  member: { id: string; email: string; name: string } | null;
  /** The contact details left in the chat, if any (a lead). */
  contact: { name: string; email: string; message: string; at: string } | null;
}

export async function conversationForAdmin(id: string): Promise<AdminConversation | undefined> {
  const view = await repo.findConversationView(id);
  if (!view) return undefined;
  const c = view.conversation;
  const [messages, settings, member] = await Promise.all([
    repo.listMessages(id, { limit: ADMIN_HISTORY_LIMIT }),
    getChatSettings(),
    c.userId ? repo.findUserSummary(c.userId) : undefined,
  ]);
  const side = { assistantName: settings.assistantName, visitorName: displayNameOf(view) };
  return {
    conversation: {
      ...inboxConversation(view),
      createdAt: c.createdAt.toISOString(),
      takenOverById: c.takenOverBy,
      takenOverAt: c.takenOverAt?.toISOString() ?? null,
      attribution: c.attribution,
    },
    messages: messages.map((m) => messageDto(m, side)),
    member: member ? { id: member.id, email: member.email, name: member.name } : null,
    // What the visitor typed, without bidi controls (dto.ts): the page shows it isolated.
    contact: c.contactEmail ? { name: withoutBidiControls(c.contactName), email: c.contactEmail, message: withoutBidiControls(c.contactMessage), at: (c.contactAt ?? c.createdAt).toISOString() } : null,
  };
}

// ---------------------------------------------------------------------------------------------------------
// Writes.

type Actor = Awaited<ReturnType<typeof requireAdmin>>;

async function adminWrite<T>(actorId: string | undefined, conversationId: string, work: (tx: repo.Executor, actor: Actor, row: repo.ConversationRow) => Promise<T>): Promise<T> {
  return db().transaction(async (tx) => {
    const actor = await requireAdmin(actorId, tx);
    const row = await repo.lockConversation(conversationId, tx);
    if (!row) throw conversationNotFound();
    return work(tx, actor, row);
  });
}

async function stateAfter(conversationId: string, seqs: number[] = []) {
  const view = await publishChange(conversationId, seqs);
  if (!view) throw conversationNotFound();
  return { conversation: inboxConversation(view), state: conversationState(view) };
}

/** The admin's answer: stored under their name, the conversation taken over (the assistant stays quiet) and read. */
export async function replyToConversation(actorId: string | undefined, conversationId: string, body: unknown) {
  const parsed = chatMessageBodySchema.safeParse(body);
  if (!parsed.success) throw new ChatError('INVALID', parsed.error.issues[0]!.message, { body: parsed.error.issues[0]!.message });
  // Read before the transaction (PGlite has one connection): when the mail of a reply may go out.
  const timing = await timingNow();
  const seq = await adminWrite(actorId, conversationId, async (tx, actor, row) => {
    const message = await repo.insertMessage(tx, { conversationId, author: 'admin', adminId: actor.id, body: parsed.data });
    const takeOver = row.takenOverBy === actor.id ? {} : { takenOverBy: actor.id, takenOverAt: message.createdAt };
    await repo.updateConversation(tx, conversationId, { ...takeOver, lastMessageAt: message.createdAt, unreadForAdmin: 0 });
    // A visitor who is not there gets it by mail, a minute later, unless their widget shows it first.
    await queueReplyMail(tx, row, timing);
    return message.seq;
  });
  const after = await stateAfter(conversationId, [seq]);
  const settings = await getChatSettings();
  const row = await repo.findMessage(seq);
  return { ...after, message: messageDto(row!, { assistantName: settings.assistantName, visitorName: after.conversation.displayName }) };
}

/** Hands the conversation back to the assistant. */
export async function releaseConversation(actorId: string | undefined, conversationId: string) {
  const changed = await adminWrite(actorId, conversationId, async (tx, _actor, row) => {
    if (row.takenOverBy === null) return false;
    await repo.updateConversation(tx, conversationId, { takenOverBy: null, takenOverAt: null });
    return true;
  });
  return { changed, ...(await stateAfter(conversationId)) };
}

/** Mark handled or reopen; recorded in the activity log. */
export async function setConversationStatus(actorId: string | undefined, conversationId: string, status: repo.ConversationStatus) {
  const changed = await adminWrite(actorId, conversationId, async (tx, actor, row) => {
    if (row.status === status) return false;
    await repo.updateConversation(tx, conversationId, { status });
    const view = await repo.findConversationView(conversationId, tx);
    const from = STATUS_LABELS[row.status as repo.ConversationStatus] ?? row.status;
    await insertActivity(tx, {
      actorId: actor.id,
      actorEmail: actor.email,
      action: 'status',
      entityType: CHAT_ENTITY,
      entityId: conversationId,
      summary: `Chat with ${view ? displayNameOf(view) : conversationId}: ${from} → ${STATUS_LABELS[status]}`,
      before: { status: row.status },
      after: { status },
    });
    return true;
  });
  return { changed, ...(await stateAfter(conversationId)) };
}

/** The unread count to 0. */
export async function markConversationRead(actorId: string | undefined, conversationId: string) {
  const changed = await adminWrite(actorId, conversationId, async (tx, _actor, row) => {
    if (row.unreadForAdmin === 0) return false;
    await repo.updateConversation(tx, conversationId, { unreadForAdmin: 0 });
    return true;
  });
  if (!changed) {
    const view = await repo.findConversationView(conversationId);
    if (!view) throw conversationNotFound();
    return { changed, conversation: inboxConversation(view), state: conversationState(view) };
  }
  return { changed, ...(await stateAfter(conversationId)) };
}
