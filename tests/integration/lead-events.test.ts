/**
 * Leads in one place (src/server/modules/leads): a book-a-call click reported to POST /api/lead-events is
 * stored with the visit's attribution and the signed-in member from the session (never from the body);
 * bad kinds, oversize bodies and markup are refused or cleaned, never a 500; the per-address limit answers
 * 429 with Retry-After. A sign-up records its lead event with the attribution the form sent. The overview's
 * counts per kind, per UTC day and per source equal counts made directly in the database.
 */
import { eq, sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { POST } from '../../src/pages/api/lead-events';
import { articles, leadEvents, services, users } from '../../src/server/db/schema';
import { MAX_LEAD_SOURCES_PER_DAY } from '../../src/server/modules/leads/attribution';
import { handleLeadEventPost } from '../../src/server/modules/leads/http';
import { BOOK_CALL_RATE_LIMIT, leadOverview } from '../../src/server/modules/leads/service';
import { LEAD_KINDS, leadPeriodRange, type LeadPeriod } from '../../src/shared/lead-events';
import { createAuthHarness, randomIp, SITE, type AuthHarness, type Browser } from '../support/auth';

let h: AuthHarness;
beforeEach(async () => {
  h = await createAuthHarness();
});
afterEach(() => h.close());

const events = () => h.handle.db.select().from(leadEvents).orderBy(leadEvents.at);

/** The beacon's request: a JSON string (text/plain, as navigator.sendBeacon sends one), from this site. */
function beacon(body: unknown, { browser, ip = randomIp(), raw }: { browser?: Browser; ip?: string; raw?: string } = {}) {
  const headers = new Headers({ 'content-type': 'text/plain;charset=UTF-8', origin: SITE });
  if (browser) headers.set('cookie', browser.cookieHeader);
  const request = new Request(`${SITE}/api/lead-events`, { method: 'POST', headers, body: raw ?? JSON.stringify(body) });
  return handleLeadEventPost(request, ip, (hs) => h.auth.api.getSession({ headers: hs }));
}

const click = (over: Record<string, unknown> = {}) => ({
  kind: 'book-call',
  page: '/services',
  attribution: { sourcePage: '/', referrer: 'https://news.example', utmSource: 'newsletter', utmMedium: 'email', utmCampaign: 'spring' },
  ...over,
});

describe('POST /api/lead-events', () => {
  it('stores a visitor’s book-a-call click with the visit’s attribution and the page it was on; 204', async () => {
    const res = await beacon(click());
    expect(res.status).toBe(204);
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    expect(res.headers.get('set-cookie')).toBeNull();
    const [event] = await events();
    expect(event).toMatchObject({
      kind: 'book-call',
      email: '',
      name: '',
      userId: null,
      refId: '/services',
      sourcePage: '/',
      referrer: 'https://news.example',
      utmSource: 'newsletter',
      utmMedium: 'email',
      utmCampaign: 'spring',
      utmTerm: '',
    });
  });

  it('the route answers the same (the Astro endpoint calls the handler)', async () => {
    const request = new Request(`${SITE}/api/lead-events`, { method: 'POST', headers: { 'content-type': 'application/json', origin: SITE }, body: JSON.stringify(click({ attribution: undefined })) });
    const res = await POST({ request, clientAddress: randomIp() } as unknown as Parameters<typeof POST>[0]);
    expect(res.status).toBe(204);
    // Without attribution the landing page is the page itself.
    expect(await events()).toMatchObject([{ kind: 'book-call', sourcePage: '/services', utmSource: '' }]);
  });

  it('takes the member from the session, never from the body', async () => {
    const { browser, userId } = await h.signUpVerified({ email: 'member@example.com', firstName: 'Mia', lastName: 'Member' });
    await h.handle.db.delete(leadEvents); // the sign-up's own event
    const res = await beacon(click({ userId: 'someone-else', email: 'forged@example.com', name: 'Forged' }), { browser });
    expect(res.status).toBe(204);
    const [event] = await events();
    expect(event).toMatchObject({ userId, email: 'member@example.com', name: 'Mia Member' });
    // A visitor's forged fields are ignored too.
    await beacon(click({ userId, email: 'member@example.com' }));
    expect((await events())[1]).toMatchObject({ userId: null, email: '', name: '' });
  });

  it('refuses every other kind and anything that is not an event with 400, storing nothing', async () => {
    for (const kind of ['sign-up', 'audit-request', 'chat-lead', 'page-view', '', null, 5]) {
      const res = await beacon(click({ kind }));
      expect(res.status, String(kind)).toBe(400);
      expect(await res.json()).toMatchObject({ code: 'INVALID_INPUT' });
    }
    for (const body of [[], 'book-call', null, {}, click({ page: 'https://evil.example/' }), click({ page: '/<script>alert(1)</script>' }), click({ page: undefined })]) {
      expect((await beacon(body)).status, JSON.stringify(body)).toBe(400);
    }
    for (const raw of ['{not json', '', '{"__proto__":{"kind":"book-call"}}']) {
      expect((await beacon(undefined, { raw })).status, raw).toBe(400);
    }
    expect(await events()).toHaveLength(0);
  });

  it('refuses a body over 8 KB with 413 and a 1 MB one too, never a 500', async () => {
    const big = click({ attribution: { utmSource: 'x'.repeat(9000) } });
    expect((await beacon(big)).status).toBe(413);
    expect((await beacon(undefined, { raw: 'x'.repeat(1_048_576) })).status).toBe(413);
    expect(await events()).toHaveLength(0);
  });

  it('cleans the attribution: only safe UTM values (no markup, control characters, over 100 characters) and web referrers kept', async () => {
    const res = await beacon(
      click({
        attribution: {
          sourcePage: 'javascript:alert(1)',
          referrer: 'javascript:alert(1)',
          utmSource: `<img src=x onerror=alert(1)>`,
          utmMedium: `mail\u0007\u202e`,
          utmCampaign: 'c'.repeat(300),
          role: 'admin',
        },
      }),
    );
    expect(res.status).toBe(204);
    const [event] = await events();
    expect(event).toMatchObject({ sourcePage: '/services', referrer: '', utmSource: '', utmMedium: '', utmCampaign: '' });
    // Text no column can hold (a NUL) is the client's error, as everywhere else.
    expect((await beacon(click({ attribution: { utmSource: 'a\u0000b' } }))).status).toBe(400);
    expect(await events()).toHaveLength(1);
  });

  it('keeps only pages of the site: a detail page whose id exists, never an invented path', async () => {
    await h.handle.db.insert(services).values({ id: 'follow-up', name: 'Follow-up' });
    await h.handle.db.insert(articles).values([
      { id: 'a1', slug: 'no-shows', title: 'No-shows', published: true },
      { id: 'a2', slug: 'draft', title: 'Draft', published: false },
    ]);
    const cases: Array<[string, string, string, string]> = [
      // page, landing page sent → refId, sourcePage stored
      ['/service/follow-up', '/article/no-shows', '/service/follow-up', '/article/no-shows'],
      ['/buy-now-at-cheap-example', '/article/draft', '', ''],
      ['/service/made-up', '/article/visit-phish-example-now', '', ''],
      ['/services', '/admin/users', '/services', '/services'],
    ];
    for (const [page, sourcePage] of cases) expect((await beacon(click({ page, attribution: { sourcePage } }))).status, page).toBe(204);
    expect((await events()).map((e) => [e.refId, e.sourcePage])).toEqual(cases.map(([, , refId, sourcePage]) => [refId, sourcePage]));
  });

  it(`keeps ${MAX_LEAD_SOURCES_PER_DAY} distinct UTM sources a day; more are stored as "other", known ones as they are`, async () => {
    await h.handle.db.insert(leadEvents).values(
      Array.from({ length: MAX_LEAD_SOURCES_PER_DAY }, (_, i) => ({ id: `seed-${i}`, kind: 'book-call', utmSource: `src${i}`, utmCampaign: `camp${i}` })),
    );
    // Yesterday's sources do not count against today's cap.
    await h.handle.db.insert(leadEvents).values({ id: 'old', kind: 'book-call', utmSource: 'old', at: new Date(Date.now() - 2 * 86_400_000) });
    await beacon(click({ attribution: { utmSource: 'src7', utmCampaign: 'camp7' } }));
    await beacon(click({ attribution: { utmSource: 'brand-new', utmMedium: 'spam', utmCampaign: 'buy now', utmTerm: 't' } }));
    await beacon(click({ attribution: { utmSource: 'another-new' } }));
    const stored = (await events()).filter((e) => !e.id.startsWith('seed-') && e.id !== 'old');
    expect(stored.map((e) => [e.utmSource, e.utmMedium, e.utmCampaign, e.utmTerm])).toEqual([
      ['src7', '', 'camp7', ''],
      ['(other)', '', '(other)', ''],
      ['(other)', '', '', ''],
    ]);
    const today = await leadOverview(7);
    expect(today.sources.filter((s) => s.utmSource === '(other)').reduce((sum, s) => sum + s.n, 0)).toBe(2);
  });

  it('answers 429 with Retry-After past the limit for one address; other addresses go on', async () => {
    const ip = randomIp();
    for (let i = 0; i < BOOK_CALL_RATE_LIMIT.max; i++) expect((await beacon(click(), { ip })).status).toBe(204);
    const refused = await beacon(click(), { ip });
    expect(refused.status).toBe(429);
    const retry = Number(refused.headers.get('retry-after'));
    expect(retry).toBeGreaterThan(0);
    expect(retry).toBeLessThanOrEqual(BOOK_CALL_RATE_LIMIT.windowSeconds);
    expect(await refused.json()).toMatchObject({ code: 'RATE_LIMITED', retryAfterSeconds: retry });
    expect((await beacon(click(), { ip: randomIp() })).status).toBe(204);
    expect(await events()).toHaveLength(BOOK_CALL_RATE_LIMIT.max + 1);
  });

  it('counts an IPv6 host per /64: a fresh address from the same network does not start a fresh limit', async () => {
    const network = `2001:db8:${Math.floor(Math.random() * 0xffff).toString(16)}:7`;
    for (let i = 0; i < BOOK_CALL_RATE_LIMIT.max; i++) expect((await beacon(click(), { ip: `${network}::${(i + 1).toString(16)}` })).status).toBe(204);
    expect((await beacon(click(), { ip: `${network}:ffff:1:2:3` })).status).toBe(429);
    expect((await beacon(click(), { ip: `${network}1::1` })).status).toBe(204); // the next /64
  });
});

describe('sign-up lead events', () => {
  it('a sign-up records its event with the attribution the form sent (cleaned)', async () => {
    const res = await h.signUp({
      email: 'new@example.com',
      firstName: 'Nia',
      lastName: 'New',
      attribution: { sourcePage: '/articles', referrer: 'https://search.example/?q=agency', utmSource: 'google', utmMedium: 'cpc', utmCampaign: ' winter ', utmTerm: 'x'.repeat(101), utmContent: 'ad 1', extra: 'ignored' },
    } as Parameters<AuthHarness['signUp']>[0]);
    expect(res.status).toBe(200);
    const user = await h.userByEmail('new@example.com');
    const [event] = await events();
    expect(event).toMatchObject({
      kind: 'sign-up',
      email: 'new@example.com',
      name: 'Nia New',
      userId: user!.id,
      refId: user!.id,
      sourcePage: '/articles',
      referrer: 'https://search.example',
      utmSource: 'google',
      utmMedium: 'cpc',
      utmCampaign: 'winter',
      utmTerm: '',
      utmContent: 'ad 1',
    });
  });

  it('a sign-up without attribution, or with garbage in it, still signs up and records the event', async () => {
    expect((await h.signUp({ email: 'plain@example.com' })).status).toBe(200);
    expect((await h.signUp({ email: 'odd@example.com', attribution: 'utm_source=x' } as Parameters<AuthHarness['signUp']>[0])).status).toBe(200);
    expect((await h.signUp({ email: 'odd2@example.com', attribution: { utmSource: 42, sourcePage: ['x'] } } as Parameters<AuthHarness['signUp']>[0])).status).toBe(200);
    const rows = await events();
    expect(rows.map((r) => [r.kind, r.email, r.utmSource, r.sourcePage])).toEqual([
      ['sign-up', 'plain@example.com', '', ''],
      ['sign-up', 'odd@example.com', '', ''],
      ['sign-up', 'odd2@example.com', '', ''],
    ]);
  });

  it('a refused sign-up (bad input, taken address) records nothing more', async () => {
    expect((await h.signUp({ email: 'taken@example.com' })).status).toBe(200);
    expect((await h.signUp({ email: 'not-an-email', attribution: { utmSource: 'x' } } as Parameters<AuthHarness['signUp']>[0])).status).toBe(400);
    expect((await h.signUp({ email: 'taken@example.com' })).status).toBeGreaterThanOrEqual(400);
    expect(await events()).toHaveLength(1);
  });

  it('an account made without the sign-up form (imported, scripts) is not a sign-up', async () => {
    await h.handle.db.insert(users).values({ id: 'imported', email: 'imported@example.com', name: 'Imported', emailVerified: true });
    expect(await h.handle.db.select().from(leadEvents).where(eq(leadEvents.userId, 'imported'))).toEqual([]);
  });
});

describe('the overview’s lead counts equal direct counts in the database', () => {
  const NOW = new Date('2026-11-25T15:00:00Z');
  const DAY = 86_400_000;

  async function seed() {
    const rows: (typeof leadEvents.$inferInsert)[] = [];
    const add = (kind: string, at: Date, a: Partial<typeof leadEvents.$inferInsert> = {}) => rows.push({ id: crypto.randomUUID(), kind, at, ...a });
    // Spread over 200 days, every kind, at day edges (00:00:00 and 23:59:59 UTC) and in between.
    for (let i = 0; i < 200; i++) {
      const day = new Date(Date.UTC(2026, 10, 25) - i * DAY);
      const kind = LEAD_KINDS[i % LEAD_KINDS.length]!;
      add(kind, day, i % 3 === 0 ? { utmSource: 'newsletter', utmMedium: 'email', utmCampaign: 'spring' } : {});
      add(LEAD_KINDS[(i + 1) % 4]!, new Date(day.getTime() + DAY - 1000), i % 5 === 0 ? { referrer: 'https://WWW.Search.example:8443' } : {});
      if (i % 7 === 0) add('book-call', new Date(day.getTime() + 12 * 3600_000), { utmSource: 'linkedin', referrer: 'https://ignored.example' });
    }
    add('sign-up', new Date(NOW.getTime() + DAY)); // tomorrow: outside every period
    await h.handle.db.insert(leadEvents).values(rows);
  }

  const direct = async (query: ReturnType<typeof sql>) => ((await h.handle.db.execute(query)) as unknown as { rows: Record<string, unknown>[] }).rows;

  for (const days of [7, 30, 90] as LeadPeriod[]) {
    it(`last ${days} days: totals, the previous period, per day and per source`, async () => {
      await seed();
      const o = await leadOverview(days, NOW);
      const { start, end, previousStart } = leadPeriodRange(days, NOW);

      const totals = await direct(sql`select kind, count(*)::int as n from lead_events where at >= ${start} and at < ${end} group by kind`);
      for (const kind of LEAD_KINDS) expect(o.totals.current[kind], kind).toBe(Number(totals.find((r) => r.kind === kind)?.n ?? 0));
      const previous = await direct(sql`select kind, count(*)::int as n from lead_events where at >= ${previousStart} and at < ${start} group by kind`);
      for (const kind of LEAD_KINDS) expect(o.totals.previous[kind], kind).toBe(Number(previous.find((r) => r.kind === kind)?.n ?? 0));
      expect(o.totals.all.current).toBe(totals.reduce((s, r) => s + Number(r.n), 0));

      expect(o.days).toHaveLength(days);
      expect(o.days[0]!.day).toBe('2026-11-25');
      const perDay = await direct(
        sql`select to_char(at at time zone 'UTC', 'YYYY-MM-DD') as day, kind, count(*)::int as n from lead_events where at >= ${start} and at < ${end} group by 1, 2`,
      );
      for (const row of o.days) {
        for (const kind of LEAD_KINDS) {
          const expected = Number(perDay.find((r) => r.day === row.day && r.kind === kind)?.n ?? 0);
          expect(row.counts[kind], `${row.day} ${kind}`).toBe(expected);
        }
      }
      expect(o.days.reduce((s, d) => s + d.total, 0)).toBe(o.totals.all.current);

      const [newsletter] = await direct(
        sql`select count(*)::int as n from lead_events where at >= ${start} and at < ${end} and utm_source = 'newsletter' and utm_medium = 'email' and utm_campaign = 'spring' and kind <> 'report-opened'`,
      );
      const [linkedin] = await direct(sql`select count(*)::int as n from lead_events where at >= ${start} and at < ${end} and utm_source = 'linkedin' and kind <> 'report-opened'`);
      const [search] = await direct(sql`select count(*)::int as n from lead_events where at >= ${start} and at < ${end} and utm_source = '' and referrer like 'https://WWW.Search.example%' and kind <> 'report-opened'`);
      const [none] = await direct(sql`select count(*)::int as n from lead_events where at >= ${start} and at < ${end} and utm_source = '' and referrer = '' and kind <> 'report-opened'`);
      const find = (p: Partial<(typeof o.sources)[number]>) => o.sources.find((s) => Object.entries(p).every(([k, v]) => s[k as keyof typeof s] === v))?.n ?? 0;
      expect(find({ utmSource: 'newsletter', utmMedium: 'email', utmCampaign: 'spring' })).toBe(Number(newsletter!.n));
      expect(find({ utmSource: 'linkedin', referrerHost: '' })).toBe(Number(linkedin!.n));
      expect(find({ utmSource: '', referrerHost: 'www.search.example' })).toBe(Number(search!.n));
      expect(find({ utmSource: '', utmMedium: '', utmCampaign: '', referrerHost: '' })).toBe(Number(none!.n));
      // A report opened follows a lead up; it is not where one came from.
      expect(o.totals.current['report-opened']).toBeGreaterThan(0);
      expect(o.sources.reduce((s, r) => s + r.n, 0)).toBe(o.totals.all.current - o.totals.current['report-opened']);
      // Most leads first.
      expect(o.sources.map((s) => s.n)).toEqual([...o.sources.map((s) => s.n)].sort((a, b) => b - a));
    });
  }

  it('an empty database gives zero-filled days and no sources', async () => {
    const o = await leadOverview(7, NOW);
    expect(o.totals.all).toEqual({ current: 0, previous: 0 });
    expect(o.days.map((d) => d.total)).toEqual([0, 0, 0, 0, 0, 0, 0]);
    expect(o.sources).toEqual([]);
  });
});
