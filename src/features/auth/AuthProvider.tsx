/**
 * The seed's auth context (section 4): a loading flag, the member, and the offered functions. It wraps
 * the session store, so the navbar (vanilla) and these React islands always agree on who is signed in.
 * Role changes (promote) and profile edits are server-side only in this product (PRODUCT.md), so they
 * are not offered here.
 */
import { createContext, useContext, useEffect, useMemo, useSyncExternalStore, type ReactNode } from 'react';
import { AUTH_MESSAGES } from '../../shared/auth-messages';
import { $session, loadSession, signOut, toSessionUser, type SessionState, type SessionUser } from '../../stores/session';
import type { Attribution } from '../attribution/store';
import { authRequest, type AuthResult } from './api';

export interface SignUpFields {
  firstName: string;
  lastName: string;
  email: string;
  password: string;
  phone?: string;
  website?: string;
  signupSource?: string | undefined;
  /** Where the visit came from (src/features/attribution/store.ts): the sign-up's lead event carries it. */
  attribution?: Attribution | undefined;
}

/** Seed: success for a verified account, otherwise needsVerification (signed in, sent to /verify-email). */
export type LoginResult = { ok: true; user: SessionUser } | Extract<AuthResult, { ok: false }>;

export interface AuthContextValue {
  loading: boolean;
  user: SessionUser | undefined;
  login(email: string, password: string): Promise<LoginResult>;
  signup(fields: SignUpFields): Promise<AuthResult>;
  logout(): Promise<void>;
  changePassword(newPassword: string, confirmPassword: string): Promise<AuthResult<{ message?: string }>>;
  sendVerificationEmail(email?: string): Promise<AuthResult>;
  /** Seed: re-reads the member; fails with "Email not verified yet" while unverified. */
  checkEmailVerification(): Promise<{ ok: true; user: SessionUser } | { ok: false; message: string }>;
  refreshProfile(): Promise<SessionState>;
}

const AuthContext = createContext<AuthContextValue | null>(null);

const fail = (code: string, message: string) => ({ ok: false as const, status: 0, code, message });

const LOADING: SessionState = { status: 'loading' };
const subscribe = (onChange: () => void) => $session.listen(onChange);

/**
 * The session this island shows. On the server, and in the browser's first (hydrating) render, it is only
 * the request's own `initial`: the store is one module object that every server request shares, so it must
 * be neither read nor written there. After hydration it is the store, which `initial` seeds (no second
 * request, no flash) so the navbar and this island agree.
 */
function useSession(initial: SessionState | undefined): SessionState {
  const session = useSyncExternalStore(
    subscribe,
    () => {
      const current = $session.get();
      return current.status === 'loading' && initial ? initial : current;
    },
    () => initial ?? LOADING,
  );
  useEffect(() => {
    if (initial && $session.get().status === 'loading') $session.set(initial);
  }, [initial]);
  useEffect(() => {
    if (session.status === 'loading') void loadSession();
  }, [session.status]);
  return session;
}

export function AuthProvider({ children, initial }: { children: ReactNode; initial?: SessionState | undefined }) {
  const session = useSession(initial);

  const value = useMemo<AuthContextValue>(
    () => ({
      loading: session.status === 'loading',
      user: session.user,
      async login(email, password) {
        const res = await authRequest<{ user?: unknown }>('/sign-in/email', { email, password });
        if (!res.ok) return res;
        const state = await loadSession(true);
        const user = state.user ?? toSessionUser(res.data.user);
        if (!user) return fail('UNKNOWN', AUTH_MESSAGES.UNKNOWN);
        if (!user.emailVerified) return { ...fail('EMAIL_NOT_VERIFIED', AUTH_MESSAGES.EMAIL_NOT_VERIFIED), needsVerification: true };
        return { ok: true, user };
      },
      signup: (fields) => authRequest('/sign-up/email', { ...fields }),
      logout: signOut,
      changePassword: (newPassword, confirmPassword) => authRequest('/account/change-password', { newPassword, confirmPassword }),
      async sendVerificationEmail(email) {
        const address = email ?? session.user?.email;
        if (!address) return fail('NO_USER_LOGGED_IN', AUTH_MESSAGES.NO_USER_LOGGED_IN);
        return authRequest('/send-verification-email', { email: address });
      },
      async checkEmailVerification() {
        const state = await loadSession(true);
        if (state.user?.emailVerified) return { ok: true, user: state.user };
        return { ok: false, message: AUTH_MESSAGES.EMAIL_NOT_VERIFIED };
      },
      refreshProfile: () => loadSession(true),
    }),
    [session],
  );

  // Seed: children render only after loading finishes.
  return <AuthContext.Provider value={value}>{value.loading ? null : children}</AuthContext.Provider>;
}

export function useAuth(): AuthContextValue {
  const ctx = useContext(AuthContext);
  if (!ctx) throw new Error('useAuth must be used within an AuthProvider');
  return ctx;
}
