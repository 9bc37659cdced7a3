/**
 * Seed section 2's route guard, enforced by the server: every protected route × visitor / member / admin,
 * the member-only price API and the admin-only Action.
 */
import { expect, test, type APIRequestContext } from './support/fixtures';
import { SEED_ADMIN_ROUTES } from '../support/seed-routes';
import { ADMIN_STATE, MEMBER_STATE, freshClientIp, newAccount, signUpViaApi, verificationLink } from './support/accounts';

const ADMIN_ROUTES = SEED_ADMIN_ROUTES;
const PROTECTED = ['/dashboard', '/verify-email', ...ADMIN_ROUTES];

async function landing(request: APIRequestContext, path: string) {
  const res = await request.get(path, { maxRedirects: 0 });
  return { status: res.status(), location: res.headers()['location'], cacheControl: res.headers()['cache-control'] };
}

test.describe('visitor', () => {
  test('every protected route sends a visitor to /auth, never cached', async ({ request }) => {
    for (const path of PROTECTED) {
      expect(await landing(request, path), path).toEqual({ status: 302, location: '/auth', cacheControl: 'private, no-store' });
    }
  });

  test('a browser lands on the sign-in page', async ({ page }) => {
    await page.goto('/admin/users/some-id');
    await expect(page).toHaveURL(/\/auth$/);
    await page.goto('/dashboard');
    await expect(page).toHaveURL(/\/auth$/);
  });

  test('/api/prices answers 401 JSON without a price', async ({ request }) => {
    const res = await request.get('/api/prices');
    expect(res.status()).toBe(401);
    expect(res.headers()['cache-control']).toBe('private, no-store');
    expect(await res.json()).toEqual({ code: 'UNAUTHORIZED', message: 'No user logged in' });
  });

  test('a made-up session cookie is still a visitor', async ({ request }) => {
    const res = await request.get('/dashboard', { maxRedirects: 0, headers: { cookie: 'agency.session_token=forged.value' } });
    expect(res.status()).toBe(302);
    expect(res.headers()['location']).toBe('/auth');
  });
});

test.describe('member', () => {
  test.use({ storageState: MEMBER_STATE });

  test('opens /dashboard and /verify-email; every admin route sends them to /dashboard', async ({ request }) => {
    expect((await landing(request, '/dashboard')).status).toBe(200);
    expect((await landing(request, '/verify-email')).status).toBe(200);
    for (const path of ADMIN_ROUTES) {
      expect(await landing(request, path), path).toEqual({ status: 302, location: '/dashboard', cacheControl: 'private, no-store' });
    }
  });

  test('gets prices from /api/prices', async ({ request }) => {
    const res = await request.get('/api/prices');
    expect(res.status()).toBe(200);
    expect(res.headers()['cache-control']).toBe('private, no-store');
    const body = (await res.json()) as { currency: string; services: object; packages: object };
    expect(body.currency).toMatch(/^[A-Z]{3}$/);
    expect(Object.keys(body.services).length).toBeGreaterThan(0);
    expect(Object.keys(body.packages).length).toBeGreaterThan(0);
  });

  test('calling the admin Action users.promote is refused with 403 and changes nothing', async ({ request, baseURL, playwright }) => {
    const admin = await playwright.request.newContext({ baseURL, storageState: ADMIN_STATE });
    const adminUser = (await (await admin.get('/api/auth/get-session')).json()).user as { id: string; role: string };
    await admin.dispose();
    const me = (await (await request.get('/api/auth/get-session')).json()).user as { id: string; role: string };
    expect(me.role).toBe('user');

    for (const userId of [me.id, adminUser.id]) {
      const res = await request.post('/_actions/users.promote', { headers: { origin: baseURL! }, data: { userId } });
      expect(res.status(), userId).toBe(403);
      expect(res.headers()['cache-control']).toBe('private, no-store');
      expect(await res.json()).toMatchObject({ code: 'FORBIDDEN', message: 'Only an admin can change roles' });
    }
    const after = (await (await request.get('/api/auth/get-session')).json()).user as { role: string };
    expect(after.role).toBe('user');
  });

  test('an Action posted from another site is refused before it runs', async ({ request }) => {
    const res = await request.post('/_actions/account.updateProfile', {
      headers: { origin: 'https://evil.example' },
      data: { firstName: 'Hacked', lastName: 'By' },
    });
    expect(res.status()).toBe(403);
    const me = (await (await request.get('/api/auth/get-session')).json()).user as { firstName: string };
    expect(me.firstName).not.toBe('Hacked');
  });
});

test.describe('admin', () => {
  test.use({ storageState: ADMIN_STATE });

  test('opens /dashboard (their prices) and passes the guard on every admin route', async ({ request }) => {
    expect((await landing(request, '/dashboard')).status).toBe(200);
    for (const path of ADMIN_ROUTES) {
      const { status, location } = await landing(request, path);
      // The admin pages themselves are built separately; the guard must not send an admin away.
      expect(location, path).toBeUndefined();
      expect([200, 404], path).toContain(status);
    }
    expect((await request.get('/api/prices')).status()).toBe(200);
  });
});

test.describe('unverified account', () => {
  test('is sent to /verify-email until the emailed link is clicked, then reaches /dashboard', async ({ playwright, baseURL }) => {
    const request = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { 'x-real-ip': freshClientIp() } });
    const account = newAccount('unverified');
    expect((await signUpViaApi(request, baseURL!, account)).status()).toBe(200);
    // Logging in before verifying works (seed), but the session is an unverified one.
    const signIn = await request.post('/api/auth/sign-in/email', { headers: { origin: baseURL! }, data: { email: account.email, password: account.password } });
    expect(signIn.status()).toBe(200);
    expect((await signIn.json()).user).toMatchObject({ email: account.email, emailVerified: false, role: 'user' });
    expect((await landing(request, '/verify-email')).status).toBe(200);
    expect(await landing(request, '/dashboard')).toMatchObject({ status: 302, location: '/verify-email' });
    expect(await landing(request, '/admin/users')).toMatchObject({ status: 302, location: '/verify-email' });
    // API routes and Actions answer instead of redirecting; no price reaches an unverified account.
    const prices = await request.get('/api/prices');
    expect(prices.status()).toBe(403);
    expect(await prices.json()).toMatchObject({ code: 'FORBIDDEN', message: 'Email not verified yet' });

    // The link verifies and signs in: the guard now lets them through.
    const verify = await request.get(await verificationLink(account.email), { maxRedirects: 0 });
    expect(verify.status()).toBe(302);
    expect((await landing(request, '/dashboard')).status).toBe(200);
    expect((await request.get('/api/prices')).status()).toBe(200);
    await request.dispose();
  });
});
