import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Browser, createAuthHarness, PASSWORD, type AuthHarness } from '../support/auth';

let h: AuthHarness;
beforeAll(async () => {
  h = await createAuthHarness();
});
afterAll(() => h.close());

describe('sign-up and email verification', () => {
  it('stores the trimmed profile without blank optional fields, as a user, signs in unverified and mails a verification link', async () => {
    const browser = new Browser();
    const res = await h.signUp({
      firstName: '  Grace ',
      lastName: ' Hopper  ',
      email: '  Grace@Example.com ',
      phone: '  +1 555 0100  ',
      website: '   ',
      signupSource: '/packages/growth',
    }, browser);
    expect(res.status).toBe(200);
    // Seed: sign-up signs the new account in; the guard sends it to /verify-email until it verifies.
    expect(browser.sessionToken).toBeDefined();
    expect((await h.session(browser))?.user).toMatchObject({ email: 'grace@example.com', emailVerified: false, role: 'user' });

    const user = await h.userByEmail('grace@example.com');
    expect(user).toMatchObject({
      firstName: 'Grace',
      lastName: 'Hopper',
      name: 'Grace Hopper',
      email: 'grace@example.com',
      phone: '+1 555 0100',
      website: null,
      signupSource: '/packages/growth',
      role: 'user',
      emailVerified: false,
    });

    const mail = await h.smtp.nextMailTo('grace@example.com');
    expect(mail.subject).toContain('Confirm your email');
    // The address is not confirmed yet: the mail repeats nothing the sign-up typed (no phishing relay).
    expect(mail.body).toContain('Hello,');
    expect(mail.body).not.toMatch(/Grace|Hopper/);
    expect(mail.links.some((l) => l.startsWith('http://localhost:4321/api/auth/verify-email?token='))).toBe(true);
  });

  it('the emailed link verifies the account and signs the browser in', async () => {
    await h.signUp({ email: 'linus@example.com', website: 'example.org ' });
    const link = await h.verificationLinkFor('linus@example.com');
    const browser = new Browser();
    const res = await h.click(link, browser);
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/verify-email');
    const setCookie = res.headers.getSetCookie().find((c) => c.startsWith('agency.session_token='));
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);
    expect(setCookie).not.toMatch(/Secure/i); // SITE_URL is http here; https sites get Secure cookies

    const session = await h.session(browser);
    expect(session?.user).toMatchObject({ email: 'linus@example.com', emailVerified: true, website: 'https://example.org' });
  });

  it('sign-in before verification signs in an unverified session, which the emailed link then verifies', async () => {
    await h.signUp({ email: 'early@example.com' });
    const browser = new Browser();
    const res = await h.signIn('early@example.com', PASSWORD, browser);
    expect(res.status).toBe(200);
    expect((await res.json()).user).toMatchObject({ email: 'early@example.com', emailVerified: false });
    expect((await h.session(browser))?.user.emailVerified).toBe(false);

    // Opened on another device: this browser's session sees the verification at once ("I've verified").
    await h.click(await h.verificationLinkFor('early@example.com'));
    expect((await h.session(browser))?.user.emailVerified).toBe(true);
  });

  it('resending the link to a signed-in unverified member mails a new one', async () => {
    const browser = new Browser();
    await h.signUp({ email: 'again@example.com' }, browser);
    await h.verificationLinkFor('again@example.com');
    const res = await h.call('/send-verification-email', { body: { email: 'again@example.com' }, browser });
    expect(res.status).toBe(200);
    await h.verificationLinkFor('again@example.com');
    expect(h.smtp.messages.filter((m) => m.to.includes('again@example.com'))).toHaveLength(2);
  });
});

