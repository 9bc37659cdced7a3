/**
 * The chat launcher, on every public page: shows the server-rendered button, applies the accent colour and
 * loads the panel only when the visitor opens it (the first page load carries this file alone). The panel
 * reopens by itself after a navigation when it was open (session storage). A browser that has a
 * conversation asks once a page whether the team replied since (an unread mark on the button); a reply
 * mail's link (`?chat=…`) opens its conversation at once.
 */
import type { CHAT_RESUME_PARAM, CHAT_VISITOR_HEADER, CHAT_VISITOR_STORAGE_KEY, PublicChatConfig } from '../../shared/chat';
import type { ChatPanel } from './panel';

// Names spelled out rather than imported: importing them would load the panel's code with the page.
const OPEN_KEY = 'chat.open';
const HAS_CONVERSATION_KEY = 'chat.conversation';
const VISITOR_KEY: typeof CHAT_VISITOR_STORAGE_KEY = 'chat.visitor';
const VISITOR_HEADER: typeof CHAT_VISITOR_HEADER = 'X-Chat-Visitor';
const RESUME_PARAM: typeof CHAT_RESUME_PARAM = 'chat';

const stored = (storage: () => Storage, key: string) => {
  try {
    return storage().getItem(key);
  } catch {
    return null;
  }
};

/** The unread mark: a count on the button, said in its name. */
function showUnread(launcher: HTMLButtonElement, unread: number) {
  const badge = launcher.querySelector<HTMLElement>('[data-chat-unread]');
  const label = launcher.querySelector<HTMLElement>('[data-chat-label]');
  if (!badge || !label) return;
  badge.textContent = unread > 9 ? '9+' : String(unread);
  badge.hidden = unread === 0;
  label.textContent = label.dataset.chatLabel! + (unread > 0 ? ` (${unread} new ${unread === 1 ? 'reply' : 'replies'})` : '');
}

async function checkUnread(launcher: HTMLButtonElement) {
  const visitor = stored(() => localStorage, VISITOR_KEY);
  if (stored(() => localStorage, HAS_CONVERSATION_KEY) !== '1' || !visitor) return;
  try {
    const res = await fetch('/api/chat/unread', { credentials: 'same-origin', headers: { accept: 'application/json', [VISITOR_HEADER]: visitor } });
    if (res.ok && launcher.getAttribute('aria-expanded') !== 'true') showUnread(launcher, Number(((await res.json()) as { unread?: number }).unread) || 0);
  } catch {
    // Offline: no mark this time.
  }
}

export function initChatLauncher(launcher: HTMLButtonElement, configElement: HTMLElement) {
  const config = JSON.parse(configElement.textContent || '{}') as PublicChatConfig;
  // A CSS custom property set through the CSSOM: the CSP allows no inline style attribute.
  document.documentElement.style.setProperty('--chat-accent', config.accentColor);
  launcher.hidden = false;

  let panel: Promise<ChatPanel> | undefined;
  const withPanel = (use: (p: ChatPanel) => void) => {
    launcher.setAttribute('aria-busy', 'true');
    panel ??= import('./panel').then((m) => m.createPanel(config, launcher));
    panel.then(use, () => {
      // Offline or a new deploy replaced the chunk: the next press tries again.
      panel = undefined;
    }).finally(() => launcher.removeAttribute('aria-busy'));
  };

  launcher.addEventListener('click', () => {
    showUnread(launcher, 0);
    withPanel((p) => p.toggle());
  });
  const url = new URL(location.href);
  const resume = url.searchParams.get(RESUME_PARAM);
  if (resume) {
    // The link's key leaves the address bar (and the history) at once.
    url.searchParams.delete(RESUME_PARAM);
    history.replaceState(history.state, '', url.pathname + url.search + url.hash);
    withPanel((p) => void p.resume(resume));
  } else if (stored(() => sessionStorage, OPEN_KEY) === '1') withPanel((p) => p.open({ restore: true }));
  else void checkUnread(launcher);
}
