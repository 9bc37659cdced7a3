/**
 * A member and a visitor are refused on every admin page, every admin Action and every admin API route,
 * and nothing changes. The lists are generated — pages by walking src/pages/admin, Actions from the real
 * server object (ACTION_NAMES), API routes from src/pages/api/admin — so a new one is covered without
 * editing this file. The inputs are well-formed ones that WOULD change data for an admin (the last test
 * proves it for every create Action), so a refusal is the guard's doing, not a bad payload's.
 */
import { expect, test, type APIRequestContext, type PlaywrightWorkerArgs } from './support/fixtures';
import { DEFAULT_CHAT_SETTINGS } from '../../src/shared/chat';
import { isMediaApiPath, storageRefusal } from '../../src/shared/media-library';
import { ADMIN_ROUTES, concreteAdminPaths } from '../support/admin-pages';
import { ACTION_NAMES, ADMIN_API_ROUTES } from '../support/endpoints';
import { ADMIN_STATE, MEMBER_STATE } from './support/accounts';
import { activityCount, callAction, contentSnapshot, type ContentFile } from './support/admin-actions';

const ADMIN_PATHS = concreteAdminPaths(ADMIN_ROUTES);
const ADMIN_ACTIONS = ACTION_NAMES.filter((name) => name.startsWith('admin.'));

type Record_ = Record<string, unknown> & { id: string };

/** Server-owned keys of a content-file record: the rest are the type's editable fields (src/shared/content-bundle.ts). */
const SERVER_KEYS = new Set(['id', 'order', 'createdAt', 'updatedAt']);
const PROBE = 'authz-probe';

/** A record's editable fields with its title changed (and its slug, which must stay unique). */
function probeFields(record: Record_): Record<string, unknown> {
  const fields = Object.fromEntries(Object.entries(record).filter(([k]) => !SERVER_KEYS.has(k)));
  for (const key of ['name', 'title', 'question']) if (typeof fields[key] === 'string') fields[key] = `${String(fields[key]).slice(0, 80)} ${PROBE}`;
  if (typeof fields.slug === 'string') fields.slug = `${fields.slug}-${PROBE}`;
  return fields;
}

/**
 * A well-formed input for an admin Action, built from the real content: `admin.<section>.<verb>` uses the
 * content file's <section> ('services', 'articles', …). Actions of other kinds get the shape their verb
 * suggests; the guard refuses before any input is read, and the snapshot comparison catches any change.
 */
function inputFor(action: string, content: ContentFile, anyActivityId: string): Record<string, unknown> {
  const parts = action.split('.');
  const verb = parts.at(-1)!;
  const records = (Array.isArray(content[parts[1]!]) ? content[parts[1]!] : []) as Record_[];
  const record = records[0];
  switch (verb) {
    case 'create':
      return { fields: record ? probeFields(record) : { name: PROBE } };
    case 'update':
      return { id: record?.id ?? PROBE, version: String(record?.updatedAt ?? ''), fields: record ? probeFields(record) : { name: PROBE } };
    case 'duplicate':
    case 'remove':
    case 'delete':
      return { id: record?.id ?? PROBE };
    case 'reorder':
      return { ids: records.map((r) => r.id).reverse() };
    case 'revert':
      return { id: anyActivityId };
    case 'save':
      // The general settings: a member's save would change the site's time zone and where replies go.
      if (parts[1] === 'settings') return { settings: { timeZone: 'Asia/Tokyo', replyTo: `${PROBE}@example.com` } };
      return record ? { id: record.id, fields: probeFields(record) } : { id: PROBE };
    case 'saveSettings':
      // The chat switched off: an admin's save would change every public page (and add an activity entry).
      return { value: { ...DEFAULT_CHAT_SETTINGS, enabled: false } };
    default:
      // The chat inbox's Actions name a conversation; the rest a record of their section.
      if (parts[1] === 'chat') return { conversationId: crypto.randomUUID(), body: PROBE, status: 'handled' };
      return record ? { id: record.id, fields: probeFields(record) } : { id: PROBE };
  }
}

/** Form posts carry flat fields: the input's top-level strings and lists. */
function formFor(input: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(Object.entries(input).flatMap(([k, v]) => (typeof v === 'string' ? [[k, v]] : Array.isArray(v) ? [[k, v.join(',')]] : [])));
}

