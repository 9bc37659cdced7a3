/**
 * The two live streams: one conversation's (the visitor's widget) and the whole inbox's (admins). A stream
 * opened by a signed-in account holds a live grant (docs/decisions/017): it ends when the account's role
 * changes, it is disabled, or its session ends; and every stream ends after its lifetime, so the browser's
 * reconnect runs the checks again.
 */
import { holdGrant, liveStreamCount, streamLifetimeMs, type LiveGrant, type StreamKind, type StreamViewer } from '../live-grants';
import { requireInboxAdmin } from './admin-http';
import { conversationState } from './dto';
import { ChatError } from './errors';
import { subscribeToConversation, subscribeToInbox } from './hub';
import { logger } from '../../logger';
import { findConversationView, type ConversationRow } from './repository';
import { conversationByToken, markSeen, messagesAfter } from './service';
import { sseResponse, type SseEvent, type SseSource } from './sse';
import { adminSignals } from '../today/service';

/**
 * Open visitor streams per client address: a person has a few tabs, an office behind one address a few
 * dozen; thousands from one address would only be someone holding the server's memory.
 */
export const MAX_STREAMS_PER_CLIENT = 50;
const openByClient = new Map<string, number>();
const log = logger.child({ module: 'chat-streams' });

/**
 * Open inbox streams per admin account (in this process): every admin page holds one (the admin live feed:
 * the title's count, the badges, the inbox), and an admin has a few admin tabs open; more is a leaked
 * script or a stolen session copying every chat as it arrives. A page refused one polls instead (its counts
 * stay current; alerts come from the tabs that stream).
 */
export const MAX_INBOX_STREAMS_PER_ADMIN = 10;
const INBOX_CAP_RETRY_SECONDS = 30;

/**
 * Registers the grant before `check` runs, so an end published during the check is not missed. An end
 * that arrives during the check means the check may have read the state before the change: it runs once
 * more, on a fresh grant; a second end in that moment is a refusal (the browser's next try starts over).
 */
async function withGrant(viewer: StreamViewer | null, kind: StreamKind, check: () => Promise<void>): Promise<LiveGrant | undefined> {
  for (let attempt = 1; ; attempt++) {
    const grant = viewer ? holdGrant({ ...viewer, kind }) : undefined;
    try {
      await check();
    } catch (err) {
      grant?.release();
      throw err;
    }
    if (!grant?.signal.aborted) return grant;
    grant.release();
    if (attempt === 2) throw new ChatError('FORBIDDEN', 'Your access changed while the stream was opening. Please reload the page.');
  }
}

/** The stream of a granted source: released with its grant, ended by it or by its lifetime. */
function grantedStream(source: SseSource, grant: LiveGrant | undefined, signal: AbortSignal): Response {
  return sseResponse(
    {
      ...source,
      onClose() {
        grant?.release();
        source.onClose?.();
      },
    },
    signal,
    { grantEnded: grant?.signal, maxLifetimeMs: streamLifetimeMs() },
  );
}

/**
 * GET /api/chat/stream: after a valid token, `message` events (id = seq) and `state` events. A member's
 * conversation opens only with that member's (or an admin's) session, and closes when that session ends.
 */
export async function conversationStream(
  conversationId: string,
  token: string,
  afterSeq: number | undefined,
  signal: AbortSignal,
  clientIp = 'unknown',
  viewer: StreamViewer | null = null,
): Promise<Response> {
  let conversation: ConversationRow | undefined;
  const grant = await withGrant(viewer, 'chat-conversation', async () => {
    conversation = (await conversationByToken(conversationId, token, viewer)).conversation;
  });
  // What this open widget is given counts as seen: those team replies are not mailed (./reply-mail.ts).
  const seen = (messages: readonly { seq: number }[]) => {
    if (!conversation) return;
    const at = conversation;
    markSeen(at, messages, viewer)
      .then(() => (at.visitorSeenSeq = Math.max(at.visitorSeenSeq, messages.at(-1)?.seq ?? 0)))
      .catch((err: unknown) => log.warn({ err, conversationId }, 'could not record what the widget was shown'));
  };
  const open = openByClient.get(clientIp) ?? 0;
  if (open >= MAX_STREAMS_PER_CLIENT) {
    grant?.release();
    throw new ChatError('RATE_LIMITED', 'Too many chat windows are open from your connection. Please close some and try again.', undefined, 30);
  }
  openByClient.set(clientIp, open + 1);
  return grantedStream(
    {
      onClose() {
        const left = (openByClient.get(clientIp) ?? 1) - 1;
        if (left > 0) openByClient.set(clientIp, left);
        else openByClient.delete(clientIp);
      },
      subscribe: (push) =>
        subscribeToConversation(conversationId, (e) => {
          if (e.event !== 'message') return push({ event: 'state', data: e.data });
          push({ event: 'message', data: e.data, id: e.data.seq });
          seen([e.data]);
        }),
      async initial() {
        const [view, replay] = await Promise.all([findConversationView(conversationId), afterSeq !== undefined ? messagesAfter(conversationId, afterSeq) : []]);
        const events: SseEvent[] = replay.map((m) => ({ event: 'message', data: m, id: m.seq }));
        seen(replay);
        if (view) events.push({ event: 'state', data: conversationState(view) });
        return events;
      },
    },
    grant,
    signal,
  );
}

/**
 * GET /api/admin/chat/stream, the admin live feed every admin page opens: `conversation` and `message`
 * events of every conversation, `signals` (the counts, first when it opens) and `alert`s of new chats and
 * leads, for a verified, enabled admin (checked here, not only by the route guard), at most
 * MAX_INBOX_STREAMS_PER_ADMIN at once (a page refused one polls instead).
 */
export async function inboxStream(viewer: { userId: string | undefined; sessionId: string | null }, signal: AbortSignal): Promise<Response> {
  const { userId } = viewer;
  if (!userId) throw new ChatError('FORBIDDEN', 'Only an admin can read the chat inbox.');
  if (liveStreamCount(userId, 'admin-inbox') >= MAX_INBOX_STREAMS_PER_ADMIN) {
    throw new ChatError(
      'RATE_LIMITED',
      `The chat inbox is already open in ${MAX_INBOX_STREAMS_PER_ADMIN} windows or tabs on your account. Close one of them and reload this page.`,
      undefined,
      INBOX_CAP_RETRY_SECONDS,
    );
  }
  const grant = await withGrant({ userId, sessionId: viewer.sessionId }, 'admin-inbox', () => requireInboxAdmin(userId));
  return grantedStream(
    {
      subscribe: (push) =>
        subscribeToInbox((e) => {
          if (e.event !== 'alert') return push({ event: e.event, data: e.data });
          // An admin is not alerted of their own doing (trying the chat or the form signed in).
          const { by, ...alert } = e.data;
          if (by !== userId) push({ event: 'alert', data: alert });
        }),
      // The counts as they are now: a page rendered a moment ago, or a stream that was away, is set right.
      initial: async () => [{ event: 'signals', data: await adminSignals() }],
    },
    grant,
    signal,
  );
}
