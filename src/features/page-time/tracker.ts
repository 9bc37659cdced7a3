/**
 * Members' page-time in the browser (seed sections 4 and 9, decision 014). Loaded only once the session
 * store reads a signed-in member (src/stores/session.ts imports it then); a visitor never downloads it.
 *
 * The site is multi-page (no ClientRouter): every route change is a full navigation, so leaving the page
 * is `pagehide` (links, back/forward, reload, closed tab); the next page starts its own tracker. Hidden
 * tabs send and stop the clock; the periodic save runs every 30 s. A failed send is logged only.
 */
import { $session } from '../../stores/session';
import { createPageTimeTracker, PERIODIC_SAVE_MS, type PageTimeRecord, type PageTimeTracker } from '../../shared/page-time';

const ENDPOINT = '/api/page-views';
const TAB_KEY = 'agency.page-time.tab';

/** Random per tab: sessionStorage outlives navigations and reloads, never the tab. */
function tabSessionId(): string {
  const fresh = crypto.randomUUID();
  try {
    const known = sessionStorage.getItem(TAB_KEY);
    if (known) return known;
    sessionStorage.setItem(TAB_KEY, fresh);
  } catch {
    // Storage blocked: one id per page is still a usable token.
  }
  return fresh;
}

function send(record: PageTimeRecord | undefined) {
  if (!record) return;
  try {
    if (navigator.sendBeacon(ENDPOINT, new Blob([JSON.stringify(record)], { type: 'application/json' }))) return;
    console.warn('Page time not saved: the browser refused the beacon.');
  } catch (err) {
    console.warn('Page time not saved:', err);
  }
}

let tracker: PageTimeTracker | undefined;
let userId: string | undefined;
let timer: ReturnType<typeof setInterval> | undefined;

function start(id: string) {
  userId = id;
  const hidden = document.visibilityState === 'hidden';
  // The page began before the session was known: time it from the navigation's start.
  tracker = createPageTimeTracker({ now: Date.now, userId: id, sessionId: tabSessionId(), pagePath: location.pathname, startedAt: Math.round(performance.timeOrigin), hidden });
  timer = setInterval(() => send(tracker?.tick()), PERIODIC_SAVE_MS);
}

/** Signed out (or another account): this member's clock stops; their cookie is gone, so nothing is sent. */
function stop() {
  clearInterval(timer);
  tracker = userId = timer = undefined;
}

let listening = false;

/** Starts timing for the signed-in member; safe to call more than once. */
export function trackPageTime() {
  if (listening || typeof document === 'undefined') return;
  listening = true;
  document.addEventListener('visibilitychange', () => (document.visibilityState === 'hidden' ? send(tracker?.hide()) : tracker?.show()));
  addEventListener('pagehide', () => send(tracker?.leave()));
  addEventListener('pageshow', (event) => event.persisted && tracker?.show());
  $session.subscribe(({ status, user }) => {
    if (status === 'loading' || user?.id === userId) return;
    stop();
    if (status === 'authenticated' && user) start(user.id);
  });
}
