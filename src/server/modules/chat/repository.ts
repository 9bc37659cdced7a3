/** Chat conversations and messages: data access only (Drizzle). Writes take the caller's transaction. */
import { and, count, desc, eq, gt, isNull, lt, or, sql, sum, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { db } from '../../db';
import type { Database } from '../../db/client';
import { chatConversations, chatMessages, users, type Attribution, type ChatSource } from '../../db/schema';

export type Executor = Pick<Database, 'select' | 'insert' | 'update' | 'delete' | 'execute'>;
export type Reader = Pick<Database, 'select'>;
export type ConversationRow = typeof chatConversations.$inferSelect;
export type ConversationStatus = 'open' | 'handled';

const agent = alias(users, 'chat_agent');
const member = alias(users, 'chat_member');
const messageAdmin = alias(users, 'chat_message_admin');

/** Everything the widget's state, the inbox row and the admin page read about one conversation. */
const viewColumns = {
  conversation: chatConversations,
  agentFirstName: agent.firstName,
  agentName: agent.name,
  agentEmail: agent.email,
  memberName: member.name,
  memberEmail: member.email,
  /**
   * The visitor's last words, for the inbox's preview: their last message, or the message of the contact
   * form when it came after it — never the assistant's answer or the thank-you that follows the form.
   */
  lastVisitorWords: sql<string | null>`coalesce(
    (select case when ${chatConversations.contactMessage} <> '' and ${chatConversations.contactAt} >= m.created_at then ${chatConversations.contactMessage} else m.body end
       from ${chatMessages} m where m.conversation_id = ${chatConversations.id} and m.author = 'visitor' order by m.seq desc limit 1),
    nullif(${chatConversations.contactMessage}, ''))`,
};

export interface ConversationView {
  conversation: ConversationRow;
  agentFirstName: string | null;
  agentName: string | null;
  agentEmail: string | null;
  memberName: string | null;
  memberEmail: string | null;
  lastVisitorWords: string | null;
}

/** The views' query; `extra` columns ride along (a window count). */
function views<E extends Record<string, SQL.Aliased | SQL>>(ex: Reader = db(), extra?: E) {
  return ex
    .select({ ...viewColumns, ...(extra as E) })
    .from(chatConversations)
    .leftJoin(agent, eq(agent.id, chatConversations.takenOverBy))
    .leftJoin(member, eq(member.id, chatConversations.userId));
}

export async function findConversationView(id: string, ex: Reader = db()): Promise<ConversationView | undefined> {
  const [row] = await views(ex).where(eq(chatConversations.id, id)).limit(1);
  return row;
}

/** The conversation a member owns (their most recent). */
export async function findMemberConversation(userId: string, ex: Reader = db()): Promise<ConversationRow | undefined> {
  const [row] = await ex.select().from(chatConversations).where(eq(chatConversations.userId, userId)).orderBy(desc(chatConversations.lastMessageAt)).limit(1);
  return row;
}

/** A visitor's conversation not (yet) attached to a member: once attached, only that member's session opens it. */
export async function findVisitorConversation(visitorKey: string, ex: Reader = db()): Promise<ConversationRow | undefined> {
  const [row] = await ex
    .select()
    .from(chatConversations)
    .where(and(eq(chatConversations.visitorKey, visitorKey), isNull(chatConversations.userId)))
    .orderBy(desc(chatConversations.lastMessageAt))
    .limit(1);
  return row;
}

export async function findConversation(id: string, ex: Reader = db()): Promise<ConversationRow | undefined> {
  const [row] = await ex.select().from(chatConversations).where(eq(chatConversations.id, id)).limit(1);
  return row;
}

/** The row locked for the rest of the transaction: an admin's reply and the assistant's answer take turns. */
export async function lockConversation(id: string, ex: Executor): Promise<ConversationRow | undefined> {
  const [row] = await ex.select().from(chatConversations).where(eq(chatConversations.id, id)).limit(1).for('update');
  return row;
}

/**
 * Serializes the first messages of one visitor or member (two tabs sending at once): both would otherwise
 * find no conversation and create one each. Held until the transaction ends.
 */
export async function lockOwner(ownerKey: string, ex: Executor) {
  await ex.execute(sql`select pg_advisory_xact_lock(hashtext(${`chat:${ownerKey}`}))`);
}

export async function insertConversation(ex: Executor, row: { visitorKey: string | null; userId: string | null; attribution: Attribution }): Promise<ConversationRow> {
  const [inserted] = await ex
    .insert(chatConversations)
    .values({ id: crypto.randomUUID(), ...row })
    .returning();
  return inserted!;
}

export type ConversationUpdate = Partial<
  Pick<ConversationRow, 'userId' | 'status' | 'takenOverBy' | 'takenOverAt' | 'contactName' | 'contactEmail' | 'contactMessage' | 'contactAt' | 'contactConsentAt' | 'unreadForAdmin' | 'lastMessageAt'>
>;

export async function updateConversation(ex: Executor, id: string, values: ConversationUpdate & { addUnread?: number }) {
  const { addUnread, ...rest } = values;
  await ex
    .update(chatConversations)
    .set({ ...rest, ...(addUnread ? { unreadForAdmin: sql`${chatConversations.unreadForAdmin} + ${addUnread}` } : {}) })
    .where(eq(chatConversations.id, id));
}

/**
 * The visitor's widget was given the messages up to `seq` (its history, the stream, a poll): team replies up
 * to there are not mailed to them (./reply-mail.ts). Never moves back.
 */
export async function markSeenByVisitor(conversationId: string, seq: number, ex: Executor = db()) {
  await ex
    .update(chatConversations)
    .set({ visitorSeenSeq: seq })
    .where(and(eq(chatConversations.id, conversationId), lt(chatConversations.visitorSeenSeq, seq)));
}

/** Team replies the visitor's widget was not given yet (the launcher's unread mark). */
export async function unseenReplies(conversation: Pick<ConversationRow, 'id' | 'visitorSeenSeq'>, ex: Reader = db()): Promise<number> {
  const [row] = await ex
    .select({ n: count() })
    .from(chatMessages)
    .where(and(eq(chatMessages.conversationId, conversation.id), eq(chatMessages.author, 'admin'), gt(chatMessages.seq, conversation.visitorSeenSeq)));
  return Number(row?.n ?? 0);
}

/** Moves a visitor conversation to another browser's visitor id (a reply mail's link opened there). */
export async function rekeyConversation(conversationId: string, visitorKey: string, ex: Executor) {
  await ex.update(chatConversations).set({ visitorKey }).where(and(eq(chatConversations.id, conversationId), isNull(chatConversations.userId)));
}

// ---------------------------------------------------------------------------------------------------------
// Messages.

export interface MessageRow {
  seq: number;
  conversationId: string;
  author: string;
  adminId: string | null;
  body: string;
  sources: ChatSource[];
  createdAt: Date;
  /** The admin's first name (admin messages; null once the account is gone). */
  adminFirstName: string | null;
  adminName: string | null;
}

export async function insertMessage(
  ex: Executor,
  message: { conversationId: string; author: 'visitor' | 'assistant' | 'admin' | 'system'; body: string; adminId?: string | null; sources?: ChatSource[] },
): Promise<typeof chatMessages.$inferSelect> {
  const [row] = await ex
    .insert(chatMessages)
    .values({ conversationId: message.conversationId, author: message.author, body: message.body, adminId: message.adminId ?? null, sources: message.sources ?? [] })
    .returning();
  return row!;
}

const messageColumns = {
  seq: chatMessages.seq,
  conversationId: chatMessages.conversationId,
  author: chatMessages.author,
  adminId: chatMessages.adminId,
  body: chatMessages.body,
  sources: chatMessages.sources,
  createdAt: chatMessages.createdAt,
  adminFirstName: messageAdmin.firstName,
  adminName: messageAdmin.name,
};

/**
 * The conversation's messages after `afterSeq` (all when undefined), oldest first; at most `limit`, the
 * most recent ones when there are more.
 */
export async function listMessages(conversationId: string, options: { afterSeq?: number; limit: number }, ex: Reader = db()): Promise<MessageRow[]> {
  const where = and(eq(chatMessages.conversationId, conversationId), options.afterSeq !== undefined ? gt(chatMessages.seq, options.afterSeq) : undefined);
  const rows = await ex
    .select(messageColumns)
    .from(chatMessages)
    .leftJoin(messageAdmin, eq(messageAdmin.id, chatMessages.adminId))
    .where(where)
    .orderBy(desc(chatMessages.seq))
    .limit(options.limit);
  return rows.reverse();
}

export async function findMessage(seq: number, ex: Reader = db()): Promise<MessageRow | undefined> {
  const [row] = await ex.select(messageColumns).from(chatMessages).leftJoin(messageAdmin, eq(messageAdmin.id, chatMessages.adminId)).where(eq(chatMessages.seq, seq)).limit(1);
  return row;
}

// ---------------------------------------------------------------------------------------------------------
// The admin inbox.

const statusWhere = (status: ConversationStatus | 'all'): SQL | undefined => (status === 'all' ? undefined : eq(chatConversations.status, status));
const newestActivityFirst = [desc(chatConversations.lastMessageAt), desc(chatConversations.id)];

export async function listConversationViews(status: ConversationStatus | 'all', limit: number, offset: number, ex: Reader = db()) {
  const where = statusWhere(status);
  const [rows, [total]] = await Promise.all([
    views(ex)
      .where(where)
      .orderBy(...newestActivityFirst)
      .limit(limit)
      .offset(offset),
    ex.select({ n: count() }).from(chatConversations).where(where),
  ]);
  return { rows, total: total?.n ?? 0 };
}

/** Conversations with activity after `after` (the inbox's polling fallback), newest first. */
export async function listConversationViewsSince(after: Date | undefined, limit: number, ex: Reader = db()) {
  return views(ex)
    .where(after ? gt(chatConversations.lastMessageAt, after) : undefined)
    .orderBy(...newestActivityFirst)
    .limit(limit);
}

/**
 * Open conversations where the visitor waits for the team (the overview's Today): messages nobody on the
 * team has read, or the visitor wrote last (the team's and the assistant's answers count, the thank-you
 * after a contact form does not; in a chat an admin took over the assistant stays quiet, so only a person
 * answers). Newest activity first: a visitor who wrote a minute ago may still be on the site. The last
 * author is one probe of chat_messages_conversation_idx per open conversation that has nothing unread.
 */
const visitorWroteLast = sql`(select m.author from ${chatMessages} m where m.conversation_id = ${chatConversations.id} and m.author <> 'system' order by m.seq desc limit 1) = 'visitor'`;
export const waitingForTeam: SQL = and(eq(chatConversations.status, 'open'), or(gt(chatConversations.unreadForAdmin, 0), visitorWroteLast))!;

export async function listWaitingConversationViews(limit: number, ex: Reader = db()): Promise<{ rows: ConversationView[]; total: number }> {
  const rows = await views(ex, { total: sql<number>`count(*) over ()`.mapWith(Number) })
    .where(waitingForTeam)
    .orderBy(...newestActivityFirst)
    .limit(limit);
  return { rows: rows.map(({ total: _total, ...view }) => view), total: rows[0]?.total ?? 0 };
}

/** Visitor messages no admin has read yet, over every conversation. */
export async function unreadTotal(ex: Reader = db()): Promise<number> {
  const [row] = await ex.select({ n: sum(chatConversations.unreadForAdmin) }).from(chatConversations);
  return Number(row?.n ?? 0);
}

export async function findUserSummary(id: string, ex: Reader = db()) {
  const [row] = await ex.select({ id: users.id, email: users.email, name: users.name, firstName: users.firstName }).from(users).where(eq(users.id, id)).limit(1);
  return row;
}
