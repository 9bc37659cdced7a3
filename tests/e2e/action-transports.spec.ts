/**
 * An Action meets one guard and one body check however it arrives: `POST /_actions/name` (what the
 * islands call) or a form post to any page with `?_action=name` (Astro's other transport). The review
 * found an unverified account updating its profile through the second.
 */
import { expect, test, type APIRequestContext } from './support/fixtures';
import { ADMIN_STATE, freshClientIp, MEMBER_STATE, newAccount, signUpViaApi } from './support/accounts';
import { send } from './support/raw-http';

const PROFILE = 'account.updateProfile';

const sessionUser = async (request: APIRequestContext) =>
  ((await (await request.get('/api/auth/get-session')).json()) as { user?: Record<string, unknown> } | null)?.user;

async function unverifiedMember(request: APIRequestContext, baseURL: string) {
  const account = newAccount('unverified');
  expect((await signUpViaApi(request, baseURL, account)).status()).toBe(200); // signs this context in
  const user = await sessionUser(request);
  expect(user).toMatchObject({ email: account.email, emailVerified: false });
  return account;
}

test('an unverified account cannot update its profile through either transport', async ({ playwright, baseURL }) => {
  const request = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { 'x-real-ip': freshClientIp() } });
  const account = await unverifiedMember(request, baseURL!);
  const form = { firstName: 'Changed', lastName: 'Bythe-Form' };

  for (const page of ['/', '/dashboard', '/services']) {
    const res = await request.post(`${page}?_action=${PROFILE}`, { form, headers: { origin: baseURL! }, maxRedirects: 0 });
    // A browser's form post is answered like a page: to /verify-email, as the seed's guard says.
    expect(res.status(), page).toBe(303);
    expect(res.headers().location).toBe('/verify-email');
  }
  const rpc = await request.post(`/_actions/${PROFILE}`, { data: form, headers: { origin: baseURL! } });
  expect(rpc.status()).toBe(403);
  expect(await rpc.json()).toMatchObject({ message: 'Email not verified yet' });

  expect(await sessionUser(request)).toMatchObject({ firstName: account.firstName, lastName: account.lastName });
  await request.dispose();
});

test('a visitor posting an Action to a page is sent to log in; nothing runs', async ({ request, baseURL }) => {
  const res = await request.post(`/?_action=${PROFILE}`, { form: { firstName: 'A', lastName: 'B' }, headers: { origin: baseURL! }, maxRedirects: 0 });
  expect(res.status()).toBe(303);
  expect(res.headers().location).toBe('/auth');
});

test('a cross-site form post to an Action or an account page is refused before anything runs', async ({ request }) => {
  for (const path of [`/?_action=${PROFILE}`, `/_actions/${PROFILE}`, '/auth', '/claim-admin']) {
    const res = await request.post(path, { form: { intent: 'login', email: 'a@example.com', password: 'x' }, headers: { origin: 'https://evil.example' } });
    expect(res.status(), path).toBe(403);
  }
});

test('a visitor\'s body to an Action is never read: 401 before the body, chunked 2 MiB included', async ({ baseURL }) => {
  const post = (body: Buffer, chunked: boolean) =>
    send(baseURL!, { method: 'POST', path: `/_actions/${PROFILE}`, headers: { 'Content-Type': 'application/json' }, body, chunked }, 30_000);
  expect((await post(Buffer.from('{"firstName":'), false)).status).toBe(401);
  const big = await post(Buffer.alloc(2 * 1024 * 1024, 'a'), true);
  expect(big.error ?? big.status).toBeTruthy();
  if (big.status !== undefined) expect(big.status).toBe(401);
});

test.describe('as a verified member', () => {
  test.use({ storageState: MEMBER_STATE });

  test('invalid JSON and an oversize chunked body get 400 and 413, never a 500', async ({ baseURL, request }) => {
    const cookie = (await request.storageState()).cookies.map((c) => `${c.name}=${c.value}`).join('; ');
    const post = (body: Buffer, chunked: boolean) =>
      send(baseURL!, { method: 'POST', path: `/_actions/${PROFILE}`, headers: { 'Content-Type': 'application/json', Cookie: cookie }, body, chunked }, 30_000);
    const invalid = await post(Buffer.from('{"firstName":'), false);
    expect(invalid.status).toBe(400);
    expect(JSON.parse(invalid.answer)).toMatchObject({ type: 'AstroActionError', message: 'The request body is not valid JSON.' });

    // 2 MiB without Content-Length: counted as it arrives, against a member Action's 16 KB.
    const big = await post(Buffer.alloc(2 * 1024 * 1024, 'a'), true);
    expect(big.status).toBe(413);
  });

  test('the guard judges the Action Astro runs: an admin Action in the path is refused whatever the query names', async ({ request, baseURL }) => {
    // Astro runs the Action in a /_actions/ path and ignores ?_action= there; the guard once judged the query.
    const res = await request.post('/_actions/admin.users.setRole?_action=users.promote', { data: {}, headers: { origin: baseURL! } });
    expect(res.status()).toBe(403);
    const body = await res.json();
    expect(body).toMatchObject({ message: 'You do not have access to this' });
    // The guard answered, not the Action's input schema: no admin field list reaches a member.
    expect(JSON.stringify(body)).not.toMatch(/userId|role/);
    // And the other way round: every Action the request names must be allowed.
    const reverse = await request.post('/_actions/users.promote?_action=admin.users.setRole', { data: {}, headers: { origin: baseURL! } });
    expect(reverse.status()).toBe(403);
  });
});

test('a write the browser marks cross-site is refused, even with this site\'s Origin', async ({ playwright, baseURL }) => {
  const request = await playwright.request.newContext({ baseURL, storageState: ADMIN_STATE });
  const res = await request.post('/_actions/admin.services.reorder', { data: { ids: [] }, headers: { origin: baseURL!, 'sec-fetch-site': 'cross-site' } });
  expect(res.status()).toBe(403);
  const lead = await request.post('/api/lead-events', { data: { kind: 'book-call', page: '/' }, headers: { origin: baseURL!, 'sec-fetch-site': 'cross-site' } });
  expect(lead.status()).toBe(403);
  await request.dispose();
});
