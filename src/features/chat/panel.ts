/**
 * The chat panel, loaded only when the visitor opens the chat (launcher.ts imports it on demand). A modal
 * dialog: focus stays inside, Escape or the close button closes it and returns focus to the launcher, and a
 * polite live region reads out what the assistant or a person says. Full-screen on phones, a card above the
 * launcher from 640 px. Everything people typed is rendered as text.
 */
import type { ChatConversationState, ChatMessageDto, PublicChatConfig } from '../../shared/chat';
import { loadSession, rememberConversation, resumeConversation, sendContact, sendMessage } from './client';
import { el, icon, ICONS, tabbables } from './dom';
import { listen } from './live';
import { contactErrors, lastSeq, mergeMessages, MESSAGE_LIMIT, showCounter } from './rules';
import { contactForm, messageItem, quickReplyList, type ContactForm } from './view';

export const OPEN_STORAGE_KEY = 'chat.open';

export interface ChatPanel {
  open: (options?: { restore?: boolean }) => void;
  /** Opens the conversation of a reply mail's link (its token) in this browser. */
  resume: (token: string) => Promise<void>;
  close: () => void;
  toggle: () => void;
}

function remember(open: boolean) {
  try {
    if (open) sessionStorage.setItem(OPEN_STORAGE_KEY, '1');
    else sessionStorage.removeItem(OPEN_STORAGE_KEY);
  } catch {
    // Storage blocked: the panel simply does not reopen on the next page.
  }
}

