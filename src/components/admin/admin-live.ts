/**
 * Every admin page's live signals (issue 35), on the page's one admin live feed (live-feed.ts): the tab
 * title carries the chats with unread messages ("(2) Overview · Admin · Site"), every `data-live-count`
 * badge follows its count, and new chats and leads may show a desktop notification and play a sound —
 * each off until the admin turns it on in this browser. An alert is shown once across the browser's admin
 * tabs: the tabs take turns (Web Locks) and keep the ids shown in localStorage. The sound is made here
 * (Web Audio, no file) and only after a click turned it on.
 */
import {
  ALERT_SETTINGS_KEY,
  alertEffects,
  alertSettingsOf,
  permissionNote,
  SEEN_ALERTS_KEY,
  seenListOf,
  titleWithCount,
  withSeen,
  type AdminAlert,
  type AdminSignals,
  type AlertSettings,
} from '../../shared/admin-signals';
import { listenToAdminFeed } from './live-feed';

const permission = (): NotificationPermission | 'unsupported' => (typeof Notification === 'undefined' ? 'unsupported' : Notification.permission);

function readSettings(): AlertSettings {
  try {
    return alertSettingsOf(localStorage.getItem(ALERT_SETTINGS_KEY));
  } catch {
    return alertSettingsOf(null);
  }
}

function saveSettings(settings: AlertSettings) {
  try {
    localStorage.setItem(ALERT_SETTINGS_KEY, JSON.stringify(settings));
  } catch {
    // Storage refused (private mode, full): the choice lasts for this page only.
  }
}

// ---------------------------------------------------------------------------------------------------------
// The sound: two short soft tones.

let audio: AudioContext | undefined;

/** Called from the click that turns the sound on: a browser lets a page play only after a gesture. */
function unlockAudio(): AudioContext | undefined {
  if (typeof AudioContext === 'undefined') return undefined;
  audio ??= new AudioContext();
  void audio.resume().catch(() => {});
  return audio;
}

function chime() {
  const ctx = audio ?? unlockAudio();
  if (!ctx) return;
  // On a page opened since, the browser may hold the sound until the admin clicks or types there.
  if (ctx.state === 'suspended') {
    void ctx.resume().catch(() => {});
    const again = () => void ctx.resume().catch(() => {});
    document.addEventListener('pointerdown', again, { once: true });
    document.addEventListener('keydown', again, { once: true });
  }
  const start = ctx.currentTime + 0.02;
  [880, 1320].forEach((frequency, i) => {
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.type = 'sine';
    osc.frequency.value = frequency;
    const t = start + i * 0.16;
    gain.gain.setValueAtTime(0.0001, t);
    gain.gain.exponentialRampToValueAtTime(0.15, t + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, t + 0.3);
    osc.connect(gain).connect(ctx.destination);
    osc.start(t);
    osc.stop(t + 0.32);
  });
}

// ---------------------------------------------------------------------------------------------------------
// Alerts.

/** The conversation this tab shows, while it is in front: its messages need no alert. */
function readingConversationId(): string | undefined {
  if (document.visibilityState !== 'visible') return undefined;
  const match = /^\/admin\/chat-settings\/([^/]+)\/?$/.exec(location.pathname);
  return match && match[1] !== 'settings' ? decodeURIComponent(match[1]!) : undefined;
}

function show(alert: AdminAlert, effects: { notify: boolean; sound: boolean }) {
  if (effects.notify) {
    try {
      // One notification per chat: a new message of the same chat replaces the one before.
      const notification = new Notification(alert.title, { body: alert.body, tag: alert.conversationId ? `chat:${alert.conversationId}` : alert.id });
      notification.onclick = () => {
        window.focus();
        location.assign(alert.href);
        notification.close();
      };
    } catch {
      // A browser that only notifies from a service worker: the sound and the badges remain.
    }
  }
  if (effects.sound) chime();
}

/**
 * How long the tab that shows an alert keeps its lock: every admin tab of the browser gets the same alert
 * within moments, and a tab that finds the lock taken leaves it. The seen list covers a copy that arrives
 * later; it cannot cover copies that arrive together, since a write to localStorage reaches the other tabs'
 * processes only after a while.
 */
const ALERT_LOCK_MS = 30_000;

