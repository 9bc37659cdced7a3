/**
 * Members' page-time (src/server/modules/page-time): a record sent to POST /api/page-views is stored for
 * the signed-in member with its duration capped at the real elapsed time; a record for someone else is
 * 403, a signed-out (or disabled) sender 401, bad input 400, a large body 413 without being read whole, a
 * flood 429 with Retry-After — and in every refusal nothing is stored. The admin report's timeline and
 * totals equal what was stored.
 */
import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { POST } from '../../src/pages/api/page-views';
import { pageTimes, users } from '../../src/server/db/schema';
import { bodyLimitFor } from '../../src/server/http/request-body';
import { handlePageViewPost } from '../../src/server/modules/page-time/http';
import { insertPageTime } from '../../src/server/modules/page-time/repository';
import { pageTimeTimeline, pageTimeTotals } from '../../src/server/modules/page-time/report';
import { CLOCK_SKEW_MS, MAX_DURATION_MS, PAGE_TIME_MAX_BYTES, PAGE_TIME_RATE_LIMIT, type PageTimeRecord } from '../../src/shared/page-time';
import { createAuthHarness, SITE, type AuthHarness, type Browser } from '../support/auth';

let h: AuthHarness;
let member: { browser: Browser; userId: string };
beforeEach(async () => {
  h = await createAuthHarness();
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
    expect(bodyLimitFor('/api/page-views')).toBe(PAGE_TIME_MAX_BYTES);
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

  it('the timeline is the member’s records, newest first, paginated; past the end shows the last page', async () => {
    const other = await h.signUpVerified({ email: 'other@example.com' });
    for (let i = 0; i < 7; i += 1) await add(member.userId, `/page-${i}`, 2000 + i, 70 - i * 10);
    await add(other.userId, '/not-theirs', 9000, 1);
    const first = await pageTimeTimeline(member.userId, { page: 1, pageSize: 3 });
    expect(first).toMatchObject({ total: 7, page: 1, pageCount: 3, pageSize: 3 });
    expect(first.rows.map((r) => r.pagePath)).toEqual(['/page-6', '/page-5', '/page-4']);
    const last = await pageTimeTimeline(member.userId, { page: 3, pageSize: 3 });
    expect(last.rows.map((r) => [r.pagePath, r.durationMs, r.at.getTime()])).toEqual([['/page-0', 2000, at(70).getTime()]]);
    expect((await pageTimeTimeline(member.userId, { page: 99, pageSize: 3 })).page).toBe(3);
    expect((await pageTimeTimeline(member.userId, { page: -4, pageSize: 3 })).page).toBe(1);
  });

  it('an empty timeline has one empty page', async () => {
    expect(await pageTimeTimeline(member.userId)).toMatchObject({ rows: [], total: 0, page: 1, pageCount: 1 });
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

  it('what the endpoint stored is what the report shows', async () => {
    await beacon(record({ pagePath: '/about', duration: 4200, timestamp: NOW - 4200 }));
    await beacon(record({ pagePath: '/about', duration: 3100, timestamp: NOW - 3100 }));
    expect(await pageTimeTotals(member.userId)).toMatchObject([{ pagePath: '/about', totalMs: 7300, views: 2 }]);
    expect((await pageTimeTimeline(member.userId)).rows.map((r) => r.durationMs)).toEqual([3100, 4200]);
  });
});
