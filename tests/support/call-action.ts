/**
 * Calling an Astro Action's handler in an integration test as the middleware leaves it: `locals.user` from
 * the browser's session cookie (none: a visitor), and a route cache whose invalidations are recorded, so a
 * test sees both the answer (or the refusal) and the cache tags the Action dropped. The test file mocks
 * `astro:actions` with Astro's real runtime itself (vi.mock is hoisted per file).
 */
import { vi } from 'vitest';
import { readSession } from '../../src/server/guards/session';
import type { AuthHarness, Browser } from './auth';

type Handler = { orThrow: (this: unknown, input: unknown) => Promise<unknown> };

export function actionCaller(h: AuthHarness) {
  async function contextFor(browser: Browser | undefined, invalidate: (o: { tags: string[] }) => void) {
    const headers = new Headers(browser ? { cookie: browser.cookieHeader } : {});
    const found = await readSession(headers, (hs) => h.auth.api.getSession({ headers: hs }));
    return { locals: found ? { user: found.user, session: found.session } : {}, cache: { enabled: true, invalidate } };
  }
  /** The Action's answer; `invalidate` records each { tags } the Action dropped. */
  return async (action: unknown, input: unknown, browser: Browser | undefined, invalidate: (o: { tags: string[] }) => void = vi.fn()) =>
    (action as Handler).orThrow.call(await contextFor(browser, invalidate), input);
}
