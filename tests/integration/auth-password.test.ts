import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { sessions } from '../../src/server/db/schema';
import { Browser, createAuthHarness, PASSWORD, type AuthHarness } from '../support/auth';

let h: AuthHarness;
beforeAll(async () => {
  h = await createAuthHarness();
});
afterAll(() => h.close());
afterEach(() => vi.useRealTimers());

const changePassword = (browser: Browser | undefined, newPassword: string, confirmPassword = newPassword) =>
  h.call('/account/change-password', { browser, body: { newPassword, confirmPassword } });

describe('change password (settings dialog)', () => {
  it('answers with the seed\'s messages for mismatched and short passwords, and without a session', async () => {
    const { browser } = await h.signUpVerified({ email: 'rules@example.com' });
    const mismatch = await changePassword(browser, 'abcdef', 'abcdeg');
    expect(mismatch.status).toBe(400);
    expect((await mismatch.json()).fieldErrors.confirmPassword).toEqual(['Passwords do not match']);

    const short = await changePassword(browser, 'abc');
    expect((await short.json()).fieldErrors.newPassword).toEqual(['Password must be at least 6 characters long']);

    const anonymous = await changePassword(undefined, 'abcdefgh');
    expect(anonymous.status).toBe(401);
    expect((await anonymous.json()).message).toBe('No user logged in');
  });

  it('needs a recent sign-in', async () => {
    const { browser, userId } = await h.signUpVerified({ email: 'stale@example.com' });
    await h.handle.db
      .update(sessions)
      .set({ createdAt: new Date(Date.now() - 60 * 60 * 1000) })
      .where(eq(sessions.userId, userId));
    const res = await changePassword(browser, 'brand new secret');
    expect(res.status).toBe(403);
    expect((await res.json()).message).toBe(
      'For security reasons, please log out and log back in before changing your password.',
    );
    expect((await h.signIn('stale@example.com', PASSWORD)).status).toBe(200); // unchanged
  });

  it('updates the password, ends the other sessions, keeps this one and mails a notice', async () => {
    const { browser: laptop } = await h.signUpVerified({ email: 'change@example.com' });
    const phone = new Browser();
    await h.signIn('change@example.com', PASSWORD, phone);
    expect(await h.session(phone)).not.toBeNull();

    const res = await changePassword(laptop, 'a whole new secret');
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ message: 'Password updated successfully!' });

    expect(await h.session(phone)).toBeNull();
    expect((await h.session(laptop))?.user.email).toBe('change@example.com');
    expect((await h.signIn('change@example.com', PASSWORD)).status).toBe(401);
    expect((await h.signIn('change@example.com', 'a whole new secret')).status).toBe(200);
    expect((await h.smtp.nextMailTo('change@example.com')).subject).toContain('password was changed');
  });
});

