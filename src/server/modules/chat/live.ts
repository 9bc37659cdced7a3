/**
 * Publishing to the live hub, always AFTER the transaction that stored the change has committed: a
 * listener that reacts by reading the database finds what it was told about, and a rolled-back write is
 * never announced.
 */
import { getChatSettings } from './settings';
import { conversationState, displayNameOf, inboxConversation, messageDto, VISITOR_SELF } from './dto';
import { publishToConversation, publishToInbox } from './hub';
import { findConversationView, findMessage, type ConversationView } from './repository';

/** New messages (by seq) and the conversation's new state, to its widget and to the inbox. */
export async function publishChange(conversationId: string, messageSeqs: readonly number[] = [], options: { state?: boolean } = {}): Promise<ConversationView | undefined> {
  const [view, settings, ...messages] = await Promise.all([findConversationView(conversationId), getChatSettings(), ...messageSeqs.map((seq) => findMessage(seq))]);
  if (!view) return undefined;
  const visitorSide = { assistantName: settings.assistantName, visitorName: VISITOR_SELF };
  const adminSide = { assistantName: settings.assistantName, visitorName: displayNameOf(view) };
  for (const row of messages) {
    if (!row) continue;
    publishToConversation(conversationId, { event: 'message', data: messageDto(row, visitorSide) });
    publishToInbox({ event: 'message', data: { ...messageDto(row, adminSide), conversationId } });
  }
  if (options.state !== false) publishToConversation(conversationId, { event: 'state', data: conversationState(view) });
  publishToInbox({ event: 'conversation', data: inboxConversation(view) });
  return view;
}
