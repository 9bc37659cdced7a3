/**
 * The alerts of the admin live feed (issue 35): a new visitor message, a new audit request, a new chat
 * lead, in words an admin's desktop notification can show as they are (text, never markup; bidi controls
 * removed like everywhere a visitor's words are shown). `by` is the account whose own action it was.
 */
import { withoutBidiControls } from '../../../shared/text-controls';
import type { FeedAlert } from '../chat/hub';
import { displayNameOf } from '../chat/dto';
import type { ConversationView, MessageRow } from '../chat/repository';
import type { AuditRequestRow } from '../audit/repository';

/** A notification shows two or three lines: the rest of a long message is on its page. */
const BODY_LENGTH = 140;

const oneLine = (text: string) => {
  const line = withoutBidiControls(text).replace(/\s+/g, ' ').trim();
  const chars = Array.from(line);
  return chars.length > BODY_LENGTH ? `${chars.slice(0, BODY_LENGTH - 1).join('')}…` : line;
};

const conversationHref = (id: string) => `/admin/chat-settings/${encodeURIComponent(id)}`;

export function chatMessageAlert(view: ConversationView, message: Pick<MessageRow, 'seq' | 'body'>): FeedAlert {
  const c = view.conversation;
  return {
    id: `chat-message:${message.seq}`,
    kind: 'chat-message',
    title: 'New chat message',
    body: oneLine(`${displayNameOf(view)}: ${message.body}`),
    href: conversationHref(c.id),
    conversationId: c.id,
    by: c.userId,
  };
}

export function chatLeadAlert(view: ConversationView): FeedAlert {
  const c = view.conversation;
  return {
    id: `chat-lead:${c.id}:${(c.contactAt ?? c.lastMessageAt).getTime()}`,
    kind: 'chat-lead',
    title: 'New chat lead',
    body: oneLine(`${displayNameOf(view)} (${c.contactEmail})${c.contactMessage ? `: ${c.contactMessage}` : ''}`),
    href: conversationHref(c.id),
    conversationId: c.id,
    by: c.userId,
  };
}

export function auditRequestAlert(request: Pick<AuditRequestRow, 'id' | 'fullName' | 'businessName' | 'userId'>): FeedAlert {
  return {
    id: `audit-request:${request.id}`,
    kind: 'audit-request',
    title: 'New audit request',
    body: oneLine(`${request.fullName} (${request.businessName})`),
    href: `/admin/audit/${encodeURIComponent(request.id)}`,
    by: request.userId,
  };
}
