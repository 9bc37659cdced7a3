/**
 * What an outside review found open at /api/auth (issue 7), tried from the outside through the app's edge
 * (handleAuthRequest): unused endpoints, the error page, prototype-named keys, guessing one account from
 * many addresses, reset timing, a double-clicked sign-up and sessions of disabled accounts.
 */
import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isUsedAuthEndpoint, RESET_REQUEST_MIN_MS } from '../../src/server/auth/constants';
import { createAuth } from '../../src/server/auth/create-auth';
import { handleAuthRequest } from '../../src/server/auth/handler';
import { accountKey, SIGN_IN_ACCOUNT_LIMIT } from '../../src/server/auth/sign-in-throttle';
import { sessions, signInFailures, users } from '../../src/server/db/schema';
import { readSession } from '../../src/server/guards/session';
import { AUTH_MESSAGES } from '../../src/shared/auth-messages';
import { Browser, createAuthHarness, PASSWORD, randomIp, SECRET, SITE, type AuthHarness } from '../support/auth';

let h: AuthHarness;
beforeEach(async () => {
  h = await createAuthHarness();
});
afterEach(() => h.close());

describe('only the endpoints the site uses answer', () => {
  it('every other better-auth endpoint (verify-password, update-user, the admin API, …) is a 404, listed from the instance itself', async () => {
    const member = await h.signUpVerified({ email: 'member@example.com' });
    const endpoints = Object.values(h.auth.api as Record<string, { path?: string; options?: { method?: string | string[] } }>)
      .filter((e) => typeof e?.path === 'string')
      .flatMap((e) => [e.options?.method ?? 'GET'].flat().map((method) => ({ method, path: e.path!.replace(/:(\w+)/g, 'x') })));
    expect(endpoints.length).toBeGreaterThan(30);
    const unused = endpoints.filter((e) => !isUsedAuthEndpoint(e.method, e.path));
    expect(unused.map((e) => e.path)).toEqual(expect.arrayContaining(['/verify-password', '/update-user', '/change-email', '/admin/set-role', '/list-sessions', '/ok']));
    for (const { method, path } of unused) {
      const res = await h.call(path, { method, browser: member.browser, body: method === 'GET' ? undefined : { password: PASSWORD, userId: member.userId, role: 'admin' } });
      if (path === '/error') continue; // our own error page, below
      expect(res.status, `${method} ${path}`).toBe(404);
    }
    expect((await h.userByEmail('member@example.com'))?.role).toBe('admin'); // the first verified user; unchanged
  });

  it('/api/auth/error never shows its query text: it sends the browser to our page', async () => {
    const res = await h.call('/error?error=Your+account+is+locked.+Call+%2B1+555+0100', { method: 'GET' });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/auth/error');
    expect(await res.text()).not.toContain('locked');
  });
});

describe('bad input gets a 4xx, never a 500', () => {
  for (const key of ['__proto__', 'constructor', 'toString', 'valueOf', 'hasOwnProperty']) {
    it(`a sign-up body with a key named ${key} is refused with 400 and stores nothing`, async () => {
      const email = `proto-${key.replace(/_/g, '')}@example.com`;
      const body = `{"firstName":"Ada","lastName":"Lovelace","email":"${email}","password":"${PASSWORD}","${key}":{"role":"admin"}}`;
      const res = await handleAuthRequest(
        new Request(`${SITE}/api/auth/sign-up/email`, { method: 'POST', headers: { 'content-type': 'application/json', origin: SITE }, body }),
        { auth: h.auth, siteUrl: SITE, clientAddress: randomIp() },
      );
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ code: 'FORBIDDEN_KEY' });
      expect(await h.userByEmail(email)).toBeUndefined();
    });
  }

  it('a nested prototype key is refused too', async () => {
    const res = await h.call('/sign-in/email', { body: JSON.parse('{"email":"a@example.com","password":"x","extra":{"constructor":{"prototype":{}}}}') });
    expect(res.status).toBe(400);
  });
});

describe('sign-in guessing is limited per account, whatever the address', () => {
  it(`${SIGN_IN_ACCOUNT_LIMIT.failures} wrong passwords from as many addresses lock the account for the window, with when to retry`, async () => {
    await h.signUpVerified({ email: 'target@example.com' });
    await h.signUpVerified({ email: 'bystander@example.com' });
    for (let i = 0; i < SIGN_IN_ACCOUNT_LIMIT.failures; i++) {
      expect((await h.signIn('target@example.com', `guess-${i}`, undefined, randomIp())).status).toBe(401);
    }
    const locked = await h.signIn('target@example.com', PASSWORD, undefined, randomIp());
    expect(locked.status).toBe(429);
    const body = await locked.json();
    expect(body).toMatchObject({ code: 'TOO_MANY_REQUESTS', message: 'Too many attempts. Please try again in 15 minutes.' });
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(14 * 60);

    // Another account is not affected, and neither is an address-case variant a different account.
    expect((await h.signIn('bystander@example.com', PASSWORD, undefined, randomIp())).status).toBe(200);
    expect((await h.signIn(' TARGET@example.com ', PASSWORD, undefined, randomIp())).status).toBe(429);

    // When the window has passed, the right password works and clears the count.
    await h.handle.db
      .update(signInFailures)
      .set({ windowStartedAt: new Date(Date.now() - (SIGN_IN_ACCOUNT_LIMIT.windowSeconds + 1) * 1000) })
      .where(eq(signInFailures.accountKey, accountKey('target@example.com')!));
    expect((await h.signIn('target@example.com', PASSWORD, undefined, randomIp())).status).toBe(200);
    expect(await h.handle.db.select().from(signInFailures).where(eq(signInFailures.accountKey, accountKey('target@example.com')!))).toEqual([]);
  });

  it('unknown addresses are counted the same way, so the limit tells nothing about which accounts exist', async () => {
    for (let i = 0; i < SIGN_IN_ACCOUNT_LIMIT.failures; i++) await h.signIn('nobody@example.com', `guess-${i}`, undefined, randomIp());
    expect((await h.signIn('nobody@example.com', 'another', undefined, randomIp())).status).toBe(429);
  });
});

