/**
 * One chat conversation as the admin works it (/admin/chat-settings/[conversationId]): every message as
 * text with its author, new ones live (the inbox feed, or polling the conversation when the feed polls),
 * the reply box (the visitor sees the reply at once; replying takes the conversation over and the assistant
 * stays quiet), "Hand back to the assistant", "Mark handled" / "Reopen". Opening it marks it read, and so
 * does each new visitor message while it is open and visible.
 */
import { actions } from 'astro:actions';
import { useCallback, useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { callAction, IDEMPOTENT_RETRY_MS } from '../../components/admin/call-action';
import { toast } from '../../components/admin/toasts';
import { useKeepTypedValues } from '../../components/forms/keep-typed-values';
import { CHAT_LIMITS, type ChatConversationState, type ChatMessageDto, type InboxConversationDto } from '../../shared/chat';
import { fresherConversation, replyReachText } from '../../shared/chat-inbox';
import { formatInZone } from '../../shared/dates';
import { isSitePath } from '../../shared/site-path';
import { FEED_MODE_LABELS, useInboxFeed } from './inbox-stream';

interface Props {
  conversation: InboxConversationDto;
  messages: ChatMessageDto[];
  /** The site's time zone (decision 032): the page header names it. */
  timeZone: string;
  /** How long a reply waits for the visitor's open chat before it is emailed to them (CHAT_REPLY_MAIL_DELAY_SECONDS). */
  replyMailDelaySeconds: number;
}


type Busy = 'reply' | 'release' | 'status' | undefined;

/** New messages into the list once each, in order (the feed and the Action's answer may both bring one). */
function mergeMessages(list: readonly ChatMessageDto[], incoming: readonly ChatMessageDto[]): ChatMessageDto[] {
  const seen = new Set(list.map((m) => m.seq));
  const added = incoming.filter((m) => !seen.has(m.seq));
  return added.length ? [...list, ...added].sort((a, b) => a.seq - b.seq) : [...list];
}

const bubble: Record<ChatMessageDto['author'], string> = {
  visitor: 'mr-auto rounded-tl-sm bg-slate-100 text-ink',
  assistant: 'ml-auto rounded-tr-sm border border-brand-100 bg-brand-50 text-ink',
  admin: 'ml-auto rounded-tr-sm bg-brand-700 text-white',
  system: 'mx-auto bg-transparent text-center text-slate-600 italic',
};
const AUTHOR_ROLE: Record<ChatMessageDto['author'], string> = { visitor: 'visitor', assistant: 'assistant', admin: 'team', system: '' };

function Message({ m, timeZone }: { m: ChatMessageDto; timeZone: string }) {
  return (
    <li className={`flex max-w-[85%] flex-col sm:max-w-[75%] ${m.author === 'visitor' ? 'mr-auto items-start' : m.author === 'system' ? 'mx-auto items-center' : 'ml-auto items-end'}`} data-message={m.seq} data-author={m.author}>
      {m.author !== 'system' && (
        <p className="mb-0.5 px-1 text-xs text-slate-600">
          {/* A visitor's name is their text: isolated, so a right-to-left name cannot reorder the time after it. */}
          <bdi className="font-semibold text-slate-700">{m.authorName}</bdi>
          {AUTHOR_ROLE[m.author] && <span> · {AUTHOR_ROLE[m.author]}</span>} · <time dateTime={m.createdAt}>{formatInZone(m.createdAt, timeZone, 'hour-minute')}</time>
        </p>
      )}
      <div dir="auto" className={`rounded-2xl px-3.5 py-2 text-sm break-words whitespace-pre-wrap ${bubble[m.author]}`} data-message-body>
        {m.body}
      </div>
      {m.sources.length > 0 && (
        <ul className="mt-1 flex flex-wrap justify-end gap-x-3 gap-y-1 px-1 text-xs">
          {m.sources.map((s, i) => (
            <li key={`${s.href}-${i}`}>
              {isSitePath(s.href) ? (
                <a href={s.href} target="_blank" rel="noopener" className="text-brand-700 underline underline-offset-2">
                  {s.title}
                  <span className="sr-only"> (opens in a new tab)</span>
                </a>
              ) : (
                <span className="text-slate-600">{s.title}</span>
              )}
            </li>
          ))}
        </ul>
      )}
    </li>
  );
}

export default function ConversationPanel({ conversation: initial, messages: initialMessages, timeZone, replyMailDelaySeconds }: Props) {
  const root = useRef<HTMLDivElement>(null);
  useKeepTypedValues(root);
  const id = initial.id;
  const [conversation, setConversation] = useState(initial);
  const [messages, setMessages] = useState(initialMessages);
  const [draft, setDraft] = useState('');
  const [replyError, setReplyError] = useState<string | undefined>();
  const [busy, setBusy] = useState<Busy>();
  const [announcement, setAnnouncement] = useState('');
  const streamToken = useRef<string | undefined>(undefined);
  const listRef = useRef<HTMLElement>(null);
  const replyId = useId();
  const lastSeq = messages.at(-1)?.seq ?? 0;
  // Actions' answers and the live feed both bring the conversation; an answer read before a change the feed
  // has already shown must not take it back.
  const showConversation = useCallback((incoming: InboxConversationDto) => setConversation((current) => fresherConversation(current, incoming)), []);

  const markRead = useCallback(async () => {
    const outcome = await callAction<{ state: ChatConversationState; conversation: InboxConversationDto }>(() => actions.admin.chat.markRead({ conversationId: id }), { retryForMs: IDEMPOTENT_RETRY_MS });
    if (outcome.ok) {
      streamToken.current = outcome.data.state.streamToken;
      showConversation(outcome.data.conversation);
    }
  }, [id, showConversation]);

  // Opening the conversation reads it.
  useEffect(() => void markRead(), [markRead]);

  // A new visitor message while the admin looks at the conversation is read too (once the tab is visible).
  const unreadPending = useRef(false);
  useEffect(() => {
    const onVisible = () => {
      if (document.visibilityState === 'visible' && unreadPending.current) {
        unreadPending.current = false;
        void markRead();
      }
    };
    document.addEventListener('visibilitychange', onVisible);
    return () => document.removeEventListener('visibilitychange', onVisible);
  }, [markRead]);

  const receive = useCallback(
    (incoming: ChatMessageDto[]) => {
      if (!incoming.length) return;
      setMessages((list) => mergeMessages(list, incoming));
      const fromVisitor = incoming.filter((m) => m.author === 'visitor');
      const last = fromVisitor.at(-1);
      if (last) {
        setAnnouncement(`${last.authorName}: ${last.body}`);
        if (document.visibilityState === 'visible') void markRead();
        else unreadPending.current = true;
      }
    },
    [markRead],
  );

  /** The polling fallback: the conversation's own poll (its stream token came with markRead). */
  const pollMessages = useCallback(async () => {
    if (!streamToken.current) return;
    const res = await fetch(`/api/chat/poll?c=${encodeURIComponent(id)}&t=${encodeURIComponent(streamToken.current)}&after=${lastSeq}`).catch(() => undefined);
    if (!res?.ok) return;
    const body = (await res.json()) as { messages: ChatMessageDto[] };
    // That poll speaks to the visitor ("You"); the inbox names them.
    receive(body.messages.map((m) => (m.author === 'visitor' ? { ...m, authorName: conversation.displayName } : m)));
  }, [conversation.displayName, id, lastSeq, receive]);

  const mode = useInboxFeed({
    onConversation(c) {
      if (c.id !== id) return;
      showConversation(c);
      if (mode === 'polling') void pollMessages();
    },
    onMessage(m) {
      if (m.conversationId !== id) return;
      const { conversationId: _ignored, ...message } = m;
      receive([message]);
    },
  });

  // Keep the newest message in view: inside the thread's own scroll box on wide screens; on a phone the
  // thread is part of the page and the reply box sticks to the bottom of the screen (as in Crisp or
  // Intercom), so the page opens at the newest message, and follows new ones while the admin is there.
  const composerRef = useRef<HTMLFormElement>(null);
  const endRef = useRef<HTMLDivElement>(null);
  const followsEnd = useRef(true);
  // Counts the admin's own sent replies: each brings the newest message into view, even when the live stream
  // delivered that message before the reply's own answer did (the thread's length then no longer changes).
  const [repliesSent, setRepliesSent] = useState(0);
  useEffect(() => {
    const onScroll = () => {
      const end = endRef.current?.getBoundingClientRect().bottom ?? 0;
      followsEnd.current = end <= window.innerHeight - (composerRef.current?.offsetHeight ?? 0) + 80;
    };
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, []);
  useEffect(() => {
    const list = listRef.current;
    if (!list) return;
    if (list.scrollHeight > list.clientHeight) {
      list.scrollTop = list.scrollHeight;
      return;
    }
    const end = endRef.current?.getBoundingClientRect().bottom;
    const visibleBottom = window.innerHeight - (composerRef.current?.offsetHeight ?? 0);
    if (end !== undefined && end > visibleBottom && followsEnd.current) window.scrollBy({ top: end - visibleBottom + 8, behavior: 'instant' });
  }, [messages.length, repliesSent]);

  async function sendReply() {
    const body = draft.trim();
    if (!body) {
      setReplyError('Write a reply first.');
      return;
    }
    if (Array.from(body).length > CHAT_LIMITS.message) {
      setReplyError(`A reply can be at most ${CHAT_LIMITS.message} characters.`);
      return;
    }
    setBusy('reply');
    setReplyError(undefined);
    const outcome = await callAction<{ message: ChatMessageDto; conversation: InboxConversationDto }>(() => actions.admin.chat.reply({ conversationId: id, body }));
    setBusy(undefined);
    if (!outcome.ok) {
      if (outcome.kind === 'invalid') setReplyError(outcome.fieldErrors.body ?? outcome.message);
      else toast('error', outcome.message);
      return;
    }
    setDraft('');
    // Their own reply brings the newest message into view, wherever they had scrolled to.
    followsEnd.current = true;
    setRepliesSent((n) => n + 1);
    showConversation(outcome.data.conversation);
    setMessages((list) => mergeMessages(list, [outcome.data.message]));
  }

  async function release() {
    setBusy('release');
    const outcome = await callAction<{ conversation: InboxConversationDto }>(() => actions.admin.chat.release({ conversationId: id }), { retryForMs: IDEMPOTENT_RETRY_MS });
    setBusy(undefined);
    if (!outcome.ok) return toast('error', outcome.message);
    showConversation(outcome.data.conversation);
    toast('success', 'Handed back: the assistant answers again.');
  }

  async function setStatus(status: 'open' | 'handled') {
    setBusy('status');
    const outcome = await callAction<{ conversation: InboxConversationDto }>(() => actions.admin.chat.setStatus({ conversationId: id, status }), { retryForMs: IDEMPOTENT_RETRY_MS });
    setBusy(undefined);
    if (!outcome.ok) return toast('error', outcome.message);
    showConversation(outcome.data.conversation);
    toast('success', status === 'handled' ? 'Marked handled.' : 'Reopened.');
  }

  const onReplyKey = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      void sendReply();
    }
  };

  const length = Array.from(draft).length;
  const button = 'inline-flex h-10 items-center justify-center rounded-lg px-4 text-sm font-semibold disabled:opacity-60';

  return (
    <div ref={root} className="space-y-4" data-conversation={id}>
      <div className="flex flex-wrap items-center gap-2 rounded-2xl border border-slate-200 bg-white p-3 shadow-sm sm:p-4">
        <p className="mr-auto flex flex-wrap items-center gap-2 text-sm" data-conversation-state>
          <span className={`rounded-full px-2 py-0.5 text-xs font-semibold ${conversation.status === 'handled' ? 'bg-slate-100 text-slate-700' : 'bg-green-100 text-green-900'}`}>
            {conversation.status === 'handled' ? 'Handled' : 'Open'}
          </span>
          <span className="text-slate-700">{conversation.takenOverBy ? `${conversation.takenOverBy} is answering: the assistant stays quiet.` : 'The assistant answers.'}</span>
          <span className="flex items-center gap-1.5 text-xs text-slate-600" data-feed={mode}>
            <span aria-hidden="true" className={`inline-block h-2 w-2 rounded-full ${mode === 'live' ? 'bg-green-600' : mode === 'polling' ? 'bg-amber-500' : 'bg-slate-400'}`} />
            {FEED_MODE_LABELS[mode]}
          </span>
        </p>
        {conversation.takenOverBy && (
          <button type="button" onClick={() => void release()} disabled={busy !== undefined} className={`${button} border border-slate-300 bg-white text-ink hover:bg-slate-50`}>
            Hand back to the assistant
          </button>
        )}
        {conversation.status === 'open' ? (
          <button type="button" onClick={() => void setStatus('handled')} disabled={busy !== undefined} className={`${button} border border-slate-300 bg-white text-ink hover:bg-slate-50`}>
            Mark handled
          </button>
        ) : (
          <button type="button" onClick={() => void setStatus('open')} disabled={busy !== undefined} className={`${button} border border-slate-300 bg-white text-ink hover:bg-slate-50`}>
            Reopen
          </button>
        )}
      </div>

      {conversation.contactEmail && !initial.contactEmail && (
        <p role="status" className="rounded-lg border border-brand-100 bg-brand-50 px-4 py-3 text-sm text-brand-900" data-contact-arrived>
          <bdi>{conversation.displayName}</bdi> left their contact details ({conversation.contactEmail}).{' '}
          <a href={`/admin/chat-settings/${encodeURIComponent(id)}`} className="font-semibold underline">
            Reload to see them with the lead’s links
          </a>
        </p>
      )}

      <section ref={listRef} aria-label="Messages" tabIndex={0} className="min-h-48 rounded-2xl border border-slate-200 bg-white p-3 shadow-sm sm:p-4 lg:max-h-[60vh] lg:overflow-y-auto" data-messages>
        {messages.length === 0 ? (
          <p className="py-8 text-center text-sm text-slate-600">No messages yet.</p>
        ) : (
          <ol className="flex flex-col gap-3">
            {messages.map((m) => (
              <Message key={m.seq} m={m} timeZone={timeZone} />
            ))}
          </ol>
        )}
        <div ref={endRef} aria-hidden="true" />
      </section>
      <div aria-live="polite" className="sr-only" data-conversation-announcement>
        {announcement}
      </div>

      {/* Sticks to the bottom of the screen while the thread scrolls above it. */}
      <form
        ref={composerRef}
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void sendReply();
        }}
        className="sticky bottom-0 z-10 rounded-2xl border border-slate-200 bg-white p-3 shadow-[0_-6px_16px_-8px_rgba(15,23,42,0.18)] sm:p-4"
        data-composer
      >
        <div className="mb-1.5 flex items-baseline justify-between gap-3">
          <label htmlFor={replyId} className="text-sm font-medium text-slate-800">
            Your reply
          </label>
          <span className={`text-xs ${length > CHAT_LIMITS.message ? 'font-semibold text-red-700' : 'text-slate-600'}`} data-reply-length>
            {length} / {CHAT_LIMITS.message}
            <span className="sr-only"> characters</span>
          </span>
        </div>
        <div className="flex items-end gap-2">
          <textarea
            id={replyId}
            value={draft}
            onChange={(e) => {
              setDraft(e.target.value);
              setReplyError(undefined);
            }}
            onKeyDown={onReplyKey}
            rows={2}
            aria-invalid={replyError ? true : undefined}
            aria-describedby={`${replyId}-help`}
            className="block max-h-40 min-h-12 w-full flex-1 resize-y rounded-lg border border-slate-300 bg-white px-3 py-2 text-base leading-6 text-ink shadow-sm focus:border-brand-600 focus:outline-2 focus:outline-offset-0 focus:outline-brand-600 aria-[invalid=true]:border-red-600 sm:text-sm lg:min-h-20"
          />
          <button type="submit" disabled={busy !== undefined} className={`${button} flex-none bg-brand-600 text-white hover:bg-brand-700`}>
            {busy === 'reply' ? 'Sending…' : 'Send reply'}
          </button>
        </div>
        <p id={`${replyId}-help`} className={replyError ? 'mt-1 text-sm text-red-700' : 'mt-1 text-xs text-slate-600'} data-reply-help>
          {replyError ??
            `${replyReachText(conversation.contactEmail, replyMailDelaySeconds)}${conversation.takenOverBy ? '' : ' The assistant stays quiet until you hand the conversation back.'} Ctrl+Enter sends.`}
        </p>
      </form>
    </div>
  );
}
