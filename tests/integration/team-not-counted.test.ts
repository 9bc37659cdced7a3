/**
 * Keeping the team out of the numbers (decision 032): the owner's (and every admin's) own sign-up, chat or
 * book-a-call is no lead on /admin/leads, in the overview's counts, its "where leads came from" or the
 * conversion rate; a member promoted later leaves them too, and comes back when demoted. A page view or a
 * page-time record sent while signed in as an admin is not counted; a visitor's and a member's are. And
 * the overview counts its days in the site's time zone: a view and a lead just after midnight UTC fall on
 * the day before in New York.
 */
import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { clearAllMemos } from '../../src/server/cache/memo';
import { analyticsDays, appConfig, leadEvents, pageTimes, users } from '../../src/server/db/schema';
import { handleVisitPost, visitRateLimit } from '../../src/server/modules/analytics/http';
import { flushAnalytics, stopFlushing } from '../../src/server/modules/analytics/ingest';
import { analyticsReport } from '../../src/server/modules/analytics/report';
import { clearSaltCache } from '../../src/server/modules/analytics/salt';
import { findPerson, listPeople } from '../../src/server/modules/leads/people';
import { leadOverview } from '../../src/server/modules/leads/service';
import { handlePageViewPost } from '../../src/server/modules/page-time/http';
import { dayKeyIn } from '../../src/shared/dates';
import { leadPeriodRange } from '../../src/shared/lead-events';
import { peopleQueryOf } from '../../src/shared/lead-people';
import { createAuthHarness, randomIp, SITE, type AuthHarness, type Browser } from '../support/auth';

const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

let h: AuthHarness;
beforeEach(async () => {
  h = await createAuthHarness();
  clearAllMemos();
  clearSaltCache();
  visitRateLimit.reset();
});
afterEach(async () => {
  stopFlushing();
  await flushAnalytics();
  await h.close();
});

const sessionOf = (headers: Headers) => h.auth.api.getSession({ headers });

/** The beacon as a browser sends it: from this site, with the cookies it holds (none for a visitor). */
function beacon(browser?: Browser, now?: Date) {
  const headers = new Headers({ 'content-type': 'text/plain;charset=UTF-8', origin: SITE, 'user-agent': CHROME });
  if (browser) headers.set('cookie', browser.cookieHeader);
  const request = new Request(`${SITE}/api/visits`, { method: 'POST', headers, body: JSON.stringify({ p: '/', r: '', w: 1280 }) });
  return handleVisitPost(request, randomIp(), now, sessionOf);
}

const people = async () => (await listPeople(peopleQueryOf(new URLSearchParams()), { actorId: undefined, today: '2026-11-26' })).rows.map((r) => r.email);

/** The owner (first verified account: admin) and a member, both signed up through the form. */
async function ownerAndMember() {
  const owner = await h.signUpVerified({ email: 'owner@example.com' });
  const member = await h.signUpVerified({ email: 'mia@example.com' });
  expect((await h.userByEmail('owner@example.com'))?.role).toBe('admin');
  expect(await h.handle.db.select({ email: leadEvents.email }).from(leadEvents).orderBy(leadEvents.email)).toEqual([{ email: 'mia@example.com' }, { email: 'owner@example.com' }]);
  return { owner, member };
}

describe('admins are not leads', () => {
  it('the owner’s sign-up is recorded but listed and counted nowhere; the member’s is', async () => {
    await ownerAndMember();
    expect(await people()).toEqual(['mia@example.com']);
    expect(await findPerson('owner@example.com')).toBeUndefined();

    const overview = await leadOverview(7);
    expect(overview.totals.current['sign-up']).toBe(1);
    expect(overview.totals.all.current).toBe(1);
    expect(overview.days.reduce((n, d) => n + d.counts['sign-up'], 0)).toBe(1);
    expect(overview.sources.reduce((n, s) => n + s.n, 0)).toBe(1);

    // One visitor today: the conversion rate is the member alone, 1 ÷ 1.
    expect((await beacon()).status).toBe(204);
    const report = await analyticsReport(leadPeriodRange(7));
    expect(report.leads.current).toBe(1);
    expect(report.conversion.current).toBe(1);
  });

  it('an admin’s chat or book-a-call under their email is no lead either', async () => {
    await ownerAndMember();
    await h.handle.db.insert(leadEvents).values([
      { id: 'chat-by-owner', kind: 'chat-lead', email: 'Owner@Example.com', name: 'Owner testing' },
      { id: 'click-by-owner', kind: 'book-call', email: 'owner@example.com', userId: (await h.userByEmail('owner@example.com'))!.id },
    ]);
    expect(await people()).toEqual(['mia@example.com']);
    expect((await leadOverview(7)).totals.all.current).toBe(1);
  });

  it('promoting a member takes their earlier sign-up out of the leads; demoting brings it back (role now)', async () => {
    const { member } = await ownerAndMember();
    await h.handle.db.update(users).set({ role: 'admin' }).where(eq(users.id, member.userId));
    expect(await people()).toEqual([]);
    expect((await leadOverview(7)).totals.all.current).toBe(0);
    expect((await analyticsReport(leadPeriodRange(7))).leads.current).toBe(0);
    await h.handle.db.update(users).set({ role: 'user' }).where(eq(users.id, member.userId));
    expect(await people()).toEqual(['mia@example.com']);
    expect((await leadOverview(7)).totals.all.current).toBe(1);
  });
});

