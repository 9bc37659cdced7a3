/**
 * Auth test harness: a fresh migrated database, a real SMTP server, and the app's better-auth instance
 * wired to both. Requests go through `auth.handler(new Request(...))` like the browser's would, with a
 * cookie jar per simulated browser and a distinct client IP per request unless a test pins one.
 */
import { randomInt } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { createAuth, type Auth } from '../../src/server/auth/create-auth';
import { handleAuthRequest } from '../../src/server/auth/handler';
import type { DatabaseHandle } from '../../src/server/db/client';
import { users } from '../../src/server/db/schema';
import { createMailer } from '../../src/server/mail';
import { freshDatabase } from './db';
import { startSmtpServer, type TestSmtpServer } from './smtp';

export const SITE = 'http://localhost:4321';
export const SECRET = 'test-secret-that-is-long-enough-for-hs256-signing';

export const randomIp = () => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;

export class Browser {
  readonly cookies = new Map<string, string>();

  get cookieHeader() {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  remember(response: Response) {
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attrs] = line.split(';');
      const [name, ...value] = pair!.split('=');
      const expired = attrs.some((a) => /^\s*max-age=0\s*$/i.test(a));
      if (expired || value.join('=') === '') this.cookies.delete(name!.trim());
      else this.cookies.set(name!.trim(), value.join('='));
    }
  }

  get sessionToken() {
    return this.cookies.get('agency.session_token');
  }
}

export interface CallOptions {
  method?: string;
  body?: unknown;
  browser?: Browser;
  ip?: string;
  headers?: Record<string, string>;
}

export interface AuthHarness {
  auth: Auth;
  smtp: TestSmtpServer;
  handle: DatabaseHandle;
  call(path: string, options?: CallOptions): Promise<Response>;
  /** Follows an emailed link (absolute URL) the way a browser click would: GET, no Origin. */
  click(url: string, browser?: Browser): Promise<Response>;
  signUp(input: Partial<SignUpBody> & { email: string }, browser?: Browser): Promise<Response>;
  verificationLinkFor(email: string): Promise<string>;
  /** Signs up, clicks the emailed link; the browser ends signed in. */
  signUpVerified(input: Partial<SignUpBody> & { email: string }): Promise<{ browser: Browser; userId: string }>;
  signIn(email: string, password: string, browser?: Browser, ip?: string): Promise<Response>;
  session(browser: Browser): Promise<{ user: Record<string, unknown>; session: Record<string, unknown> } | null>;
  userByEmail(email: string): Promise<typeof users.$inferSelect | undefined>;
  close(): Promise<void>;
}

export interface SignUpBody {
  firstName: string;
  lastName: string;
  email: string;
  password: string;
  phone?: string;
  website?: string;
  signupSource?: string;
}

export const PASSWORD = 'correct horse';

export async function createAuthHarness(): Promise<AuthHarness> {
  const smtp = await startSmtpServer();
  const handle = await freshDatabase();
  const silent = { info: () => {} };
  const mailer = createMailer({ from: 'Test Agency <no-reply@example.test>', smtpUrl: smtp.url, outboxDir: '/nonexistent', logger: silent });
  const auth = createAuth({ db: handle.db, siteUrl: SITE, secret: SECRET, mailer, siteName: async () => 'Test Agency' });

  // Through the app's edge (handleAuthRequest), as the browser's requests are: endpoint allowlist, origin,
  // body checks and the client address the rate limits key on.
  async function call(path: string, { method = 'POST', body, browser, ip, headers = {} }: CallOptions = {}) {
    const h = new Headers(headers);
    if (method !== 'GET') {
      h.set('content-type', 'application/json');
      if (!('origin' in headers)) h.set('origin', SITE);
    }
    if (browser?.cookies.size) h.set('cookie', browser.cookieHeader);
    const request = new Request(`${SITE}/api/auth${path}`, { method, headers: h, body: body === undefined ? undefined : JSON.stringify(body) });
    const response = await handleAuthRequest(request, { auth, siteUrl: SITE, clientAddress: ip ?? randomIp() });
    browser?.remember(response);
    return response;
  }

  async function click(url: string, browser?: Browser) {
    const h = new Headers();
    if (browser?.cookies.size) h.set('cookie', browser.cookieHeader);
    const response = await handleAuthRequest(new Request(url, { method: 'GET', headers: h, redirect: 'manual' }), {
      auth,
      siteUrl: SITE,
      clientAddress: randomIp(),
    });
    browser?.remember(response);
    return response;
  }

  const signUp = (input: Partial<SignUpBody> & { email: string }, browser?: Browser) =>
    call('/sign-up/email', { body: { firstName: 'Ada', lastName: 'Lovelace', password: PASSWORD, ...input }, browser });

  async function verificationLinkFor(email: string) {
    const mail = await smtp.nextMailTo(email);
    const url = mail.links.find((l) => l.includes('/api/auth/verify-email?'));
    if (!url) throw new Error(`no verification link in mail to ${email}: ${mail.subject}`);
    return url;
  }

  async function userByEmail(email: string) {
    const [row] = await handle.db.select().from(users).where(eq(users.email, email.toLowerCase()));
    return row;
  }

  return {
    auth,
    smtp,
    handle,
    call,
    click,
    signUp,
    verificationLinkFor,
    async signUpVerified(input) {
      const res = await signUp(input);
      if (res.status !== 200) throw new Error(`sign-up failed: ${res.status} ${await res.text()}`);
      const browser = new Browser();
      await click(await verificationLinkFor(input.email), browser);
      const user = await userByEmail(input.email);
      return { browser, userId: user!.id };
    },
    signIn: (email, password, browser, ip) => call('/sign-in/email', { body: { email, password }, browser, ip }),
    async session(browser) {
      const res = await call('/get-session', { method: 'GET', browser });
      return (await res.json()) as Awaited<ReturnType<AuthHarness['session']>>;
    },
    userByEmail,
    async close() {
      await smtp.close();
      await handle.close();
    },
  };
}
