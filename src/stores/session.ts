/**
 * The signed-in member as the browser sees it. Public HTML is identical for every visitor, so islands
 * (navbar account area, prices, login banner) read this store instead of server-rendered state.
 * Plain fetch against better-auth's /api/auth/get-session keeps this module tiny: it ships on every page.
 */
import { atom } from 'nanostores';
import { VISITOR_VIEW_ATTRIBUTE } from '../shared/constants';
import { trackedFetch } from './connectivity';

export type Role = 'user' | 'admin';

export interface SessionUser {
  id: string;
  email: string;
  name: string;
  firstName: string;
  lastName: string;
  role: Role;
  emailVerified: boolean;
  /** Only when the member gave them (forms such as /free-audit pre-fill them). */
  phone?: string;
  website?: string;
}

export interface SessionState {
  status: 'loading' | 'anonymous' | 'authenticated';
  user?: SessionUser;
}

export const $session = atom<SessionState>({ status: 'loading' });

// Members' page-time (decision 014): the tracker is downloaded only once a signed-in member is known; an
// admin's browsing is the team's, not a member's (decision 032), and the server would not store it.
$session.listen(({ status, user }) => void (status === 'authenticated' && user?.role !== 'admin' && import('../features/page-time/tracker').then((m) => m.trackPageTime(), (err: unknown) => console.warn('Page time not tracked:', err))));

const str = (v: unknown) => (typeof v === 'string' ? v : '');

/** better-auth's user object → our shape; anything unexpected is treated as no session. */
export function toSessionUser(raw: unknown): SessionUser | undefined {
  if (!raw || typeof raw !== 'object') return undefined;
  const u = raw as Record<string, unknown>;
  if (typeof u.id !== 'string' || typeof u.email !== 'string') return undefined;
  return {
    id: u.id,
    email: u.email,
    name: str(u.name),
    firstName: str(u.firstName),
    lastName: str(u.lastName),
    role: u.role === 'admin' ? 'admin' : 'user',
    emailVerified: u.emailVerified === true,
    ...(str(u.phone) && { phone: str(u.phone) }),
    ...(str(u.website) && { website: str(u.website) }),
  };
}

/** Seed: "the user's full name or, failing that, email". */
export function displayName(user: SessionUser): string {
  const full = `${user.firstName} ${user.lastName}`.trim();
  return full || user.name.trim() || user.email;
}

let inflight: Promise<SessionState> | undefined;

/**
 * Fetches the session once; concurrent callers share the request. `force` re-reads it (after sign-in,
 * "I've verified", a password change). A failed request keeps a known state and otherwise falls back
 * to anonymous, so the navbar never hangs on a spinner.
 */
export function loadSession(force = false): Promise<SessionState> {
  if (inflight && !force) return inflight;
  if (!force && $session.get().status !== 'loading') return Promise.resolve($session.get());
  const request = (async () => {
    try {
      // The landing editor's live preview is the page as a visitor sees it (decision 034): no session there,
      // so no account menu and no member prices, whoever is signed in.
      const res = globalThis.document?.documentElement.hasAttribute(VISITOR_VIEW_ATTRIBUTE)
        ? undefined
        : await trackedFetch('/api/auth/get-session', { credentials: 'same-origin', headers: { accept: 'application/json' } });
      const body: unknown = res?.ok ? await res.json() : null;
      const user = toSessionUser((body as { user?: unknown } | null)?.user);
      $session.set(user ? { status: 'authenticated', user } : { status: 'anonymous' });
    } catch {
      if ($session.get().status === 'loading') $session.set({ status: 'anonymous' });
    }
    return $session.get();
  })();
  inflight = request;
  void request.finally(() => {
    if (inflight === request) inflight = undefined;
  });
  return request;
}

/** Ends the session on the server; the store becomes anonymous even if the request fails. */
export async function signOut(): Promise<void> {
  try {
    await trackedFetch('/api/auth/sign-out', {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
  } finally {
    $session.set({ status: 'anonymous' });
  }
}