describe('bad sign-up input gets field errors and stores nothing', () => {
  const expectRejected = async (input: Record<string, unknown>, field: string, message: string | RegExp) => {
    const res = await h.call('/sign-up/email', { body: { firstName: 'Ada', lastName: 'Lovelace', password: PASSWORD, ...input } });
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body).toMatchObject({ code: 'INVALID_INPUT', message: 'Please correct the highlighted fields.' });
    expect(body.fieldErrors[field]?.[0]).toMatch(message);
    if (typeof input.email === 'string') expect(await h.userByEmail(input.email.trim())).toBeUndefined();
    expect(h.smtp.messages.some((m) => m.to.includes(String(input.email).trim().toLowerCase()))).toBe(false);
  };

  it('refuses names over 50 characters', async () => {
    await expectRejected({ email: 'long@example.com', firstName: 'A'.repeat(51) }, 'firstName', 'First name must be at most 50 characters');
    await expectRejected({ email: 'long2@example.com', lastName: 'B'.repeat(10_240) }, 'lastName', 'Last name must be at most 50 characters');
  });

  it('names are letters, marks, spaces, apostrophes, hyphens and dots only, so the verification email carries no stranger\'s sentence', async () => {
    const message = 'can only contain letters, spaces, apostrophes, hyphens and dots';
    for (const [i, firstName] of ['Click http://evil.example/x', 'Win $1000 now!', 'see evil.example/login', 'Ada: call +1 555', 'a@b', '...', "''"].entries()) {
      await expectRejected({ email: `bad-name-${i}@example.com`, firstName }, 'firstName', message);
    }
    for (const [i, [firstName, lastName]] of [
      ['José', "O'Brien-Smith"],
      ['Zoë', 'd’Arcy'],
      ['Dr. Ana María', 'García Márquez'],
      ['Дмитрий', 'Шостакович'],
      ['李', '小龍'],
      ['अनु', 'शर्मा'],
    ].entries()) {
      const res = await h.signUp({ email: `good-name-${i}@example.com`, firstName, lastName });
      expect(res.status, `${firstName} ${lastName}`).toBe(200);
    }
  });

  it('refuses invalid emails', async () => {
    for (const email of ['plainaddress', 'a@b', '@example.com', 'a b@example.com', `${'x'.repeat(250)}@example.com`]) {
      await expectRejected({ email }, 'email', 'Please enter a valid email address');
    }
  });

  it('refuses control characters and bidi overrides in names and phone', async () => {
    await expectRejected({ email: 'ctl@example.com', firstName: 'Ada\u0007' }, 'firstName', 'can only contain letters');
    await expectRejected({ email: 'ctl2@example.com', lastName: 'Love\r\nBcc: x@evil.test' }, 'lastName', 'can only contain letters');
    await expectRejected({ email: 'ctl3@example.com', firstName: 'evil\u202Etxt.exe' }, 'firstName', 'can only contain letters');
    await expectRejected({ email: 'ctl4@example.com', phone: '555\u0007' }, 'phone', /not allowed|valid phone/);
  });

  it('refuses a NUL anywhere in the body before it reaches a field (no column can hold it): 400, nothing stored', async () => {
    const res = await h.call('/sign-up/email', { body: { firstName: 'Ada\u0000', lastName: 'Lovelace', password: PASSWORD, email: 'nul@example.com' } });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: 'UNSTORABLE_TEXT' });
    expect(await h.userByEmail('nul@example.com')).toBeUndefined();
  });

  it('refuses a short password with the seed\'s message and an invalid website', async () => {
    await expectRejected({ email: 'short@example.com', password: '12345' }, 'password', 'Password must be at least 6 characters long');
    await expectRejected({ email: 'web@example.com', website: 'javascript:alert(1)' }, 'website', 'Please enter a valid website address');
  });

  it('says "email already in use" (PRODUCT.md), signs nobody in and keeps the first account unchanged', async () => {
    await h.signUp({ email: 'taken@example.com', firstName: 'First' });
    await h.verificationLinkFor('taken@example.com');
    const browser = new Browser();
    const again = await h.signUp({ email: 'Taken@example.com', firstName: 'Second', password: 'another-password' }, browser);
    expect(again.status).toBe(422);
    expect(await again.json()).toMatchObject({ message: 'An account with this email already exists' });
    expect(browser.sessionToken).toBeUndefined();
    expect((await h.userByEmail('taken@example.com'))?.firstName).toBe('First');
    expect(h.smtp.messages.filter((m) => m.to.includes('taken@example.com'))).toHaveLength(1);
  });
});
