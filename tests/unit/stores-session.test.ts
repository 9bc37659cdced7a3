import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { VISITOR_VIEW_ATTRIBUTE } from '../../src/shared/constants';
import { $connectivity, CONNECTIVITY_TIMEOUT_MS, trackedFetch } from '../../src/stores/connectivity';
import { $session, displayName, loadSession, signOut, toSessionUser } from '../../src/stores/session';

const rawUser = { id: 'u1', email: 'ada@example.com', name: 'Ada Lovelace', firstName: 'Ada', lastName: 'Lovelace', role: 'admin', emailVerified: true, phone: '+1' };
const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

beforeEach(() => {
  $session.set({ status: 'loading' });
  $connectivity.set('unknown');
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('session store', () => {
  it('maps better-auth users to our shape; unknown roles are plain users; junk is no user', () => {
    expect(toSessionUser(rawUser)).toEqual({ id: 'u1', email: 'ada@example.com', name: 'Ada Lovelace', firstName: 'Ada', lastName: 'Lovelace', role: 'admin', emailVerified: true, phone: '+1' });
    expect(toSessionUser({ ...rawUser, role: 'superuser' })?.role).toBe('user');
    expect(toSessionUser({ email: 'x@example.com' })).toBeUndefined();
    expect(toSessionUser(null)).toBeUndefined();
  });

  it('display name: full name, else the name, else the email', () => {
    const u = toSessionUser(rawUser)!;
    expect(displayName(u)).toBe('Ada Lovelace');
    expect(displayName({ ...u, firstName: ' ', lastName: '', name: '' })).toBe('ada@example.com');
  });

  it('loadSession: authenticated, shares concurrent requests, then online', async () => {
    const fetch = vi.fn(async () => json({ session: {}, user: rawUser }));
    vi.stubGlobal('fetch', fetch);
    const [a, b] = await Promise.all([loadSession(), loadSession()]);
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(a).toBe(b);
    expect($session.get()).toMatchObject({ status: 'authenticated', user: { role: 'admin' } });
    expect($connectivity.get()).toBe('online');
    // Known state: no second request unless forced.
    await loadSession();
    expect(fetch).toHaveBeenCalledTimes(1);
    await loadSession(true);
    expect(fetch).toHaveBeenCalledTimes(2);
  });

  it('the landing editor’s preview (the visitor-view mark on <html>) asks for no session: a visitor’s page', async () => {
    const fetch = vi.fn(async () => json({ session: {}, user: rawUser }));
    vi.stubGlobal('fetch', fetch);
    vi.stubGlobal('document', { documentElement: { hasAttribute: (name: string) => name === VISITOR_VIEW_ATTRIBUTE } });
    expect((await loadSession()).status).toBe('anonymous');
    expect(fetch).not.toHaveBeenCalled();
  });

  it('null session → anonymous; a failed request → anonymous and offline', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => json(null)));
    expect((await loadSession()).status).toBe('anonymous');
    $session.set({ status: 'loading' });
    vi.stubGlobal('fetch', vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))));
    expect((await loadSession()).status).toBe('anonymous');
    expect($connectivity.get()).toBe('offline');
  });

  it('signOut posts to sign-out and clears the store even when the request fails', async () => {
    $session.set({ status: 'authenticated', user: toSessionUser(rawUser)! });
    const fetch = vi.fn(async () => Promise.reject(new TypeError('offline')));
    vi.stubGlobal('fetch', fetch);
    await expect(signOut()).rejects.toThrow();
    expect(fetch.mock.calls[0]).toMatchObject(['/api/auth/sign-out', { method: 'POST' }]);
    expect($session.get()).toEqual({ status: 'anonymous' });
  });
});

describe('connectivity store', () => {
  it('offline after 10 s without an answer, online again on the next response', async () => {
    vi.useFakeTimers();
    let answer!: (r: Response) => void;
    vi.stubGlobal('fetch', vi.fn(() => new Promise<Response>((r) => (answer = r))));
    const pending = trackedFetch('/slow', {}, 30_000);
    await vi.advanceTimersByTimeAsync(CONNECTIVITY_TIMEOUT_MS - 1);
    expect($connectivity.get()).toBe('unknown');
    await vi.advanceTimersByTimeAsync(1);
    expect($connectivity.get()).toBe('offline');
    answer(json({}, 500));
    await pending;
    expect($connectivity.get()).toBe('online');
  });

  it('a request past its own deadline fails with a time-out and marks offline', async () => {
    vi.useFakeTimers();
    vi.stubGlobal('fetch', vi.fn((_: string, init: RequestInit) => new Promise((_r, reject) => init.signal!.addEventListener('abort', () => reject(init.signal!.reason)))));
    const pending = trackedFetch('/never', {}, 5000);
    const settled = expect(pending).rejects.toThrow('timed out');
    await vi.advanceTimersByTimeAsync(5000);
    await settled;
    expect($connectivity.get()).toBe('offline');
  });
});