describe('a password-reset request takes the same time whether the account exists or not', () => {
  it('does not wait for the mail (a slow mail server), and answers no sooner than the floor', async () => {
    await h.signUpVerified({ email: 'exists@example.com' });
    const sent: string[] = [];
    const slowMailer = {
      mode: 'smtp' as const,
      async send(message: { to: string }) {
        await new Promise((resolve) => setTimeout(resolve, 1500));
        sent.push(message.to);
      },
    };
    const auth = createAuth({ db: h.handle.db, siteUrl: SITE, secret: SECRET, mailer: slowMailer, siteName: async () => 'Test Agency' });
    const request = async (email: string) => {
      const started = performance.now();
      const res = await handleAuthRequest(
        new Request(`${SITE}/api/auth/request-password-reset`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', origin: SITE },
          body: JSON.stringify({ email }),
        }),
        { auth, siteUrl: SITE, clientAddress: randomIp() },
      );
      return { status: res.status, ms: performance.now() - started, body: await res.json() };
    };
    const known = await request('exists@example.com');
    const unknown = await request('nobody@example.com');
    expect([known.status, unknown.status]).toEqual([200, 200]);
    expect(known.body).toEqual(unknown.body);
    // Both wait for the floor; neither waits for the 1.5 s mail.
    for (const r of [known, unknown]) {
      expect(r.ms).toBeGreaterThanOrEqual(RESET_REQUEST_MIN_MS - 5);
      expect(r.ms).toBeLessThan(1400);
    }
    // The mail still goes out, after the answer.
    await expect.poll(() => sent, { timeout: 5000 }).toEqual(['exists@example.com']);
  });
});

describe('a double-clicked sign-up', () => {
  it('two identical sign-ups at once: one account, and the other answer says the account exists', async () => {
    const body = { firstName: 'Ada', lastName: 'Lovelace', email: 'double@example.com', password: PASSWORD };
    const [a, b] = await Promise.all([h.call('/sign-up/email', { body }), h.call('/sign-up/email', { body })]);
    const answers = await Promise.all([a, b].map(async (r) => ({ status: r.status, body: await r.json() })));
    expect(answers.map((x) => x.status).sort()).toEqual([200, 422]);
    const refused = answers.find((x) => x.status === 422)!;
    expect(refused.body.message).toBe(AUTH_MESSAGES.EMAIL_IN_USE);
    expect(await h.handle.db.select().from(users).where(eq(users.email, 'double@example.com'))).toHaveLength(1);
  });
});

describe('a disabled account is refused on every request, not only at sign-in', () => {
  it('a session that outlived the ban (a sign-in racing the disable) reads as signed out everywhere and is deleted', async () => {
    await h.signUpVerified({ email: 'owner@example.com' });
    const member = await h.signUpVerified({ email: 'member@example.com' });
    // The ban lands while the member still holds a session (no admin screen involved).
    await h.handle.db.update(users).set({ banned: true }).where(eq(users.id, member.userId));

    const changed = await h.call('/account/change-password', { browser: member.browser, body: { newPassword: 'new-secret', confirmPassword: 'new-secret' } });
    expect(changed.status).toBe(403);
    expect(await changed.json()).toMatchObject({ message: AUTH_MESSAGES.ACCOUNT_DISABLED });

    const again = await h.signUpVerified({ email: 'member2@example.com' });
    await h.handle.db.update(users).set({ banned: true }).where(eq(users.id, again.userId));
    const copy = new Browser();
    for (const [k, v] of again.browser.cookies) copy.cookies.set(k, v);
    expect(await readSession(new Headers({ cookie: copy.cookieHeader }), (headers) => h.auth.api.getSession({ headers }))).toBeNull();
    expect(await h.session(again.browser)).toBeNull();
    expect(await h.handle.db.select().from(sessions).where(eq(sessions.userId, again.userId))).toEqual([]);
  });

  it('a ban that has expired does not lock the member out', async () => {
    await h.signUpVerified({ email: 'owner@example.com' });
    const member = await h.signUpVerified({ email: 'member@example.com' });
    await h.handle.db.update(users).set({ banned: true, banExpires: new Date(Date.now() - 1000) }).where(eq(users.id, member.userId));
    expect((await h.session(member.browser))?.user.email).toBe('member@example.com');
  });
});
