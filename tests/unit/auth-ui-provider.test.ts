import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import AuthPage from '../../src/features/auth/AuthPage';
import { AuthProvider, useAuth } from '../../src/features/auth/AuthProvider';
import VerifyEmail from '../../src/features/auth/VerifyEmail';
import { $session, type SessionState, type SessionUser } from '../../src/stores/session';

function Probe() {
  const auth = useAuth();
  return createElement('p', null, `${auth.loading}:${auth.user?.email ?? 'none'}:${Object.keys(auth).sort().join(',')}`);
}

describe('AuthProvider / useAuth', () => {
  it('useAuth outside the provider fails with the seed text', () => {
    expect(() => renderToString(createElement(Probe))).toThrow('useAuth must be used within an AuthProvider');
  });

  it('children render only after loading; the seed functions are offered', () => {
    $session.set({ status: 'loading' });
    expect(renderToString(createElement(AuthProvider, { children: createElement(Probe) }))).toBe('');
    const user = { id: '1', email: 'a@example.com', name: 'A', firstName: 'A', lastName: 'B', role: 'user' as const, emailVerified: true };
    const html = renderToString(createElement(AuthProvider, { initial: { status: 'authenticated', user }, children: createElement(Probe) }));
    expect(html).toContain('false:a@example.com:');
    for (const fn of ['login', 'signup', 'logout', 'changePassword', 'sendVerificationEmail', 'checkEmailVerification', 'refreshProfile']) expect(html).toContain(fn);
  });
});

describe('server renders of the auth islands', () => {
  // Unverified: both islands then show the member's email.
  const member = (first: string): SessionUser => ({
    id: first,
    email: `${first.toLowerCase()}@example.com`,
    name: `${first} Person`,
    firstName: first,
    lastName: 'Person',
    role: 'user',
    emailVerified: false,
  });
  const signedIn = (user: SessionUser): SessionState => ({ status: 'authenticated', user });
  const anonymous: SessionState = { status: 'anonymous' };

  // The session store is one module-level object in the server process, shared by every request.
  it.each([
    ['/auth', (initial: SessionState) => renderToString(createElement(AuthPage, { initial }))],
    ['/verify-email', (initial: SessionState) => renderToString(createElement(VerifyEmail, { initial }))],
  ])("%s shows each request its own session, never an earlier request's", (_, render) => {
    $session.set({ status: 'loading' });
    const alice = member('Alice');
    expect(render(signedIn(alice))).toContain('alice@example.com');
    for (const html of [render(anonymous), render(signedIn(member('Bob')))]) {
      expect(html).not.toContain('alice@example.com');
      expect(html).not.toContain('Alice');
    }
    expect(render(signedIn(member('Bob')))).toContain('bob@example.com');
    // The server never writes the shared store.
    expect($session.get()).toEqual({ status: 'loading' });
  });
});
