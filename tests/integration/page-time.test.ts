/**
 * Members' page-time (src/server/modules/page-time): a record sent to POST /api/page-views is stored for
 * the signed-in member with its duration capped at the real elapsed time; a record for someone else is
 * 403, a signed-out (or disabled) sender 401, bad input 400, a large body 413 without being read whole, a
 * flood 429 with Retry-After — and in every refusal nothing is stored. The admin report's timeline and
 * totals equal what was stored; the timeline pages by cursor (older, newer, ties on `at` broken by id,
 * microsecond timestamps) and a malformed or foreign cursor shows the newest page.
 */
import { eq, sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { POST } from '../../src/pages/api/page-views';
import { pageTimes, users } from '../../src/server/db/schema';
import { bodyPolicyFor } from '../../src/server/http/body-policy';
import { handlePageViewPost } from '../../src/server/modules/page-time/http';
import { insertPageTime } from '../../src/server/modules/page-time/repository';
import { formatPageTimeCursor, pageTimePositionOf, pageTimeTimeline, pageTimeTotals, parsePageTimeCursor, type PageTimeTimeline } from '../../src/server/modules/page-time/report';
import { CLOCK_SKEW_MS, MAX_DURATION_MS, PAGE_TIME_MAX_BYTES, PAGE_TIME_RATE_LIMIT, type PageTimeRecord } from '../../src/shared/page-time';
import { createAuthHarness, SITE, type AuthHarness, type Browser } from '../support/auth';

let h: AuthHarness;
let member: { browser: Browser; userId: string };
beforeEach(async () => {
  h = await createAuthHarness();
  // The first verified account is the owner (admin), whose browsing is not stored (decision 032).
  await h.signUpVerified({ email: 'owner@example.com' });
  member = await h.signUpVerified({ email: 'member@example.com' });
});
afterEach(() => h.close());

const NOW = Date.now();
const stored = () => h.handle.db.select().from(pageTimes).orderBy(pageTimes.at);

const record = (over: Partial<Record<keyof PageTimeRecord, unknown>> & Record<string, unknown> = {}) => ({
  userId: member.userId,
  pagePath: '/services/follow-up',
  duration: 5000,
  timestamp: NOW - 5000,
  sessionId: 'tab-7f3a9c21',
  ...over,
});

/** The beacon's request as navigator.sendBeacon sends a JSON Blob, from this site. */
function beacon(body: unknown, { browser = member.browser as Browser | null, raw, now = NOW }: { browser?: Browser | null; raw?: BodyInit; now?: number } = {}) {
  const headers = new Headers({ 'content-type': 'application/json', origin: SITE });
  if (browser) headers.set('cookie', browser.cookieHeader);
  const request = new Request(`${SITE}/api/page-views`, { method: 'POST', headers, body: raw ?? JSON.stringify(body), duplex: 'half' } as RequestInit);
  return handlePageViewPost(request, (hs) => h.auth.api.getSession({ headers: hs }), () => now);
}

async function expectRefused(res: Response, status: number, message?: RegExp) {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toBe('application/json');
  const body = (await res.json()) as { message: string };
  if (message) expect(body.message).toMatch(message);
  expect(await stored()).toEqual([]);
}

describe('POST /api/page-views', () => {
  it('stores the member’s record as sent; 204, not cached, no cookie', async () => {
    const res = await beacon(record());
    expect(res.status).toBe(204);
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    expect(res.headers.get('set-cookie')).toBeNull();
    const [row] = await stored();
    expect(row).toMatchObject({ userId: member.userId, pagePath: '/services/follow-up', durationMs: 5000, sessionId: 'tab-7f3a9c21' });
    expect(row!.at.getTime()).toBe(NOW - 5000);
    expect(row!.id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('the Astro endpoint calls the handler (signed out there: 401)', async () => {
    const request = new Request(`${SITE}/api/page-views`, { method: 'POST', headers: { 'content-type': 'application/json', origin: SITE }, body: JSON.stringify(record()) });
    const res = await POST({ request } as unknown as Parameters<typeof POST>[0]);
    await expectRefused(res, 401, /Sign in/);
  });

  it('caps the duration at the time really elapsed since the timestamp (plus the skew allowance) and at 24 h', async () => {
    expect((await beacon(record({ duration: 3_600_000, timestamp: NOW - 10_000 }))).status).toBe(204);
    expect((await beacon(record({ duration: 2_000_000_000, timestamp: NOW - 2 * MAX_DURATION_MS + 1 }))).status).toBe(204);
    const rows = await stored();
    expect(rows.map((r) => r.durationMs)).toEqual([MAX_DURATION_MS, 10_000 + CLOCK_SKEW_MS]);
  });

  it('a timestamp a little ahead (a fast clock) is stored as now; a record capped to 1 s or less stores nothing', async () => {
    expect((await beacon(record({ timestamp: NOW + 30_000, duration: 5000 }))).status).toBe(204);
    expect((await stored())[0]!.at.getTime()).toBe(NOW);
    await h.handle.db.delete(pageTimes);
    expect((await beacon(record({ timestamp: NOW + CLOCK_SKEW_MS - 500, duration: 5000 }))).status).toBe(204);
    expect(await stored()).toEqual([]);
  });

  it('refuses a record for another member: 403, nothing stored', async () => {
    const other = await h.signUpVerified({ email: 'other@example.com' });
    await expectRefused(await beacon(record({ userId: other.userId })), 403, /signed-in member/);
    await expectRefused(await beacon(record({ userId: member.userId }), { browser: other.browser }), 403);
  });

  it('refuses a signed-out sender (no cookie, a made-up cookie, a disabled account): 401', async () => {
    await expectRefused(await beacon(record(), { browser: null }), 401);
    const forged = { cookieHeader: 'agency.session_token=forged.value' } as Browser;
    await expectRefused(await beacon(record(), { browser: forged }), 401);
    await h.handle.db.update(users).set({ banned: true }).where(eq(users.id, member.userId));
    await expectRefused(await beacon(record()), 401);
  });

  it('refuses negative, huge, fractional and non-numeric durations: 400 with a message', async () => {
    for (const duration of [-5000, 0, 1000, 1e15, 1500.5, '5000', null, true, [5000], { ms: 5000 }]) {
      const res = await beacon(record({ duration }));
      await expectRefused(res, 400, /duration/);
    }
    // NaN and Infinity are not JSON: the tracker cannot send them, a script sends null or text.
    await expectRefused(await beacon(null, { raw: `{"userId":"${member.userId}","pagePath":"/","duration":NaN,"timestamp":${NOW - 5000},"sessionId":"tab-7f3a9c21"}` }), 400, /not valid JSON/);
  });

  it('refuses paths with markup or that are not site paths: 400', async () => {
    for (const pagePath of ['/<script>alert(1)</script>', '/"><img src=x onerror=alert(1)>', "/a'b", '/a`b', '/a b', 'javascript:alert(1)', 'https://evil.example/', '//evil.example', '', `/${'a'.repeat(600)}`, 42]) {
      await expectRefused(await beacon(record({ pagePath })), 400, /pagePath/);
    }
  });

  it('refuses unknown fields, missing fields, bad timestamps and session ids, and bodies that are not a record: 400', async () => {
    await expectRefused(await beacon(record({ isAdmin: true })), 400, /Unknown field: isAdmin/);
    const { sessionId: _dropped, ...missing } = record();
    await expectRefused(await beacon(missing), 400, /sessionId/);
    await expectRefused(await beacon(record({ timestamp: NOW + 3_600_000 })), 400, /future/);
    await expectRefused(await beacon(record({ timestamp: 'yesterday' })), 400, /timestamp/);
    await expectRefused(await beacon(record({ sessionId: '<b>x</b>' })), 400, /sessionId/);
    for (const raw of ['[]', '"text"', '12', 'null', '{"userId":', '']) await expectRefused(await beacon(null, { raw }), 400);
    await expectRefused(await beacon(null, { raw: '{"__proto__":{"x":1}}' }), 400);
  });

  it('refuses a 1 MB body with 413 without reading it whole (declared or streamed)', async () => {
    const huge = JSON.stringify(record({ pagePath: `/${'a'.repeat(1_048_576)}` }));
    await expectRefused(await beacon(null, { raw: huge }), 413);
    // Streamed without a length: the reading stops just past the limit.
    let pulled = 0;
    const chunk = new TextEncoder().encode('x'.repeat(16 * 1024));
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += chunk.byteLength;
        if (pulled > 1_048_576) controller.close();
        else controller.enqueue(chunk);
      },
    });
    await expectRefused(await beacon(null, { raw: stream }), 413);
    expect(pulled).toBeLessThan(4 * chunk.byteLength);
    // The middleware holds the route to the same limit before any route code runs.
    expect(bodyPolicyFor('/api/page-views').limit).toBe(PAGE_TIME_MAX_BYTES);
  });

  it('answers a flood from one member with 429 and Retry-After, and stores only what the limit allows', async () => {
    const statuses: number[] = [];
    let retryAfter: string | null = null;
    for (let i = 0; i < PAGE_TIME_RATE_LIMIT.max + 5; i += 1) {
      const res = await beacon(record({ pagePath: `/p${i}` }));
      statuses.push(res.status);
      if (res.status === 429) retryAfter = res.headers.get('retry-after');
    }
    expect(statuses.filter((s) => s === 204)).toHaveLength(PAGE_TIME_RATE_LIMIT.max);
    expect(statuses.slice(-5)).toEqual([429, 429, 429, 429, 429]);
    expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
    expect(Number(retryAfter)).toBeLessThanOrEqual(PAGE_TIME_RATE_LIMIT.windowSeconds);
    expect(await stored()).toHaveLength(PAGE_TIME_RATE_LIMIT.max);
    // Another member is not held back by this one's flood.
    const other = await h.signUpVerified({ email: 'other@example.com' });
    expect((await beacon(record({ userId: other.userId }), { browser: other.browser })).status).toBe(204);
    // The window passes: the member may save again.
    expect((await beacon(record(), { now: NOW + 61_000 })).status).toBe(204);
  }, 60_000);
});

describe('the admin report of a member’s page-time', () => {
  const at = (minutesAgo: number) => new Date(NOW - minutesAgo * 60_000);
  const add = (userId: string, pagePath: string, durationMs: number, minutesAgo: number, sessionId = 'tab-aaaaaaaa') =>
    insertPageTime({ userId, pagePath, durationMs, at: at(minutesAgo), sessionId });

  /** The timeline at the position a query string names, as the component reads it. */
  const timelineAt = (userId: string, qs: string, pageSize = 3) => pageTimeTimeline(userId, { ...pageTimePositionOf(new URLSearchParams(qs)), pageSize });
  const paths = (t: PageTimeTimeline) => t.rows.map((r) => r.pagePath);

  it('the timeline is the member’s records, newest first, paged by cursor: older, newer, newest', async () => {
    const other = await h.signUpVerified({ email: 'other@example.com' });
    for (let i = 0; i < 7; i += 1) await add(member.userId, `/page-${i}`, 2000 + i, 70 - i * 10);
    await add(other.userId, '/not-theirs', 9000, 1);
    const first = await timelineAt(member.userId, '');
    expect(first).toMatchObject({ total: 7, pageSize: 3, newest: true, newer: null });
    expect(paths(first)).toEqual(['/page-6', '/page-5', '/page-4']);
    expect(first.older).toBe(formatPageTimeCursor(first.rows[2]!));
    expect(first.older).toMatch(new RegExp(`^${at(30).getTime()}\\.`));

    const second = await timelineAt(member.userId, `ptBefore=${first.older}`);
    expect(second).toMatchObject({ total: 7, newest: false, newer: formatPageTimeCursor(second.rows[0]!), older: formatPageTimeCursor(second.rows[2]!) });
    expect(paths(second)).toEqual(['/page-3', '/page-2', '/page-1']);
    const last = await timelineAt(member.userId, `ptBefore=${second.older}`);
    expect(last).toMatchObject({ newest: false, older: null });
    expect(last.rows.map((r) => [r.pagePath, r.durationMs, r.at.getTime()])).toEqual([['/page-0', 2000, at(70).getTime()]]);

    // Newer from the last page is the page before it; newer again reaches the newest page.
    const back = await timelineAt(member.userId, `ptAfter=${last.newer}`);
    expect(paths(back)).toEqual(['/page-3', '/page-2', '/page-1']);
    expect(back).toMatchObject({ newest: false, newer: second.newer, older: second.older });
    // A page of newer records that reaches the newest one is the newest page; fewer than a page of them
    // (only /page-6 is newer than /page-5) show the newest page too, which is never short.
    for (const row of [second.rows[0]!, first.rows[1]!]) {
      const top = await timelineAt(member.userId, `ptAfter=${formatPageTimeCursor(row)}`);
      expect(top).toMatchObject({ newest: true, newer: null, older: first.older });
      expect(paths(top)).toEqual(paths(first));
    }
  });

  it('records with the same `at` are told apart by id: no page repeats or skips one', async () => {
    const when = at(5);
    const ids = ['pt-a', 'pt-b', 'pt-c', 'pt-d', 'pt-e'];
    await h.handle.db.insert(pageTimes).values(ids.map((id, i) => ({ id, userId: member.userId, pagePath: `/same-${i}`, durationMs: 2000, at: when, sessionId: 'tab-aaaaaaaa' })));
    await add(member.userId, '/older', 2000, 9);
    const seen: string[] = [];
    let page = await timelineAt(member.userId, '', 2);
    for (;;) {
      seen.push(...page.rows.map((r) => r.id));
      if (!page.older) break;
      expect(page.older).toBe(`${when.getTime()}.${page.rows.at(-1)!.id}`);
      page = await timelineAt(member.userId, `ptBefore=${page.older}`, 2);
    }
    expect(seen.slice(0, 5)).toEqual(['pt-e', 'pt-d', 'pt-c', 'pt-b', 'pt-a']);
    expect(seen).toHaveLength(6);
    // And back up from the oldest, across the same tie.
    const newer = await timelineAt(member.userId, `ptAfter=${formatPageTimeCursor(page.rows[0]!)}`, 2);
    expect(newer.rows.map((r) => r.id)).toEqual(['pt-c', 'pt-b']);
    expect(newer).toMatchObject({ newest: false, older: `${when.getTime()}.pt-b` });
    expect(await timelineAt(member.userId, `ptAfter=${newer.newer}`, 2)).toMatchObject({ newest: true, rows: [{ id: 'pt-e' }, { id: 'pt-d' }] });
  });

  it('a timestamp stored with microseconds neither repeats nor skips a record across pages', async () => {
    const base = '2026-11-20 10:00:00.123';
    await h.handle.db.execute(sql`insert into page_times (id, user_id, page_path, duration_ms, at, session_id) values
      ('us-1', ${member.userId}, '/us-1', 2000, ${`${base}900+00`}, 'tab-aaaaaaaa'),
      ('us-2', ${member.userId}, '/us-2', 2000, ${`${base}500+00`}, 'tab-aaaaaaaa'),
      ('us-3', ${member.userId}, '/us-3', 2000, ${`${base}100+00`}, 'tab-aaaaaaaa')`);
    const first = await timelineAt(member.userId, '', 1);
    expect(paths(first)).toEqual(['/us-1']);
    expect(first.older).toBe(`${Date.parse('2026-11-20T10:00:00.123Z')}.us-1`);
    const second = await timelineAt(member.userId, `ptBefore=${first.older}`, 1);
    expect(paths(second)).toEqual(['/us-2']);
    expect(paths(await timelineAt(member.userId, `ptBefore=${second.older}`, 1))).toEqual(['/us-3']);
    expect(paths(await timelineAt(member.userId, `ptAfter=${second.newer}`, 1))).toEqual(['/us-1']);
  });

  it('a malformed, foreign or forged cursor shows the newest page', async () => {
    const other = await h.signUpVerified({ email: 'other@example.com' });
    for (let i = 0; i < 5; i += 1) await add(member.userId, `/page-${i}`, 2000 + i, 50 - i * 10);
    await add(other.userId, '/not-theirs', 9000, 1);
    const newest = await timelineAt(member.userId, '');
    const [theirs] = await h.handle.db.select().from(pageTimes).where(eq(pageTimes.userId, other.userId));
    const mine = newest.rows[1]!;
    const bad = [
      'ptBefore=',
      'ptBefore=abc',
      'ptBefore=123',
      `ptBefore=${mine.at.getTime()}`,
      `ptBefore=.${mine.id}`,
      `ptBefore=${mine.at.getTime()}.${mine.id}.x`,
      `ptBefore=-${mine.at.getTime()}.${mine.id}`,
      `ptBefore=1e12.${mine.id}`,
      `ptBefore=99999999999999999.${mine.id}`,
      `ptBefore=${mine.at.getTime()}.${mine.id}'--`,
      `ptBefore=${mine.at.getTime()}.${'a'.repeat(65)}`,
      `ptBefore=${mine.at.getTime() + 1}.${mine.id}`, // forged: the record's id with another time
      `ptBefore=${formatPageTimeCursor(theirs!)}`, // another member's record
      `ptAfter=${formatPageTimeCursor(theirs!)}`,
      `ptBefore=${mine.at.getTime()}.no-such-record`,
      `ptBefore=${formatPageTimeCursor(mine)}&ptBefore=${formatPageTimeCursor(mine)}`,
      `ptBefore=${formatPageTimeCursor(mine)}&ptAfter=${formatPageTimeCursor(mine)}`,
    ];
    for (const qs of bad) {
      const t = await timelineAt(member.userId, qs);
      expect({ qs, rows: paths(t), newest: t.newest }).toEqual({ qs, rows: paths(newest), newest: true });
    }
    // A cursor with nothing older than it (hand-written: the links never offer one) shows the newest page too.
    const oldest = (await timelineAt(member.userId, '', 5)).rows[4]!;
    expect(await timelineAt(member.userId, `ptBefore=${formatPageTimeCursor(oldest)}`)).toMatchObject({ newest: true });
    // The well-formed cursor of the member's own record works.
    expect(paths(await timelineAt(member.userId, `ptBefore=${formatPageTimeCursor(mine)}`))).toEqual(['/page-2', '/page-1', '/page-0']);
  });

  it('cursors parse strictly', () => {
    expect(parsePageTimeCursor('1764063000123.5f0c2b1e-0d4e-4b8a-9c1f-2a3b4c5d6e7f')).toEqual({ atMs: 1764063000123, id: '5f0c2b1e-0d4e-4b8a-9c1f-2a3b4c5d6e7f' });
    for (const raw of [null, undefined, '', '1.', '.a', '1.a.b', ' 1.a', '1.a ', '1.a/b', '0x1.a', '1.5.a', '9999999999999999.a']) expect(parsePageTimeCursor(raw)).toBeUndefined();
    expect(pageTimePositionOf(new URLSearchParams('ptPage=3&tab=x'))).toEqual({});
    expect(pageTimePositionOf(new URLSearchParams('ptAfter=5.x'))).toEqual({ after: { atMs: 5, id: 'x' } });
  });

  it('an empty timeline has one empty page', async () => {
    expect(await pageTimeTimeline(member.userId)).toMatchObject({ rows: [], total: 0, newest: true, newer: null, older: null });
    expect(await timelineAt(member.userId, 'ptBefore=5.x')).toMatchObject({ rows: [], total: 0, newest: true });
    expect(await pageTimeTotals(member.userId)).toEqual([]);
  });

  it('totals per path: time, records and the last one, the top N by time', async () => {
    await add(member.userId, '/services', 5000, 30);
    await add(member.userId, '/services', 7000, 5);
    await add(member.userId, '/blog', 20_000, 10);
    await add(member.userId, '/', 1500, 2);
    const other = await h.signUpVerified({ email: 'other@example.com' });
    await add(other.userId, '/services', 99_000, 1);
    expect(await pageTimeTotals(member.userId, 2)).toEqual([
      { pagePath: '/blog', totalMs: 20_000, views: 1, lastSeen: at(10) },
      { pagePath: '/services', totalMs: 12_000, views: 2, lastSeen: at(5) },
    ]);
  });

  it('page_time_totals stays the sums over page_times through every write: insert, bulk insert, upsert, update, delete, a member deleted, truncate', async () => {
    const db = h.handle.db;
    const other = await h.signUpVerified({ email: 'other@example.com' });
    const rows = async (query: ReturnType<typeof sql>) =>
      ((await db.execute(query)) as unknown as { rows: Record<string, unknown>[] }).rows.map((r) => ({ ...r, last_seen: new Date(r.last_seen as string).toISOString() }));
    const recomputed = () =>
      rows(sql`select user_id, page_path, sum(duration_ms)::float8 as total_ms, count(*)::float8 as views, max(at) as last_seen from page_times group by 1, 2 order by 1, 2`);
    const kept = () => rows(sql`select user_id, page_path, total_ms::float8, views::float8, last_seen from page_time_totals order by 1, 2`);
    const same = async () => expect(await kept()).toEqual(await recomputed());
    await add(member.userId, '/a', 1000, 10);
    await add(member.userId, '/a', 2000, 5);
    await add(other.userId, '/a', 4000, 7);
    await same();
    await db.insert(pageTimes).values([
      { id: 'bulk-1', userId: member.userId, pagePath: '/b', durationMs: 3000, at: at(3), sessionId: 's' },
      { id: 'bulk-2', userId: member.userId, pagePath: '/b', durationMs: 5000, at: at(1), sessionId: 's' },
      { id: 'bulk-3', userId: other.userId, pagePath: '/a', durationMs: 6000, at: at(20), sessionId: 's' },
    ]);
    await same();
    // The import's upsert: an existing id moved to another path and time, a new one added.
    await db
      .insert(pageTimes)
      .values([
        { id: 'bulk-2', userId: member.userId, pagePath: '/a', durationMs: 9000, at: at(2), sessionId: 's' },
        { id: 'bulk-4', userId: member.userId, pagePath: '/c', durationMs: 1500, at: at(4), sessionId: 's' },
      ])
      .onConflictDoUpdate({ target: pageTimes.id, set: { pagePath: sql`excluded.page_path`, durationMs: sql`excluded.duration_ms`, at: sql`excluded.at` } });
    await same();
    await db.update(pageTimes).set({ durationMs: 100 }).where(eq(pageTimes.id, 'bulk-1'));
    await same();
    await db.delete(pageTimes).where(eq(pageTimes.id, 'bulk-1')); // the last record of /b
    await same();
    expect((await pageTimeTotals(member.userId)).map((t) => t.pagePath)).toEqual(['/a', '/c']);
    expect((await pageTimeTimeline(member.userId)).total).toBe(4);
    await db.delete(users).where(eq(users.id, other.userId));
    await same();
    expect(await kept()).toHaveLength(2);
    await db.execute(sql`truncate page_times`);
    expect(await kept()).toEqual([]);
  });

  it('what the endpoint stored is what the report shows', async () => {
    await beacon(record({ pagePath: '/about', duration: 4200, timestamp: NOW - 4200 }));
    await beacon(record({ pagePath: '/about', duration: 3100, timestamp: NOW - 3100 }));
    expect(await pageTimeTotals(member.userId)).toMatchObject([{ pagePath: '/about', totalMs: 7300, views: 2 }]);
    expect((await pageTimeTimeline(member.userId)).rows.map((r) => r.durationMs)).toEqual([3100, 4200]);
  });
});