describe('the team’s visits are not visitor analytics', () => {
  it('a view sent signed in as an admin is answered 204 and not counted; a visitor’s and a member’s are', async () => {
    const { owner, member } = await ownerAndMember();
    expect((await beacon(owner.browser)).status).toBe(204);
    await flushAnalytics();
    expect(await h.handle.db.select().from(analyticsDays)).toEqual([]);

    expect((await beacon()).status).toBe(204);
    expect((await beacon(member.browser)).status).toBe(204);
    expect((await beacon(owner.browser)).status).toBe(204);
    await flushAnalytics();
    const [day] = await h.handle.db.select().from(analyticsDays);
    expect(day).toMatchObject({ views: 2, visits: 2 });
    const report = await analyticsReport(leadPeriodRange(7));
    expect(report.totals.current.views).toBe(2);
  });

  it('page time sent by an admin is not stored; a member’s is', async () => {
    const { owner, member } = await ownerAndMember();
    const record = (browser: Browser, userId: string) => {
      const headers = new Headers({ 'content-type': 'text/plain;charset=UTF-8', origin: SITE, cookie: browser.cookieHeader });
      const body = JSON.stringify({ userId, pagePath: '/services', duration: 5000, timestamp: Date.now() - 10_000, sessionId: 'tab-7f3a9c21' });
      return handlePageViewPost(new Request(`${SITE}/api/page-views`, { method: 'POST', headers, body }), sessionOf);
    };
    expect((await record(owner.browser, owner.userId)).status).toBe(204);
    expect((await record(member.browser, member.userId)).status).toBe(204);
    expect((await h.handle.db.select({ userId: pageTimes.userId }).from(pageTimes)).map((r) => r.userId)).toEqual([member.userId]);
  });
});

describe('days in the site’s time zone', () => {
  it('a view and a lead at 00:30 UTC count on the day before in New York (AT TIME ZONE), on that day in UTC', async () => {
    const now = new Date();
    const justAfterMidnightUtc = new Date(`${dayKeyIn(now, 'UTC')}T00:30:00Z`);
    await h.handle.db.insert(appConfig).values({ key: 'generalSettings', value: { timeZone: 'America/New_York' } });
    clearAllMemos();
    await h.handle.db.insert(leadEvents).values({ id: 'late-lead', kind: 'audit-request', email: 'late@example.com', at: justAfterMidnightUtc });
    expect((await beacon(undefined, justAfterMidnightUtc)).status).toBe(204);
    await flushAnalytics();

    const newYorkDay = dayKeyIn(justAfterMidnightUtc, 'America/New_York');
    expect(newYorkDay < dayKeyIn(justAfterMidnightUtc, 'UTC')).toBe(true);
    expect((await h.handle.db.select({ day: analyticsDays.day }).from(analyticsDays)).map((r) => String(r.day))).toEqual([newYorkDay]);

    const leads = await leadOverview(7, now, 'America/New_York');
    expect(leads.days.filter((d) => d.total > 0).map((d) => d.day)).toEqual([newYorkDay]);
    const site = await analyticsReport(leadPeriodRange(7, now, 'America/New_York'));
    expect(site.days.filter((d) => d.views > 0).map((d) => d.day)).toEqual([newYorkDay]);

    const utc = await leadOverview(7, now, 'UTC');
    expect(utc.days.filter((d) => d.total > 0).map((d) => d.day)).toEqual([dayKeyIn(justAfterMidnightUtc, 'UTC')]);
  });
});
