/**
 * Rows → the shapes of src/shared/chat.ts. The same message reads differently to the two sides: the visitor
 * sees their own lines as "You", the inbox sees the visitor's name. What a visitor typed leaves here without
 * bidi controls (stored as typed; shown neutralised, and isolated by the markup), so a message or an older
 * name cannot reorder the inbox row or the page around it.
 */
import type { ChatAuthor, ChatConversationState, ChatMessageDto, InboxConversationDto } from '../../../shared/chat';
import { withoutBidiControls } from '../../../shared/text-controls';
import { streamTokenFor } from './identity';
import type { ConversationView, MessageRow } from './repository';

export const PREVIEW_LENGTH = 140;
/** An admin whose account is gone still signed their replies as the team. */
const FORMER_ADMIN = 'Support';

export interface Perspective {
  assistantName: string;
  /** "You" for the visitor, their display name for the inbox. */
  visitorName: string;
}

const isAuthor = (a: string): a is ChatAuthor => a === 'visitor' || a === 'assistant' || a === 'admin' || a === 'system';

export const adminFirstName = (firstName: string | null, name: string | null) => firstName?.trim() || name?.trim().split(/\s+/)[0] || FORMER_ADMIN;

export function messageDto(row: MessageRow, p: Perspective): ChatMessageDto {
  const author: ChatAuthor = isAuthor(row.author) ? row.author : 'system';
  const authorName =
    author === 'visitor' ? p.visitorName : author === 'assistant' ? p.assistantName : author === 'admin' ? adminFirstName(row.adminFirstName, row.adminName) : '';
  return { seq: row.seq, author, authorName, body: withoutBidiControls(row.body), sources: row.sources, createdAt: row.createdAt.toISOString() };
}

export function conversationState(view: ConversationView): ChatConversationState {
  const c = view.conversation;
  const takenOver = c.takenOverBy !== null;
  return {
    id: c.id,
    streamToken: streamTokenFor(c.id),
    takenOver,
    agentName: takenOver ? adminFirstName(view.agentFirstName, view.agentName) : '',
    hasContact: c.contactEmail !== '',
  };
}

/** The contact's name, else the member's, else "Visitor" and the start of the conversation id. */
export function displayNameOf(view: ConversationView): string {
  return withoutBidiControls(view.conversation.contactName || view.memberName?.trim() || `Visitor ${view.conversation.id.slice(0, 4)}…`);
}

const previewOf = (body: string | null) => {
  const oneLine = withoutBidiControls(body ?? '').replace(/\s+/g, ' ').trim();
  return Array.from(oneLine).slice(0, PREVIEW_LENGTH).join('');
};

export function inboxConversation(view: ConversationView): InboxConversationDto {
  const c = view.conversation;
  return {
    id: c.id,
    status: c.status === 'handled' ? 'handled' : 'open',
    contactName: withoutBidiControls(c.contactName),
    contactEmail: c.contactEmail,
    displayName: displayNameOf(view),
    unread: c.unreadForAdmin,
    // The admin's name as the inbox shows it ("Taken over by Alex").
    takenOverBy: c.takenOverBy ? adminFirstName(view.agentFirstName, view.agentName) : null,
    lastMessageAt: c.lastMessageAt.toISOString(),
    preview: previewOf(view.lastVisitorWords),
  };
}

export const VISITOR_SELF = 'You';
