/**
 * The app's auth instance, created on first use after the database is ready (ready() in the start-up
 * path), never before: better-auth keeps the Drizzle handle it is given.
 */
import { config } from '../config';
import { dbHandle } from '../db';
import { getMailer } from '../mail';
import { getSiteContent } from '../modules/site/service';
import { createAuth, type Auth } from './create-auth';
import { resolveAuthSecret } from './secret';

export { createAuth, type Auth, type AuthDeps } from './create-auth';
export { handleAuthRequest } from './handler';

const state = globalThis as unknown as { __appAuth?: { auth: Auth; handle: object } };

export function getAuth(): Auth {
  const handle = dbHandle();
  if (!handle) throw new Error('Auth used before the database is ready: await ready() first');
  // A new database handle (tests, a restart of the handle) gets a new instance bound to it.
  if (state.__appAuth?.handle !== handle) {
    const cfg = config();
    const auth = createAuth({
      db: handle.db,
      siteUrl: cfg.SITE_URL,
      trustedOrigins: cfg.trustedOrigins,
      secret: resolveAuthSecret(cfg),
      mailer: getMailer(),
      siteName: async () => (await getSiteContent()).siteName,
    });
    state.__appAuth = { auth, handle };
  }
  return state.__appAuth.auth;
}

/** The signed-in member for a request (headers with the session cookie), or null. For middleware/pages. */
export async function getSession(headers: Headers) {
  return getAuth().api.getSession({ headers });
}
