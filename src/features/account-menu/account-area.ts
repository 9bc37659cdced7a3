/**
 * The navbar's account states, in plain DOM so the landing page ships no React for it. Public HTML is the
 * visitor's ("Log in", "Book a call"); once the session store says who is signed in, this swaps the
 * contents of the fixed-size [data-account-area] (no layout shift) and, for admins, the [data-nav-links].
 * The settings dialog (React) is fetched only when the member opens it.
 */
import { ADMIN_NAV_LINKS } from '../../shared/navigation';
import { $session, displayName, loadSession, signOut, type SessionUser } from '../../stores/session';


/** Seed: "the user's full name or, failing that, email, with the role in brackets". */
export function accountLabel(user: SessionUser): string {
  return `${displayName(user)} (${user.role})`;
}

function el<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Record<string, string>, text?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  return node;
}

const PILL = 'inline-flex h-11 items-center justify-center rounded-full text-sm font-semibold md:h-10';

function renderSignedIn(area: HTMLElement, user: SessionUser) {
  // Two lines (name, then the role in brackets) so both stay readable inside the 224 px box.
  const nameButton = el('button', {
    type: 'button',
    'data-account-name': '',
    'aria-haspopup': 'dialog',
    title: `${accountLabel(user)}: account settings`,
    class: 'flex h-11 min-w-0 flex-1 items-center gap-2 rounded-full px-2 text-left text-ink hover:bg-slate-100 max-md:basis-full md:h-10 md:rounded-lg',
  });
  const text = el('span', { class: 'flex min-w-0 flex-col leading-tight' });
  text.append(
    el('span', { class: 'truncate text-sm font-semibold' }, displayName(user)),
    document.createTextNode(' '),
    el('span', { class: 'text-xs text-slate-600' }, `(${user.role})`),
  );
  nameButton.append(
    el('span', { 'aria-hidden': 'true', class: 'flex h-8 w-8 flex-none items-center justify-center rounded-full bg-brand-100 text-xs font-bold text-brand-800 md:hidden' }, displayName(user).charAt(0).toUpperCase()),
    text,
  );
  nameButton.addEventListener('click', async () => {
    const { openSettingsDialog } = await import('../settings-dialog/mount');
    openSettingsDialog(nameButton);
  });

  // From 768 px the box is 224 px wide: Logout becomes an icon (same accessible name) to leave the name room.
  const logout = el('button', {
    type: 'button',
    'data-logout': '',
    title: 'Logout',
    class: `${PILL} flex-1 border border-slate-300 px-4 text-ink hover:bg-slate-50 md:w-9 md:flex-none md:border-0 md:px-0 md:text-slate-600 md:hover:bg-slate-100 md:hover:text-ink`,
  });
  const icon = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  icon.setAttribute('viewBox', '0 0 20 20');
  icon.setAttribute('aria-hidden', 'true');
  icon.setAttribute('class', 'hidden h-5 w-5 fill-current md:block');
  icon.innerHTML = '<path d="M3 4.5A1.5 1.5 0 0 1 4.5 3h6A1.5 1.5 0 0 1 12 4.5V6a1 1 0 1 1-2 0V5H5v10h5v-1a1 1 0 1 1 2 0v1.5a1.5 1.5 0 0 1-1.5 1.5h-6A1.5 1.5 0 0 1 3 15.5v-11Zm10.3 2.8a1 1 0 0 1 1.4 0l2 2a1 1 0 0 1 0 1.4l-2 2a1 1 0 0 1-1.4-1.4l.3-.3H8a1 1 0 1 1 0-2h5.6l-.3-.3a1 1 0 0 1 0-1.4Z"/>';
  logout.append(el('span', { class: 'md:sr-only' }, 'Logout'), icon);
  logout.addEventListener('click', async () => {
    logout.setAttribute('disabled', '');
    await signOut().catch(() => undefined);
    window.location.assign('/');
  });

  const nodes: HTMLElement[] = [nameButton];
  // Seed: the Dashboard button shows for role user only.
  if (user.role === 'user') {
    nodes.push(el('a', { href: '/dashboard', 'data-dashboard-link': '', class: `${PILL} flex-1 bg-brand-600 px-4 text-white shadow-sm hover:bg-brand-700 md:flex-none md:px-3` }, 'Dashboard'));
  }
  nodes.push(logout);
  area.replaceChildren(...nodes);
  area.classList.add('max-md:flex-wrap', 'md:gap-1');
  area.dataset.state = user.role;
}

function renderAdminLinks(list: HTMLElement) {
  const template = list.querySelector('a');
  const linkClass = template?.getAttribute('class') ?? '';
  const here = window.location.pathname;
  list.replaceChildren(
    ...ADMIN_NAV_LINKS.map(({ href, label }) => {
      const li = el('li', {});
      const a = el('a', { href, class: linkClass }, label);
      if (here === href || here.startsWith(`${href}/`)) a.setAttribute('aria-current', 'page');
      li.append(a);
      return li;
    }),
  );
  list.dataset.state = 'admin';
}

export function initAccountArea(header: HTMLElement) {
  const area = header.querySelector<HTMLElement>('[data-account-area]');
  const links = header.querySelector<HTMLElement>('[data-nav-links]');
  if (!area) return;
  const visitorArea = [...area.childNodes];
  const visitorLinks = links ? [...links.childNodes] : [];
  let shown = 'visitor';

  $session.subscribe((state) => {
    const key = state.user ? `${state.user.id}:${state.user.role}:${accountLabel(state.user)}` : 'visitor';
    if (state.status === 'loading' || key === shown) return;
    shown = key;
    if (state.status === 'authenticated' && state.user) {
      renderSignedIn(area, state.user);
      if (links && state.user.role === 'admin') renderAdminLinks(links);
    } else {
      area.replaceChildren(...visitorArea);
      area.classList.remove('max-md:flex-wrap', 'md:gap-1');
      delete area.dataset.state;
      if (links) {
        links.replaceChildren(...visitorLinks);
        delete links.dataset.state;
      }
    }
  });
  void loadSession();
}
