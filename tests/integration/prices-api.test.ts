import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { packageServices, packages, services, users } from '../../src/server/db/schema';
import { guardDecision } from '../../src/server/guards';
import { readSession } from '../../src/server/guards/session';
import { getPriceList, getPriceSheet } from '../../src/server/modules/prices/service';
import { GET } from '../../src/pages/api/prices';
import { createAuthHarness, type AuthHarness, type Browser } from '../support/auth';

let h: AuthHarness;
beforeEach(async () => {
  h = await createAuthHarness();
  const db = h.handle.db;
  await db.insert(services).values([
    { id: 's1', name: 'Outreach', price: 750, order: 1 },
    { id: 's2', name: 'Nurturing', price: 497.5, order: 0 },
    { id: 's3', name: 'Reminders', price: null, order: 2 },
  ]);
  await db.insert(packages).values([
    { id: 'growth', name: 'Growth', priceSetup: 1500, priceMonthly: 497, order: 0 },
    { id: 'starter', name: 'Starter', priceSetup: 900, priceMonthly: 199, order: 1 },
    { id: 'retired', name: 'Retired', priceSetup: 9999, priceMonthly: 999, isActive: false },
  ]);
  await db.insert(packageServices).values(['s1', 's2', 's3'].map((serviceId, position) => ({ packageId: 'growth', serviceId, position })));
});
afterEach(() => h.close());

/** What the middleware does for /api/prices, then the route itself: the whole server-side path. */
async function getPrices(browser?: Browser | string) {
  const cookie = typeof browser === 'string' ? browser : browser?.cookieHeader;
  const headers = new Headers(cookie ? { cookie } : {});
  const found = await readSession(headers, (hs) => h.auth.api.getSession({ headers: hs }));
  const decision = guardDecision('/api/prices', found?.user);
  const locals = found ? { user: found.user, session: found.session } : {};
  // The route repeats the check on its own, so call it even when the guard would have answered.
  const response = await GET({ locals } as Parameters<typeof GET>[0]);
  return { decision, response };
}

describe('/api/prices', () => {
  it('answers 401 to a visitor and leaks no price', async () => {
    const { decision, response } = await getPrices();
    expect(decision).toMatchObject({ kind: 'deny', status: 401 });
    expect(response.status).toBe(401);
    expect(response.headers.get('cache-control')).toBe('private, no-store');
    const text = await response.text();
    expect(text).not.toMatch(/750|1500|price/i);
  });

  it('answers 403 to a signed-in account whose email is not verified', async () => {
    const { browser, userId } = await h.signUpVerified({ email: 'later-unverified@example.com' });
    await h.handle.db.update(users).set({ emailVerified: false }).where(eq(users.id, userId));
    const { decision, response } = await getPrices(browser);
    expect(decision).toMatchObject({ kind: 'deny', status: 403 });
    expect(response.status).toBe(403);
  });

  it('gives a verified member and an admin every service and only active packages', async () => {
    const admin = await h.signUpVerified({ email: 'owner@example.com' });
    const member = await h.signUpVerified({ email: 'member@example.com' });
    expect((await h.userByEmail('owner@example.com'))?.role).toBe('admin');
    for (const who of [member, admin]) {
      const { decision, response } = await getPrices(who.browser);
      expect(decision).toEqual({ kind: 'allow' });
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toBe('private, no-store');
      expect(await response.json()).toEqual({
        currency: 'USD',
        services: { s1: { price: 750 }, s2: { price: 497.5 }, s3: { price: null } },
        packages: { growth: { priceSetup: 1500, priceMonthly: 497 }, starter: { priceSetup: 900, priceMonthly: 199 } },
      });
    }
  });

  it('a session that has ended (signed out) is a visitor again', async () => {
    const member = await h.signUpVerified({ email: 'member@example.com' });
    const staleCookie = member.browser.cookieHeader;
    expect((await getPrices(staleCookie)).response.status).toBe(200);
    await h.call('/sign-out', { body: {}, browser: member.browser });
    // Replay the old cookie, the way a stale or copied cookie would arrive: its session row is gone.
    const { response } = await getPrices(staleCookie);
    expect(response.status).toBe(401);
  });
});

describe('price list for the dashboard', () => {
  it('is ordered, marks BEST VALUE, and matches the sheet', async () => {
    const list = await getPriceList();
    expect(list.services.map((s) => s.id)).toEqual(['s2', 's1', 's3']);
    expect(list.packages).toEqual([
      { id: 'growth', name: 'Growth', priceSetup: 1500, priceMonthly: 497, bestValue: true },
      { id: 'starter', name: 'Starter', priceSetup: 900, priceMonthly: 199, bestValue: false },
    ]);
    const sheet = await getPriceSheet();
    expect(Object.keys(sheet.packages)).not.toContain('retired');
  });
});