describe('forgot password / reset by link', () => {
  const requestReset = (email: string) => h.call('/request-password-reset', { body: { email } });
  async function resetLink(email: string) {
    await requestReset(email);
    for (;;) {
      const link = (await h.smtp.nextMailTo(email)).links.find((l) => l.includes('/api/auth/reset-password/'));
      if (link) return link; // skips other mail to the same address (e.g. a password-changed notice)
    }
  }
  const tokenFrom = (location: string | null) => new URL(location!, 'http://x').searchParams.get('token');

  it('the reset mail (anyone may ask for one with any address) does not repeat the name the account was made with', async () => {
    await h.signUp({ email: 'named@example.com', firstName: 'Visit', lastName: 'phish.example' });
    await h.verificationLinkFor('named@example.com');
    await requestReset('named@example.com');
    const mail = await h.smtp.nextMailTo('named@example.com');
    expect(mail.subject).toContain('Reset your');
    expect(mail.body).not.toMatch(/phish|Visit/);
  });

  it('mails a link that leads to the reset page, sets the new password and signs out everywhere', async () => {
    const { browser } = await h.signUpVerified({ email: 'forgot@example.com' });
    const link = await resetLink('forgot@example.com');
    const landing = await h.click(link);
    expect(landing.status).toBe(302);
    expect(landing.headers.get('location')).toMatch(/^http:\/\/localhost:4321\/auth\/reset-password\?token=/);

    const res = await h.call('/reset-password', { body: { token: tokenFrom(landing.headers.get('location')), newPassword: 'fresh password' } });
    expect(res.status).toBe(200);
    expect(await h.session(browser)).toBeNull();
    expect((await h.signIn('forgot@example.com', 'fresh password')).status).toBe(200);
    expect((await h.smtp.nextMailTo('forgot@example.com')).subject).toContain('password was changed');
  });

  it('answers an unknown address like a known one (no account probing) and sends nothing', async () => {
    const res = await requestReset('ghost@example.com');
    expect(res.status).toBe(200);
    await expect(h.smtp.nextMailTo('ghost@example.com', 300)).rejects.toThrow('no mail');
  });

  it('a used, expired or forged reset link gives "expired or invalid"', async () => {
    await h.signUpVerified({ email: 'tokens@example.com' });
    const expectInvalid = async (res: Response) => {
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ code: 'INVALID_TOKEN', message: 'This link has expired or is invalid. Please request a new one.' });
    };

    // Used: the second submit with the same token.
    const usedLink = await resetLink('tokens@example.com');
    const token = tokenFrom((await h.click(usedLink)).headers.get('location'));
    expect((await h.call('/reset-password', { body: { token, newPassword: 'first reset' } })).status).toBe(200);
    await expectInvalid(await h.call('/reset-password', { body: { token, newPassword: 'second reset' } }));
    // Clicking the used link again lands on the page with the error code instead of a token.
    expect((await h.click(usedLink)).headers.get('location')).toMatch(/\/auth\/reset-password\?error=INVALID_TOKEN$/);

    // Forged.
    await expectInvalid(await h.call('/reset-password', { body: { token: 'forged-token-value-123456', newPassword: 'whatever1' } }));
    const forgedClick = await h.click('http://localhost:4321/api/auth/reset-password/forged?callbackURL=%2Fauth%2Freset-password');
    expect(forgedClick.headers.get('location')).toMatch(/\/auth\/reset-password\?error=INVALID_TOKEN$/);

    // Expired: valid for one hour.
    const link = await resetLink('tokens@example.com');
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 61 * 60 * 1000 });
    const late = await h.click(link);
    expect(late.headers.get('location')).toMatch(/error=INVALID_TOKEN/);
    const lateToken = link.split('/reset-password/')[1]!.split('?')[0];
    await expectInvalid(await h.call('/reset-password', { body: { token: lateToken, newPassword: 'too late!' } }));
    vi.useRealTimers();
    expect((await h.signIn('tokens@example.com', 'first reset')).status).toBe(200);
  });
});

describe('verification links', () => {
  const expectInvalidRedirect = (res: Response) => {
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toMatch(/^\/verify-email\?error=(INVALID_TOKEN|TOKEN_EXPIRED)$/);
    expect(res.headers.getSetCookie().some((c) => c.startsWith('agency.session_token=') && !/max-age=0/i.test(c))).toBe(false);
  };

  it('a used verification link gives "expired or invalid" and no new session', async () => {
    await h.signUp({ email: 'twice@example.com' });
    const link = await h.verificationLinkFor('twice@example.com');
    expect((await h.click(link)).status).toBe(302);
    expectInvalidRedirect(await h.click(link, new Browser()));
    const api = await h.click(link.replace(/&callbackURL=[^&]*/, ''));
    expect(api.status).toBe(401);
    expect(await api.json()).toMatchObject({ code: 'INVALID_TOKEN', message: 'This link has expired or is invalid. Please request a new one.' });
  });

  it('a forged or tampered verification link is refused and verifies nothing', async () => {
    await h.signUp({ email: 'forged@example.com' });
    const link = new URL(await h.verificationLinkFor('forged@example.com'));
    const [head, payload] = link.searchParams.get('token')!.split('.');
    link.searchParams.set('token', `${head}.${payload}.${'A'.repeat(43)}`);
    expectInvalidRedirect(await h.click(link.href, new Browser()));
    expect((await h.userByEmail('forged@example.com'))?.emailVerified).toBe(false);
  });

  it('an expired verification link (older than 24 hours) is refused', async () => {
    await h.signUp({ email: 'slow@example.com' });
    const link = await h.verificationLinkFor('slow@example.com');
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 25 * 60 * 60 * 1000 });
    expectInvalidRedirect(await h.click(link, new Browser()));
    vi.useRealTimers();
    expect((await h.userByEmail('slow@example.com'))?.emailVerified).toBe(false);
  });

  it('resending a verification email works for the unverified and is rate limited', async () => {
    await h.signUp({ email: 'resend@example.com' });
    await h.verificationLinkFor('resend@example.com');
    const ip = '192.0.2.44';
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await h.call('/send-verification-email', { ip, body: { email: 'resend@example.com' } })).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    const fresh = await h.verificationLinkFor('resend@example.com');
    expect((await h.click(fresh)).status).toBe(302);
    expect((await h.userByEmail('resend@example.com'))?.emailVerified).toBe(true);
  });
});
