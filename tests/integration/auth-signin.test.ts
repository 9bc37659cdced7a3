import { eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accounts, rateLimits } from '../../src/server/db/schema';
import { Browser, createAuthHarness, PASSWORD, type AuthHarness } from '../support/auth';

let h: AuthHarness;
let userId: string;
beforeAll(async () => {
  h = await createAuthHarness();
  ({ userId } = await h.signUpVerified({ email: 'member@example.com' }));
});
afterAll(() => h.close());

describe('sign-in', () => {
  it('signs a verified member in with an httpOnly session cookie backed by a database row', async () => {
    const browser = new Browser();
    const res = await h.signIn('Member@Example.com', PASSWORD, browser);
    expect(res.status).toBe(200);
    expect(browser.sessionToken).toBeTruthy();
    expect((await h.session(browser))?.user).toMatchObject({ email: 'member@example.com', firstName: 'Ada' });
  });

  it('answers a wrong password and an unknown email with the same status and message', async () => {
    const wrong = await h.signIn('member@example.com', 'not the password');
    const unknown = await h.signIn('nobody@example.com', 'not the password');
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    const [a, b] = [await wrong.json(), await unknown.json()];
    expect(a).toEqual(b);
    expect(a).toMatchObject({ code: 'INVALID_EMAIL_OR_PASSWORD', message: 'Invalid email or password' });
  });

  it('stores the password as argon2id m=19456 t=2 p=1 (or scrypt N=2^17 r=8 p=1 on older Node)', async () => {
    const [row] = await h.handle.db.select().from(accounts).where(eq(accounts.userId, userId));
    expect(row?.password).toMatch(/^(\$argon2id\$v=19\$m=19456,t=2,p=1\$|\$scrypt\$ln=17,r=8,p=1\$)[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/);
    expect(row?.password).not.toContain(PASSWORD);
  });

  it('brute force from one address hits the rate limit (429 with a retry time), counted in the database', async () => {
    const ip = '203.0.113.7';
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await h.signIn('member@example.com', `guess-${i}`, undefined, ip)).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);

    // Even the right password is refused until the window passes.
    const blocked = await h.signIn('member@example.com', PASSWORD, undefined, ip);
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Number(blocked.headers.get('retry-after'))).toBeLessThanOrEqual(60);

    const rows = await h.handle.db.select().from(rateLimits).where(like(rateLimits.key, `%${ip}%`));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ count: 5 });
    expect(rows[0]!.key).toContain('/sign-in/email');

    // Another address is not affected.
    expect((await h.signIn('member@example.com', PASSWORD, undefined, '198.51.100.9')).status).toBe(200);
  });

  it('rejects malformed sign-in input with field errors instead of a server error', async () => {
    const res = await h.call('/sign-in/email', { body: { email: 'not-an-email', password: '' } });
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.code).toBe('INVALID_INPUT');
    expect(body.fieldErrors).toMatchObject({ email: ['Please enter a valid email address'], password: ['Please enter a password'] });
  });
});
