/**
 * The admin's content export and import routes (src/pages/api/admin/content/*), called as the middleware
 * leaves them: admin only (the route and the service check again, whatever the guard did), the export a
 * download of the content file, the import all or nothing with every problem by position and field, one
 * activity entry and every cache tag dropped when it succeeds.
 */
import type { APIContext } from 'astro';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GET as exportRoute } from '../../src/pages/api/admin/content/export';
import { POST as importRoute } from '../../src/pages/api/admin/content/import';
import { CACHE_TAGS } from '../../src/server/cache/tags';
import { config } from '../../src/server/config';
import { activityLog, faqs, services } from '../../src/server/db/schema';
import type { RequestUser } from '../../src/server/guards/session';
import { createRecord } from '../../src/server/modules/content/service';
import { contentFileLimitBytes } from '../../src/shared/content-transfer';
import { createAuthHarness, SITE, type AuthHarness } from '../support/auth';

let h: AuthHarness;
let admin: RequestUser;
let member: RequestUser;

async function requestUser(email: string): Promise<RequestUser> {
  const row = (await h.userByEmail(email))!;
  return { id: row.id, email: row.email, name: row.name, firstName: row.firstName, lastName: row.lastName, role: row.role, emailVerified: row.emailVerified };
}

beforeEach(async () => {
  h = await createAuthHarness();
  await h.signUpVerified({ email: 'owner@example.com' });
  await h.signUpVerified({ email: 'member@example.com' });
  admin = await requestUser('owner@example.com');
  member = await requestUser('member@example.com');
});
afterEach(() => h.close());

/** The context the middleware hands a route: locals.user from the session, and a route cache that records what it drops. */
function contextFor(user: RequestUser | undefined, request: Request) {
  const invalidated: string[][] = [];
  const cache = { enabled: true, invalidate: async ({ tags }: { tags: string[] }) => void invalidated.push(tags) };
  const context = { request, url: new URL(request.url), locals: user ? { user } : {}, cache } as unknown as APIContext;
  return { context, invalidated };
}

const exportAs = (user: RequestUser | undefined) => exportRoute(contextFor(user, new Request(`${SITE}/api/admin/content/export`)).context);

function importAs(user: RequestUser | undefined, body: BodyInit, headers: Record<string, string> = {}) {
  const request = new Request(`${SITE}/api/admin/content/import`, {
    method: 'POST',
    headers: { 'content-type': 'application/octet-stream', 'x-file-name': 'backup.json', ...headers },
    body,
  });
  const { context, invalidated } = contextFor(user, request);
  return { response: importRoute(context), invalidated };
}

const envelope = { format: 'agency-site-content', version: 1 };
const goodFile = {
  ...envelope,
  services: [{ id: 'reminders', name: 'Appointment Reminders', price: 290, benefits: ['Fewer no-shows'] }],
  faqs: [{ id: 'faq-1', question: 'How fast?', answer: '<p>A week.</p><script>alert(1)</script>' }],
};
const badFile = {
  ...envelope,
  services: [{ id: 'ok', name: 'Fine' }, { id: 'bad', name: '' }, { id: 'worse', name: 'X', shortTxt: 'typo', price: -5 }],
  packages: [{ id: 'p', name: 'P', includedServiceIds: ['ghost-service'] }],
};

const tableCounts = async () => ({
  services: (await h.handle.db.select().from(services)).length,
  faqs: (await h.handle.db.select().from(faqs)).length,
  activity: (await h.handle.db.select().from(activityLog)).length,
});

describe('who may export and import', () => {
  it('refuses a visitor (401), a member and an unverified account (403); nothing is read or written', async () => {
    expect((await exportAs(undefined)).status).toBe(401);
    expect(await (await exportAs(undefined)).json()).toEqual({ code: 'UNAUTHORIZED', message: 'No user logged in' });
    expect((await exportAs(member)).status).toBe(403);
    expect((await exportAs({ ...admin, emailVerified: false })).status).toBe(403);

    for (const user of [undefined, member, { ...admin, emailVerified: false }]) {
      const res = await importAs(user, JSON.stringify(goodFile)).response;
      expect(res.status, String(user?.email)).toBe(user ? 403 : 401);
    }
    expect(await tableCounts()).toEqual({ services: 0, faqs: 0, activity: 0 });
  });

  it('a session that still says admin after the role was taken away is refused by the service (403)', async () => {
    const stale = { ...member, role: 'admin' as const };
    const exported = await exportAs(stale);
    expect(exported.status).toBe(403);
    expect(await exported.json()).toMatchObject({ code: 'FORBIDDEN' });
    const res = await importAs(stale, JSON.stringify(goodFile)).response;
    expect(res.status).toBe(403);
    expect(await tableCounts()).toEqual({ services: 0, faqs: 0, activity: 0 });
  });
});

