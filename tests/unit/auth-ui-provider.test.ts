import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { AuthProvider, useAuth } from '../../src/features/auth/AuthProvider';
import { $session } from '../../src/stores/session';

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