/** Decides and shows one alert; of the browser's admin tabs, the first to take the alert's lock shows it. */
function handleAlert(alert: AdminAlert) {
  const decide = () => {
    let seen: string[] = [];
    try {
      seen = seenListOf(localStorage.getItem(SEEN_ALERTS_KEY));
    } catch {
      // No storage: this tab alone decides.
    }
    if (seen.includes(alert.id)) return;
    const effects = alertEffects(alert, { settings: readSettings(), permission: permission(), seen, readingConversationId: readingConversationId() });
    try {
      localStorage.setItem(SEEN_ALERTS_KEY, JSON.stringify(withSeen(seen, alert.id)));
    } catch {
      // As above.
    }
    show(alert, effects);
  };
  if (!navigator.locks) return decide();
  void navigator.locks
    .request(`admin-alert:${alert.id}`, { ifAvailable: true }, async (lock) => {
      if (!lock) return; // another tab holds it: that tab shows the alert
      decide();
      await new Promise((resolve) => setTimeout(resolve, ALERT_LOCK_MS));
    })
    .catch(decide);
}

// ---------------------------------------------------------------------------------------------------------
// The page: title, badges, the settings control.

function showSignals(root: Document, baseTitle: string, signals: AdminSignals) {
  root.title = titleWithCount(baseTitle, signals.unreadChats);
  for (const badge of root.querySelectorAll<HTMLElement>('[data-live-count]')) {
    const count = signals[badge.dataset.liveCount as keyof AdminSignals];
    if (typeof count !== 'number') continue;
    const number = badge.querySelector('[data-count]');
    if (number) number.textContent = String(count);
    badge.hidden = count <= 0;
  }
}

function settingsControl(root: Document) {
  const control = root.querySelector<HTMLDetailsElement>('[data-alerts]');
  if (!control) return;
  const boxes = {
    desktop: control.querySelector<HTMLInputElement>('[data-alert-setting="desktop"]')!,
    sound: control.querySelector<HTMLInputElement>('[data-alert-setting="sound"]')!,
  };
  const note = control.querySelector<HTMLElement>('[data-alerts-note]')!;
  const on = control.querySelector<HTMLElement>('[data-alerts-on]')!;
  const render = (said?: string) => {
    const settings = readSettings();
    boxes.desktop.checked = settings.desktop && permission() === 'granted';
    boxes.sound.checked = settings.sound;
    on.hidden = !boxes.desktop.checked && !boxes.sound.checked;
    note.textContent = said ?? permissionNote(permission(), settings.desktop) ?? '';
  };

  boxes.desktop.addEventListener('change', () => {
    const settings = readSettings();
    if (!boxes.desktop.checked) {
      saveSettings({ ...settings, desktop: false });
      return render('');
    }
    if (permission() === 'unsupported' || permission() === 'denied') {
      saveSettings({ ...settings, desktop: false });
      return render();
    }
    // Asked only now, when the admin turns notifications on.
    void Notification.requestPermission().then((answer) => {
      saveSettings({ ...readSettings(), desktop: answer === 'granted' });
      render(answer === 'granted' ? 'Desktop notifications are on in this browser.' : permissionNote(answer, false));
    });
  });
  boxes.sound.addEventListener('change', () => {
    const turnedOn = boxes.sound.checked;
    saveSettings({ ...readSettings(), sound: turnedOn });
    if (turnedOn) {
      unlockAudio();
      chime();
    }
    render(turnedOn ? 'Sound is on in this browser.' : '');
  });
  // Another tab changed them.
  window.addEventListener('storage', (e) => e.key === ALERT_SETTINGS_KEY && render());
  // Closed by a click elsewhere, as a menu is.
  root.addEventListener('click', (e) => {
    if (control.open && e.target instanceof Node && !control.contains(e.target)) control.open = false;
  });
  root.addEventListener('keydown', (e) => {
    if (e.key === 'Escape' && control.open) {
      control.open = false;
      control.querySelector('summary')?.focus();
    }
  });
  render();
  control.hidden = false;
}

export function startAdminLive(root: Document) {
  const baseTitle = root.documentElement.dataset.adminTitle ?? root.title;
  settingsControl(root);
  listenToAdminFeed({
    // On the page's root, for whoever needs to know the page is live (a test, a style).
    onMode: (mode) => (root.documentElement.dataset.adminFeed = mode),
    onSignals: (signals) => showSignals(root, baseTitle, signals),
    onAlert: handleAlert,
  });
}