/** A valid content file that renames a service: what the import route would apply for an admin. */
function importBody(content: ContentFile): string {
  const services = (content.services as Record_[]).map((s, i) => (i === 0 ? { ...s, name: `${String(s.name).slice(0, 80)} ${PROBE}` } : s));
  return JSON.stringify({ ...content, exportedAt: new Date().toISOString(), services });
}

const adminContext = (playwright: PlaywrightWorkerArgs['playwright'], baseURL: string): Promise<APIRequestContext> =>
  playwright.request.newContext({ baseURL, storageState: ADMIN_STATE });

interface Expectation {
  pageLocation: string;
  apiStatus: 401 | 403;
}

const WHO: Record<'visitor' | 'member', Expectation & { storageState?: string }> = {
  visitor: { pageLocation: '/auth', apiStatus: 401 },
  member: { pageLocation: '/dashboard', apiStatus: 403, storageState: MEMBER_STATE },
};

test('the generated lists hold the admin pages, Actions and API routes', () => {
  expect(ADMIN_PATHS).toEqual(expect.arrayContaining(['/admin', '/admin/activity', '/admin/content/transfer', '/admin/services', '/admin/services/new']));
  expect(ADMIN_PATHS.some((p) => /^\/admin\/services\/no-such-record/.test(p))).toBe(true);
  expect(ADMIN_ACTIONS).toEqual(
    expect.arrayContaining(['admin.services.create', 'admin.services.update', 'admin.services.remove', 'admin.activity.revert', 'admin.chat.saveSettings', 'admin.settings.save', 'admin.chat.reply', 'admin.chat.markRead']),
  );
  expect(ADMIN_PATHS).toEqual(expect.arrayContaining(['/admin/chat-settings', '/admin/chat-settings/settings', '/admin/chat-settings/no-such-record-7f3a9c']));
  expect(ADMIN_API_ROUTES.map((r) => r.path)).toEqual(expect.arrayContaining(['/api/admin/content/export', '/api/admin/content/import', '/api/admin/users/export']));
  expect(ADMIN_ACTIONS).toEqual(expect.arrayContaining(['admin.users.setRole', 'admin.users.disable', 'admin.users.enable', 'admin.users.resendVerification']));
  expect(ADMIN_PATHS).toEqual(expect.arrayContaining(['/admin/users', '/admin/users/no-such-record-7f3a9c']));
  expect(ADMIN_PATHS).toEqual(expect.arrayContaining(['/admin/leads', '/admin/leads/no-such-record-7f3a9c']));
  expect(ADMIN_API_ROUTES.map((r) => r.path)).toContain('/api/admin/leads/export');
});

