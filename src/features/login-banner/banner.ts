/**
 * Seed: after login a green banner reads the text below and disappears after 2 seconds. The login form
 * sets a sessionStorage flag before navigating, so the cached public HTML never carries the banner.
 * Fixed position: it overlays the page instead of pushing it down (no layout shift).
 */
import { LOGIN_BANNER_MS } from '../../shared/constants';
import { LOGIN_BANNER_FLAG } from './flag';

export const LOGIN_BANNER_TEXT = 'Successfully logged in! You can now access all member features.';

export function showLoginBannerIfFlagged(storage: Pick<Storage, 'getItem' | 'removeItem'> = sessionStorage) {
  try {
    if (storage.getItem(LOGIN_BANNER_FLAG) !== '1') return;
    storage.removeItem(LOGIN_BANNER_FLAG);
  } catch {
    return;
  }
  const banner = document.createElement('div');
  banner.setAttribute('role', 'status');
  banner.dataset.loginBanner = '';
  banner.className =
    'fixed inset-x-4 top-20 z-50 mx-auto max-w-lg rounded-xl border border-green-700 bg-green-600 px-5 py-3 text-center text-sm font-semibold text-white shadow-lg';
  banner.textContent = LOGIN_BANNER_TEXT;
  document.body.append(banner);
  setTimeout(() => banner.remove(), LOGIN_BANNER_MS);
}
