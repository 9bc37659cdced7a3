/**
 * Publishing to the live hub, always AFTER the transaction that stored the change has committed: a
 * listener that reacts by reading the database finds what it was told about, and a rolled-back write is
 * never announced. Other server processes are sent a reference (the conversation and the messages' seqs,
 * never the text: a NOTIFY carries under 8000 bytes) and read the rows themselves — only when someone
 * there is listening (docs/decisions/022).
 */
import { onEvent, publish } from '../../events/bus';
import { getChatSettings } from './settings';
import { conversationState, displayNameOf, inboxConversation, messageDto, VISITOR_SELF } from './dto';
import { conversationListenerCount, inboxListenerCount, publishToConversation, publishToInbox } from './hub';
import { findConversationView, findMessage, type ConversationView } from './repository';
import { chatMessageAlert } from '../today/alerts';
import { refreshSignals } from '../today/live';

interface ChangeRef {
  conversationId: string;
  seqs: number[];
  state: boolean;
}

const CHANGE_TOPIC = 'chat.change';
/** Seqs per event: a few hundred bytes, far below the NOTIFY limit however many messages one change stores. */
const SEQS_PER_EVENT = 200;

/** Reads the change and hands it to this process's listeners. */
async function relay({ conversationId, seqs, state }: ChangeRef): Promise<ConversationView | undefined> {
  const [view, settings, ...messages] = await Promise.all([findConversationView(conversationId), getChatSettings(), ...seqs.map((seq) => findMessage(seq))]);
  if (!view) return undefined;
  const visitorSide = { assistantName: settings.assistantName, visitorName: VISITOR_SELF };
  const adminSide = { assistantName: settings.assistantName, visitorName: displayNameOf(view) };
  for (const row of messages) {
    if (!row) continue;
    publishToConversation(conversationId, { event: 'message', data: messageDto(row, visitorSide) });
    publishToInbox({ event: 'message', data: { ...messageDto(row, adminSide), conversationId } });
    if (row.author === 'visitor') publishToInbox({ event: 'alert', data: chatMessageAlert(view, row) });
  }
  if (state) publishToConversation(conversationId, { event: 'state', data: conversationState(view) });
  publishToInbox({ event: 'conversation', data: inboxConversation(view) });
  // The unread and open counts every admin page shows (the title, the badges, the inbox's summary).
  void refreshSignals();
  return view;
}

// Another process's change: read only where a widget of that conversation or an inbox is open.
onEvent<ChangeRef>(CHANGE_TOPIC, async (ref) => {
  if (conversationListenerCount(ref.conversationId) === 0 && inboxListenerCount() === 0) return;
  await relay(ref);
});

/** New messages (by seq) and the conversation's new state, to its widget and to the inbox, on every process. */
export async function publishChange(conversationId: string, messageSeqs: readonly number[] = [], options: { state?: boolean } = {}): Promise<ConversationView | undefined> {
  const state = options.state !== false;
  const view = await relay({ conversationId, seqs: [...messageSeqs], state });
  if (!view) return undefined;
  // This process's listeners had it from the rows just read; the others read it themselves.
  for (let i = 0; i === 0 || i < messageSeqs.length; i += SEQS_PER_EVENT) {
    await publish(CHANGE_TOPIC, { conversationId, seqs: messageSeqs.slice(i, i + SEQS_PER_EVENT), state } satisfies ChangeRef, { here: false });
  }
  return view;
}
