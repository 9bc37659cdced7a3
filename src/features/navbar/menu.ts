/**
 * The navbar's browser behaviour: the mobile menu (below MOBILE_BREAKPOINT_PX) and remembering the page
 * before "Log in".
 */
import { MOBILE_BREAKPOINT_PX } from '../../shared/constants';
import { rememberPathBeforeLogin } from './login-redirect';

const LOGIN_LINKS = '[data-login-link], a[href="/auth"], a[href^="/auth?"]';

export function initNavbar(header: HTMLElement) {
  const toggle = header.querySelector<HTMLButtonElement>('[data-menu-toggle]');
  const menu = toggle && document.getElementById(toggle.getAttribute('aria-controls') ?? '');
  if (toggle && menu) {
    const setOpen = (open: boolean) => {
      toggle.setAttribute('aria-expanded', String(open));
      menu.toggleAttribute('data-open', open);
    };
    const isOpen = () => toggle.getAttribute('aria-expanded') === 'true';
    toggle.addEventListener('click', () => setOpen(!isOpen()));
    header.addEventListener('keydown', (e) => {
      if (e.key === 'Escape' && isOpen()) {
        setOpen(false);
        toggle.focus();
      }
    });
    // Choosing a link (also "/#faqs" on the landing page itself) or clicking elsewhere closes the menu.
    menu.addEventListener('click', (e) => {
      if ((e.target as Element).closest('a')) setOpen(false);
    });
    document.addEventListener('click', (e) => {
      if (isOpen() && !header.contains(e.target as Node)) setOpen(false);
    });
    // Keyboard users tabbing past the last item leave the menu: close it behind them.
    header.addEventListener('focusout', (e) => {
      if (isOpen() && e.relatedTarget instanceof Node && !header.contains(e.relatedTarget)) setOpen(false);
    });
    window.matchMedia(`(min-width: ${MOBILE_BREAKPOINT_PX}px)`).addEventListener('change', (e) => {
      if (e.matches) setOpen(false);
    });
  }

  // Delegated on the document: "Log in" here, a later account island's own link and the price prompts
  // ("Sign up or log in to see prices") all bring the visitor back to this page after login.
  document.addEventListener('click', (e) => {
    if ((e.target as Element).closest(LOGIN_LINKS)) rememberPathBeforeLogin(sessionStorage, window.location);
  });
}