export function createPanel(config: PublicChatConfig, launcher: HTMLButtonElement): ChatPanel {
  // ---- state
  let messages: ChatMessageDto[] = [];
  let conversation: ChatConversationState | null = null;
  let online = true;
  let offlineMessage = '';
  let loaded = false;
  let loading: Promise<void> | undefined;
  let busy = false;
  let pending: { body: string; answer: string | null } | null = null;
  let contactWanted = false;
  let contactBusy = false;
  let stopLive: (() => void) | undefined;
  let liveFor = '';
  let isOpen = false;

  // ---- elements
  const title = el('h2', { id: 'chat-panel-title', class: 'truncate text-base font-semibold' }, config.assistantName);
  const status = el('p', { class: 'truncate text-xs text-white/90', 'data-chat-status': true });
  const closeButton = el(
    'button',
    { type: 'button', class: 'inline-flex h-10 w-10 flex-none items-center justify-center rounded-full text-white hover:bg-white/15 focus-visible:outline-white', 'aria-label': 'Close chat' },
    icon(ICONS.close),
  );
  const joined = el('p', { class: 'flex items-center gap-2 border-b border-emerald-200 bg-emerald-50 px-4 py-2 text-sm font-medium text-emerald-900', hidden: true, 'data-chat-joined': true });
  const list = el('ol', { class: 'flex flex-col gap-3', 'data-chat-messages': true });
  const typing = el('p', { class: 'px-1 text-xs text-slate-600', hidden: true }, `${config.assistantName} is typing…`);
  const contactSlot = el('div');
  const conversationArea = el(
    'section',
    { class: 'relative flex flex-1 flex-col gap-3 overflow-y-auto overscroll-contain px-4 py-4', 'aria-label': 'Conversation', tabindex: '0' },
    list,
    typing,
    contactSlot,
  );
  const live = el('div', { class: 'sr-only', 'aria-live': 'polite', 'data-chat-live': true });
  const error = el('p', { class: 'mx-4 mb-2 rounded-lg bg-red-50 px-3 py-2 text-sm text-red-800', role: 'alert', hidden: true, 'data-chat-error': true });
  const input = el('textarea', {
    id: 'chat-input',
    rows: '2',
    maxlength: String(MESSAGE_LIMIT),
    placeholder: 'Type your question…',
    class: 'block max-h-32 min-h-11 w-full resize-none rounded-xl border border-slate-300 bg-white px-3 py-2 text-sm text-ink placeholder:text-slate-500 focus-visible:border-(--chat-accent)',
    'aria-describedby': 'chat-input-hint',
  });
  const counter = el('span', { id: 'chat-input-counter', class: 'tabular-nums', hidden: true });
  const sendButton = el(
    'button',
    { type: 'submit', class: 'inline-flex h-11 flex-none items-center gap-1.5 rounded-xl bg-(--chat-accent) px-3.5 text-sm font-semibold text-white hover:opacity-90 disabled:opacity-60' },
    icon(ICONS.send, 'h-4 w-4'),
    'Send',
  );
  const contactToggle = el('button', { type: 'button', class: 'font-medium text-slate-700 underline underline-offset-2 hover:text-ink' }, 'Leave your details for a person');
  const composer = el(
    'form',
    { class: 'border-t border-slate-200 bg-white px-4 pt-3 pb-[max(0.75rem,env(safe-area-inset-bottom))]', 'data-chat-composer': true },
    el('label', { for: 'chat-input', class: 'sr-only' }, 'Your message'),
    el('div', { class: 'flex items-end gap-2' }, input, sendButton),
    el('p', { id: 'chat-input-hint', class: 'mt-1.5 flex items-center justify-between gap-2 text-xs text-slate-600' }, el('span', {}, contactToggle), counter),
  );
  const dialog = el(
    'div',
    {
      id: 'chat-panel',
      role: 'dialog',
      'aria-modal': 'true',
      'aria-labelledby': 'chat-panel-title',
      tabindex: '-1',
      hidden: true,
      class:
        'fixed inset-0 z-50 flex flex-col overflow-hidden bg-white text-ink shadow-2xl focus:outline-none sm:inset-auto sm:right-6 sm:bottom-24 sm:h-[min(40rem,calc(100dvh-8rem))] sm:w-96 sm:rounded-2xl sm:border sm:border-slate-200',
      'data-chat-panel': true,
    },
    // A div, not <header>: a header here would be a second banner landmark for the page.
    el(
      'div',
      { class: 'flex items-center gap-3 bg-(--chat-accent) py-3 pr-2 pl-4 text-white' },
      el('span', { class: 'inline-flex h-9 w-9 flex-none items-center justify-center rounded-full bg-white/15' }, icon(ICONS.person)),
      el('div', { class: 'min-w-0 flex-1' }, title, status),
      closeButton,
    ),
    joined,
    conversationArea,
    error,
    composer,
    live,
  );
  // Clear, not dimmed (a dimmed page fails contrast checks): a click beside the card closes it, as Escape does.
  const backdrop = el('div', { class: 'fixed inset-0 z-40', hidden: true, 'data-chat-backdrop': true });
  document.body.append(backdrop, dialog);

  let contact: ContactForm | undefined;

  // ---- rendering
  const showError = (text: string) => {
    error.textContent = text;
    error.hidden = text === '';
  };

  const announce = (text: string) => {
    live.append(el('p', {}, text));
    while (live.childElementCount > 3) live.firstElementChild?.remove();
  };

  /** Shows the newest message; with the contact form open below it, the message's end rather than the form's. */
  const scrollToEnd = () => {
    const last = list.lastElementChild as HTMLElement | null;
    conversationArea.scrollTop = contact && last ? last.offsetTop + last.offsetHeight + 16 - conversationArea.clientHeight : conversationArea.scrollHeight;
  };

  const needsContact = () => !conversation?.hasContact && (contactWanted || !online || (config.askContact === 'at-start' && messages.length === 0 && loaded));

  function renderStatus() {
    const person = conversation?.takenOver ? conversation.agentName || 'A person' : '';
    status.textContent = person ? `${person} is answering` : online ? 'Ask us anything' : 'Away right now';
    joined.replaceChildren(icon(ICONS.person, 'h-4 w-4 flex-none'), conversation?.takenOver ? `A person has joined: ${conversation.agentName || 'our team'}` : '');
    joined.hidden = !conversation?.takenOver;
  }

  function renderContact() {
    const show = needsContact();
    contactToggle.hidden = show || Boolean(conversation?.hasContact);
    if (!show) {
      contact?.form.remove();
      contact = undefined;
      return;
    }
    if (!contact) {
      contact = contactForm(() => void submitContact());
      contactSlot.replaceChildren(contact.form);
    }
  }

  // Rendered messages by seq: a re-render keeps the nodes already shown, so focus on a link stays put.
  const rendered = new Map<string, HTMLElement>();
  const keyed = (key: string, make: () => HTMLElement) => {
    let node = rendered.get(key);
    if (!node) rendered.set(key, (node = make()));
    return node;
  };

  function renderMessages() {
    const items: HTMLElement[] = [keyed('greeting', () => messageItem({ author: 'assistant', authorName: config.assistantName, body: config.greeting, sources: [] }))];
    if (!online && offlineMessage) items.push(keyed('offline', () => messageItem({ author: 'system', authorName: '', body: offlineMessage, sources: [] })));
    if (messages.length === 0 && !pending) {
      const replies = keyed('quick', () => el('li', {}, quickReplyList(config.quickReplies, (value) => void send(value))));
      if (replies.firstChild) items.push(replies);
    }
    for (const m of messages) items.push(keyed(`m${m.seq}`, () => messageItem(m)));
    if (pending) {
      items.push(messageItem({ author: 'visitor', authorName: '', body: pending.body, sources: [] }, true));
      if (pending.answer) items.push(messageItem({ author: 'assistant', authorName: config.assistantName, body: pending.answer, sources: [] }, true));
    }
    const hadFocus = dialog.contains(document.activeElement);
    // Keep the unchanged beginning of the list in place; replace only from the first difference.
    const current = [...list.children];
    let same = 0;
    while (same < items.length && current[same] === items[same]) same++;
    for (const stale of current.slice(same)) stale.remove();
    list.append(...items.slice(same));
    typing.hidden = !(pending && !pending.answer && !conversation?.takenOver);
    conversationArea.setAttribute('aria-busy', busy ? 'true' : 'false');
    sendButton.disabled = busy;
    renderStatus();
    renderContact();
    scrollToEnd();
    // A removed node (the streamed draft) took the focus with it: put it back in the message box.
    if (isOpen && hadFocus && !dialog.contains(document.activeElement)) input.focus();
  }

  function renderCounter() {
    const length = input.value.length;
    counter.hidden = !showCounter(length);
    counter.textContent = `${length} / ${MESSAGE_LIMIT}`;
  }

  // ---- data
  /** Adds messages; reads out the new ones someone else wrote (history loads stay quiet). */
  function receive(incoming: readonly ChatMessageDto[], quiet = false) {
    const known = new Set(messages.map((m) => m.seq));
    messages = mergeMessages(messages, incoming);
    if (!quiet) {
      for (const m of incoming) if (!known.has(m.seq) && m.author !== 'visitor') announce(m.authorName ? `${m.authorName}: ${m.body}` : m.body);
    }
    renderMessages();
  }

  function setConversation(next: ChatConversationState) {
    const joinedNow = next.takenOver && !conversation?.takenOver;
    if (!conversation) rememberConversation();
    conversation = next;
    if (joinedNow && loaded) announce(`A person has joined: ${next.agentName || 'our team'}`);
    startLive();
  }

  function startLive() {
    if (!isOpen || !conversation || liveFor === conversation.id) return;
    stopLive?.();
    liveFor = conversation.id;
    stopLive = listen(conversation, {
      after: () => lastSeq(messages),
      onMessages: (incoming) => receive(incoming),
      onState: (state) => {
        setConversation(state);
        renderMessages();
      },
    });
  }

  function stopListening() {
    stopLive?.();
    stopLive = undefined;
    liveFor = '';
  }

  function load(): Promise<void> {
    loading ??= loadSession().then((result) => {
      if (!result.ok) {
        loading = undefined;
        showError(result.message);
        return;
      }
      online = result.data.online;
      offlineMessage = result.data.offlineMessage;
      if (result.data.conversation) setConversation(result.data.conversation);
      loaded = true;
      receive(result.data.messages, true);
    });
    return loading;
  }

  async function send(text: string) {
    const body = text.trim();
    if (busy) return;
    if (!body) {
      showError('Type your question first.');
      input.focus();
      return;
    }
    showError('');
    busy = true;
    pending = { body, answer: null };
    input.value = '';
    renderCounter();
    renderMessages();
    const result = await sendMessage(body, (soFar) => {
      if (!pending) return;
      pending.answer = soFar;
      renderMessages();
    });
    busy = false;
    pending = null;
    if (result.ok) {
      setConversation(result.data.conversation);
      if (result.data.askContact) contactWanted = true;
      receive(result.data.messages);
      if (needsContact()) contact?.first().focus();
    } else {
      // Nothing typed is lost: the message goes back into the box.
      if (!input.value) input.value = body;
      renderCounter();
      renderMessages();
      showError(result.message);
    }
  }

  async function submitContact() {
    if (!contact || contactBusy) return;
    const values = contact.values();
    const errors = contactErrors(values);
    contact.showErrors(errors);
    if (Object.keys(errors).length > 0) {
      contact.first().focus();
      return;
    }
    contactBusy = true;
    contact.setBusy(true);
    showError('');
    const result = await sendContact({ name: values.name, email: values.email, ...(values.message ? { message: values.message } : {}), ...(values.followUps ? { followUps: true } : {}) });
    contactBusy = false;
    contact?.setBusy(false);
    if (result.ok) {
      contactWanted = false;
      setConversation(result.data.conversation);
      receive(result.data.messages);
      input.focus();
      return;
    }
    if (result.fieldErrors && contact) {
      contact.showErrors(result.fieldErrors);
      contact.first().focus();
    }
    showError(result.message);
  }

  // ---- events
  composer.addEventListener('submit', (e) => {
    e.preventDefault();
    void send(input.value);
  });
  input.addEventListener('keydown', (e) => {
    // Enter sends, Shift+Enter starts a new line (and an IME composing text keeps its Enter).
    if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
      e.preventDefault();
      void send(input.value);
    }
  });
  input.addEventListener('input', renderCounter);
  contactToggle.addEventListener('click', () => {
    contactWanted = true;
    renderMessages();
    contact?.first().focus();
  });
  closeButton.addEventListener('click', () => close());
  backdrop.addEventListener('click', () => close());
  dialog.addEventListener('keydown', (e) => {
    if (e.key === 'Escape') {
      e.preventDefault();
      close();
      return;
    }
    if (e.key !== 'Tab') return;
    const stops = tabbables(dialog);
    const first = stops[0];
    const last = stops[stops.length - 1];
    if (!first || !last) return;
    if (e.shiftKey && (document.activeElement === first || document.activeElement === dialog)) {
      e.preventDefault();
      last.focus();
    } else if (!e.shiftKey && document.activeElement === last) {
      e.preventDefault();
      first.focus();
    }
  });
  // Focus that leaves the open dialog (a click on the page behind it) comes back in.
  document.addEventListener('focusin', (e) => {
    if (isOpen && e.target instanceof Node && !dialog.contains(e.target)) (tabbables(dialog)[0] ?? dialog).focus();
  });

  // ---- open / close
  function open({ restore = false } = {}) {
    if (isOpen) return;
    isOpen = true;
    remember(true);
    dialog.hidden = false;
    backdrop.hidden = false;
    document.documentElement.classList.add('max-sm:overflow-hidden');
    launcher.setAttribute('aria-expanded', 'true');
    launcher.setAttribute('aria-controls', dialog.id);
    renderCounter();
    renderMessages();
    // Reopened after a navigation: focus the dialog itself, so a phone does not pop up its keyboard.
    (restore ? dialog : input).focus();
    void load().then(startLive);
  }

  function close() {
    if (!isOpen) return;
    isOpen = false;
    remember(false);
    stopListening();
    dialog.hidden = true;
    backdrop.hidden = true;
    document.documentElement.classList.remove('max-sm:overflow-hidden');
    launcher.setAttribute('aria-expanded', 'false');
    launcher.focus();
  }

  async function resume(token: string) {
    const result = await resumeConversation(token);
    // A conversation already loaded here may not be the link's: load again.
    loading = undefined;
    loaded = false;
    messages = [];
    rendered.clear();
    stopListening();
    conversation = null;
    open();
    if (!result.ok) showError(result.message);
  }

  return { open, resume, close, toggle: () => (isOpen ? close() : open()) };
}