describe('export', () => {
  it('downloads the content file as an attachment, never cached', async () => {
    await createRecord(admin.id, 'service', { name: 'Lead Outreach', price: 500 });
    const res = await exportAs(admin);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="site-content-\d{4}-\d{2}-\d{2}\.json"$/);
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    const file = (await res.json()) as { format: string; version: number; services: { id: string; name: string }[] };
    expect(file).toMatchObject({ format: 'agency-site-content', version: 1 });
    expect(file.services.map((s) => [s.id, s.name])).toEqual([['lead-outreach', 'Lead Outreach']]);
  });
});

describe('import', () => {
  it('a good file is imported in one go, recorded as one entry, and every cached page is dropped', async () => {
    const { response, invalidated } = importAs(admin, JSON.stringify(goodFile));
    const res = await response;
    expect(res.status).toBe(200);
    const body = (await res.json()) as { ok: boolean; message: string; activityId: string };
    expect(body).toMatchObject({ ok: true, message: expect.stringMatching(/^Imported 1 service, 0 demos, 0 packages, 0 articles, 1 FAQ,/) });
    expect(await h.handle.db.select({ id: services.id }).from(services)).toEqual([{ id: 'reminders' }]);
    expect((await h.handle.db.select().from(faqs))[0]?.answer).toBe('<p>A week.</p>');

    const entries = await h.handle.db.select().from(activityLog);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      id: body.activityId,
      action: 'import',
      entityType: 'content',
      entityId: 'backup.json',
      actorId: admin.id,
      actorEmail: 'owner@example.com',
      summary: expect.stringMatching(/^Imported backup\.json: 1 service, /),
      before: null,
      after: expect.objectContaining({ services: 1, faqs: 1 }),
    });
    expect(invalidated).toEqual([Object.values(CACHE_TAGS)]);
  });

  it('a file with bad records imports nothing and reports each problem by position and field', async () => {
    await createRecord(admin.id, 'service', { name: 'Already here' });
    const before = await tableCounts();
    const { response, invalidated } = importAs(admin, JSON.stringify(badFile));
    const res = await response;
    expect(res.status).toBe(422);
    expect(await res.json()).toEqual({
      ok: false,
      code: 'INVALID_CONTENT',
      message: 'Nothing was imported: 4 problems in backup.json.',
      problems: [
        { path: 'services[1].name', message: 'must not be empty' },
        { path: 'services[2].price', message: 'must be at least 0' },
        { path: 'services[2].shortTxt', message: 'unknown field' },
        { path: 'packages[0].includedServiceIds[0]', message: 'no service "ghost-service" in this file or in the database' },
      ],
    });
    expect(await tableCounts()).toEqual(before);
    expect(invalidated).toEqual([]);
  });

  it('a file that is not a content file at all says why, and imports nothing', async () => {
    const cases: [BodyInit, number, RegExp][] = [
      ['{"format": "agency-site-content", ', 400, /^backup\.json is not valid JSON \(.+\)\. Nothing was imported\.$/],
      ['', 400, /^backup\.json is empty/],
      [Uint8Array.of(0xc3, 0x28), 400, /is not valid JSON \(it is not UTF-8 text\)/],
      ['{"format":"agency-site-content","version":1,"services":[{"__proto__":{"x":1}}]}', 400, /contains a field named “__proto__”/],
      [JSON.stringify({ format: 'something-else' }), 422, /^Nothing was imported: 1 problem in backup\.json\.$/],
      [JSON.stringify({ ...envelope, version: 2 }), 422, /^Nothing was imported: 1 problem/],
    ];
    for (const [body, status, message] of cases) {
      const res = await importAs(admin, body).response;
      expect(res.status, String(body)).toBe(status);
      expect(((await res.json()) as { message: string }).message, String(body)).toMatch(message);
    }
    expect(await tableCounts()).toEqual({ services: 0, faqs: 0, activity: 0 });
  });

  it("a file over the site's limit (records plus the media quota in base64) is refused with 413 before it is read", async () => {
    const limit = contentFileLimitBytes(config().MEDIA_QUOTA_BYTES);
    const res = await importAs(admin, '{}', { 'content-length': String(limit + 1) }).response;
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({
      code: 'REQUEST_TOO_LARGE',
      message: 'backup.json is larger than 731 MB, the most this site imports (its records and a full media library). Nothing was imported.',
    });
  });

  it('names the entry by the uploaded file, without its path or markup', async () => {
    const res = await importAs(admin, JSON.stringify(goodFile), { 'x-file-name': encodeURIComponent('C:\\fakepath\\my "backup" <1>.json') }).response;
    expect(res.status).toBe(200);
    const [entry] = await h.handle.db.select().from(activityLog);
    expect(entry?.entityId).toBe('my backup 1.json');
    expect(entry?.summary).toMatch(/^Imported my backup 1\.json: /);
  });
});