for (const [who, expected] of Object.entries(WHO)) {
  test.describe(who, () => {
    if (expected.storageState) test.use({ storageState: expected.storageState });

    test(`is refused on every admin page, Action and API route, and nothing changes`, async ({ request, baseURL, playwright }) => {
      test.setTimeout(180_000);
      const admin = await adminContext(playwright, baseURL!);
      const content = await contentSnapshot(admin);
      const before = { content, activity: await activityCount(admin) };
      // The revert Action's target: a real entry when the log has one.
      const entryId = /data-entry="([0-9a-f-]{36})"/.exec(await (await admin.get('/admin/activity')).text())?.[1] ?? crypto.randomUUID();

      const failures: string[] = [];
      const check = (what: string, got: unknown, want: unknown) => {
        if (JSON.stringify(got) !== JSON.stringify(want)) failures.push(`${what}: got ${JSON.stringify(got)}, want ${JSON.stringify(want)}`);
      };

      for (const path of ADMIN_PATHS) {
        const res = await request.get(path, { maxRedirects: 0 });
        check(`GET ${path}`, [res.status(), res.headers().location, res.headers()['cache-control']], [302, expected.pageLocation, 'private, no-store']);
      }

      for (const action of ADMIN_ACTIONS) {
        const input = inputFor(action, content, entryId);
        const rpc = await callAction(request, baseURL!, action, input);
        check(`POST /_actions/${action}`, [rpc.status, rpc.error?.code], [expected.apiStatus, expected.apiStatus === 401 ? 'UNAUTHORIZED' : 'FORBIDDEN']);
        // Astro's form transport: a browser form posted to any page with ?_action=.
        for (const page of ['/', '/admin']) {
          const form = await request.post(`${page}?_action=${action}`, { form: formFor(input), headers: { origin: baseURL! }, maxRedirects: 0 });
          check(`form POST ${page}?_action=${action}`, [form.status(), form.headers().location], [303, expected.pageLocation]);
        }
      }

      for (const route of ADMIN_API_ROUTES) {
        const methods = route.methods.includes('ALL') ? ['GET', 'POST'] : route.methods.filter((m) => m !== 'HEAD' && m !== 'OPTIONS');
        for (const method of methods) {
          const res =
            method === 'GET'
              ? await request.get(route.path, { maxRedirects: 0 })
              : await request.fetch(route.path, { method, headers: { origin: baseURL!, 'content-type': 'application/octet-stream', 'x-file-name': 'probe.json' }, data: importBody(content), maxRedirects: 0 });
          check(`${method} ${route.path}`, [res.status(), res.headers()['cache-control']], [expected.apiStatus, 'private, no-store']);
          const body = (await res.json().catch(() => undefined)) as { code?: string } | undefined;
          // The media API answers in the seed's storage error catalogue; the other admin routes in ours.
          const code = isMediaApiPath(route.path) ? storageRefusal(expected.apiStatus, '').code : expected.apiStatus === 401 ? 'UNAUTHORIZED' : 'FORBIDDEN';
          check(`${method} ${route.path} body`, body?.code, code);
        }
      }

      expect(failures, failures.join('\n')).toEqual([]);
      const after = { content: await contentSnapshot(admin), activity: await activityCount(admin) };
      expect(after.activity, 'no activity entry was added').toBe(before.activity);
      expect(after.content, 'the content is exactly as it was').toEqual(before.content);
      expect(JSON.stringify(after.content)).not.toContain(PROBE);
      await admin.dispose();
    });
  });
}

test('the member is still a member afterwards', async ({ playwright, baseURL }) => {
  const member = await playwright.request.newContext({ baseURL, storageState: MEMBER_STATE });
  const me = ((await (await member.get('/api/auth/get-session')).json()) as { user: { role: string } }).user;
  expect(me.role).toBe('user');
  await member.dispose();
});

/**
 * As the editor does when a library picture is chosen: the picture brings its own alt text (decision 033),
 * which the content file does not repeat on the record.
 */
async function withPictureAlts(admin: APIRequestContext, input: Record<string, unknown>): Promise<Record<string, unknown>> {
  const fields = { ...(input.fields as Record<string, unknown>) };
  for (const [picture, alt] of [['picture', 'pictureAlt'], ['profilePicture', 'profilePictureAlt'], ['featuredImage', 'featuredImageAlt']] as const) {
    const id = /^\/media\/([0-9a-f]{32})\.webp$/.exec(String(fields[picture] ?? ''))?.[1];
    if (id && !fields[alt]) fields[alt] = ((await (await admin.get(`/api/admin/media/${id}`)).json()) as { alt: string }).alt;
  }
  return { ...input, fields };
}

// The control: the same create inputs, sent by the admin, do create (then the record is removed again).
// Without it, a malformed input would be refused for its shape and the tests above would prove nothing.
test('an admin sending the same create inputs does change data', async ({ playwright, baseURL }) => {
  const admin = await adminContext(playwright, baseURL!);
  const content = await contentSnapshot(admin);
  const creates = ADMIN_ACTIONS.filter((a) => a.endsWith('.create') && Array.isArray(content[a.split('.')[1]!]) && (content[a.split('.')[1]!] as unknown[]).length > 0);
  expect(creates).toContain('admin.services.create');
  for (const action of creates) {
    const created = await callAction<{ id: string }>(admin, baseURL!, action, await withPictureAlts(admin, inputFor(action, content, '')));
    expect(created.status, `${action}: ${JSON.stringify(created.error)}`).toBe(200);
    const remove = action.replace(/\.create$/, '.remove');
    expect(ADMIN_ACTIONS, `${action} has a matching remove`).toContain(remove);
    expect((await callAction(admin, baseURL!, remove, { id: created.data!.id })).status, remove).toBe(200);
  }
  await admin.dispose();
});
