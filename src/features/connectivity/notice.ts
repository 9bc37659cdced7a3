/**
 * Tells the visitor when the backend cannot be reached (seed: Offline after a 10 s time-out or a failed
 * request, Online once it answers). A fixed strip at the bottom: it appears without moving the page.
 */
import { $connectivity, markOffline } from '../../stores/connectivity';
import { loadSession } from '../../stores/session';

export const OFFLINE_TEXT = 'You appear to be offline. Some features will not work until the connection returns.';

export function initConnectivityNotice() {
  let notice: HTMLElement | undefined;
  $connectivity.subscribe((state) => {
    if (state === 'offline' && !notice) {
      notice = document.createElement('div');
      notice.setAttribute('role', 'status');
      notice.dataset.offlineNotice = '';
      notice.className = 'fixed inset-x-0 bottom-0 z-50 bg-amber-100 px-4 py-2 text-center text-sm font-medium text-amber-950 shadow-[0_-1px_0_0_rgb(0_0_0/0.1)]';
      notice.textContent = OFFLINE_TEXT;
      document.body.append(notice);
    } else if (state !== 'offline' && notice) {
      notice.remove();
      notice = undefined;
    }
  });
  window.addEventListener('offline', markOffline);
  // Back on the network: ask the server, whose answer sets the state to online.
  window.addEventListener('online', () => void loadSession(true));
}
