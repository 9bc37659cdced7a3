/**
 * The chat launcher, on every public page: shows the server-rendered button, applies the accent colour and
 * loads the panel only when the visitor opens it (the first page load carries this file alone). The panel
 * reopens by itself after a navigation when it was open (session storage).
 */
import type { PublicChatConfig } from '../../shared/chat';
import type { ChatPanel } from './panel';

// panel.ts's OPEN_STORAGE_KEY, spelled out: importing it would load the panel with the page.
const OPEN_KEY = 'chat.open';

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

  launcher.addEventListener('click', () => withPanel((p) => p.toggle()));
  let reopen = false;
  try {
    reopen = sessionStorage.getItem(OPEN_KEY) === '1';
  } catch {
    reopen = false;
  }
  if (reopen) withPanel((p) => p.open({ restore: true }));
}
