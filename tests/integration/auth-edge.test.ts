/** The /api/auth/* route's own checks (src/server/auth/handler.ts), in front of better-auth. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handleAuthRequest, type AuthRequestContext } from '../../src/server/auth/handler';
import { createAuthHarness, PASSWORD, SITE, type AuthHarness } from '../support/auth';

let h: AuthHarness;
beforeAll(async () => {
  h = await createAuthHarness();
  await h.signUpVerified({ email: 'edge@example.com' });
});
afterAll(() => h.close());

function post(path: string, body: string, headers: Record<string, string> = {}, ctx: AuthRequestContext = {}) {
  const request = new Request(`${SITE}/api/auth${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: SITE, ...headers },
    body,
  });
  return handleAuthRequest(request, { auth: h.auth, siteUrl: SITE, clientAddress: '127.0.0.1', ...ctx });
}

const signUpBody = (email: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ firstName: 'Ada', lastName: 'Lovelace', email, password: PASSWORD, ...extra });

describe('/api/auth edge', () => {
  it('refuses a cross-site JSON post and stores nothing', async () => {
    const res = await post('/sign-up/email', signUpBody('csrf@example.com'), { origin: 'https://evil.example' });
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ code: 'FORBIDDEN_ORIGIN' });
    expect(await h.userByEmail('csrf@example.com')).toBeUndefined();
  });

  it('refuses a 1 MB body with a clear error and stores nothing', async () => {
    const res = await post('/sign-up/email', signUpBody('huge@example.com', { padding: 'x'.repeat(1_048_576) }));
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ code: 'REQUEST_TOO_LARGE', message: 'The request is too large.' });
    expect(await h.userByEmail('huge@example.com')).toBeUndefined();
  });

  it('answers malformed JSON and unknown paths with JSON errors, never a 500, never cached', async () => {
    const bad = await post('/sign-in/email', '{"email": ', {}, { clientAddress: '192.0.2.1' });
    expect(bad.status).toBe(400);
    expect(bad.headers.get('content-type')).toContain('application/json');
    expect(bad.headers.get('cache-control')).toBe('private, no-store');

    const missing = await handleAuthRequest(new Request(`${SITE}/api/auth/nope`), { auth: h.auth, siteUrl: SITE });
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ code: 'NOT_FOUND' });
  });

  it('limits by the socket address: a spoofed client-IP header does not buy fresh attempts', async () => {
    const attempt = (i: number) =>
      post('/sign-in/email', JSON.stringify({ email: 'edge@example.com', password: `wrong-${i}` }), { 'x-agency-client-ip': `10.9.9.${i}`, 'x-forwarded-for': `10.8.8.${i}` }, { clientAddress: '198.51.100.20' });
    const statuses = [];
    for (let i = 0; i < 6; i++) statuses.push((await attempt(i)).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);

    const limited = await attempt(7);
    const body = await limited.json();
    expect(body.code).toBe('TOO_MANY_REQUESTS');
    expect(body.message).toMatch(/^Too many attempts\. Please try again in \d+ (seconds?|minutes?)\.$/);
    expect(body.retryAfter).toBeGreaterThan(0);
    expect(limited.headers.get('retry-after')).toBe(String(body.retryAfter));
  });

  it('never rate-limits "who is signed in": every page view of every visitor at one address asks it', async () => {
    const statuses = new Set<number>();
    for (let i = 0; i < 150; i++) {
      const res = await handleAuthRequest(new Request(`${SITE}/api/auth/get-session`), {
        auth: h.auth,
        siteUrl: SITE,
        clientAddress: '198.51.100.77',
      });
      statuses.add(res.status);
    }
    expect([...statuses]).toEqual([200]);
  });

  it('behind a proxy, uses TRUSTED_PROXY_IP_HEADER to tell clients apart', async () => {
    const attempt = (client: string) =>
      // An address of its own: the per-account limit (counted for unknown addresses too) is not what this tests.
      post('/sign-in/email', JSON.stringify({ email: 'proxy-test@example.com', password: 'wrong' }), { 'x-real-ip': client }, { clientAddress: '10.0.0.1', trustedProxyIpHeader: 'x-real-ip' });
    for (let i = 0; i < 5; i++) expect((await attempt('203.0.113.50')).status).toBe(401);
    expect((await attempt('203.0.113.50')).status).toBe(429);
    expect((await attempt('203.0.113.51')).status).toBe(401); // another client behind the same proxy
  });
});
