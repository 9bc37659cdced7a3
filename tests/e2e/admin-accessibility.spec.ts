/**
 * axe-core finds nothing on any admin page, as the admin, after the islands have loaded, at phone and
 * desktop widths. The tests are generated from walking src/pages/admin (tests/support/admin-pages.ts), so
 * a new admin page is checked without editing this file: each dynamic page with a real record (linked
 * from its list page, the activity log or its parent record's page) and, when it has one, its `new` screen.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type APIRequestContext, type Page } from './support/fixtures';
import { ADMIN_PAGES, fillRoute, routeMatcher, type AdminRoute } from '../support/admin-pages';
import { startAuditFixtureSites, type AuditFixtureSites } from '../support/audit-fixture-sites';
import { ADMIN_STATE, freshClientIp, islandsHydrated } from './support/accounts';
import { callAction } from './support/admin-actions';
import { VIEWPORTS } from './support/public-pages';

test.use({ storageState: ADMIN_STATE });
// One test per admin page, shared out over the workers (each has its own server, so each runs the set-up below once).
test.describe.configure({ mode: 'parallel' });

const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'];

async function violations(page: Page, label: string): Promise<string[]> {
  // The landing layout's live preview frames the public landing page, which accessibility.spec.ts checks
  // on its own (there its rotating phrase is checked at rest, not mid-fade).
  const { violations: found } = await new AxeBuilder({ page }).exclude('[data-landing-preview]').withTags(TAGS).analyze();
  return found.map((v) => `${label}: ${v.id} (${v.impact}) — ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')}`);
}

/**
 * axe at each width after hydration, with every closed <details> opened first (the activity log's "Show
 * changes", the phone menu): hidden content is skipped by axe, so one run checks both states' markup.
 */
async function expectNoViolations(page: Page, path: string) {
  const failures: string[] = [];
  for (const [name, viewport] of Object.entries(VIEWPORTS)) {
    await page.setViewportSize(viewport);
    const status = (await page.goto(path))?.status();
    expect(status, `${path} answers the admin page`).toBe(200);
    // The islands' own markup is what the admin uses.
    await islandsHydrated(page);
    await page.locator('details:not([open])').evaluateAll((all) => all.forEach((d) => ((d as HTMLDetailsElement).open = true)));
    failures.push(...(await violations(page, `${name} ${path}`)));
  }
  expect(failures, failures.join('\n')).toEqual([]);
}

/**
 * A real record's page of a dynamic route: a link to one on the route's list page (the path before its
 * first dynamic segment), in the activity log or on a real record's page of the route it is nested in
 * ('/admin/audit/[id]/report' is linked from '/admin/audit/[id]'), that answers 200 (an old entry may
 * name a deleted record).
 */
async function realRecordPath(request: APIRequestContext, route: AdminRoute): Promise<string | undefined> {
  const matcher = routeMatcher(route.pattern);
  const listPage = route.pattern.slice(0, route.pattern.indexOf('/[')) || '/admin';
  const parentPattern = route.pattern.slice(0, route.pattern.lastIndexOf('/'));
  const parent = parentPattern.endsWith(']') ? await realRecordPath(request, { ...route, pattern: parentPattern }) : undefined;
  for (const source of [listPage, '/admin/activity', ...(parent ? [parent] : [])]) {
    const html = await (await request.get(source)).text();
    const hrefs = [...html.matchAll(/href="(\/admin\/[^"?#]+)/g)].map((m) => m[1]!).filter((h) => matcher.test(h) && !h.endsWith('/new'));
    for (const href of new Set(hrefs)) if ((await request.get(href)).status() === 200) return href;
  }
  return undefined;
}

// An activity entry with a before/after (markup in a text field included), so the log, its diff and its
// links to records and admins have content; and a FAQ, since the demo content stores none (the site
// shows the built-in ten). Both are removed afterwards, as later specs count the demo content.
let probeId: string | undefined;
let faqProbeId: string | undefined;
let sites: AuditFixtureSites | undefined;
test.beforeAll(async ({ playwright, baseURL }) => {
  test.setTimeout(120_000);
  sites = await startAuditFixtureSites();
  const admin = await playwright.request.newContext({ baseURL, storageState: ADMIN_STATE });
  const faq = await callAction<{ id: string }>(admin, baseURL!, 'admin.faqs.create', { fields: { question: 'Axe check: is this page accessible?', answer: '<p>It should be.</p>' } });
  expect(faq.status, JSON.stringify(faq.error)).toBe(200);
  faqProbeId = faq.data!.id;
  const created = await callAction<{ id: string; snapshot: { updatedAt: string } }>(admin, baseURL!, 'admin.services.create', {
    fields: { name: `Axe check ${Date.now().toString(36)}`, shortText: 'Before', price: 100 },
  });
  expect(created.status, JSON.stringify(created.error)).toBe(200);
  const { id, snapshot } = created.data!;
  probeId = id;
  const updated = await callAction(admin, baseURL!, 'admin.services.update', {
    id,
    version: snapshot.updatedAt,
    fields: { name: `Axe check ${id}`, shortText: 'After <b>bold</b>', price: 150 },
  });
  expect(updated.status, JSON.stringify(updated.error)).toBe(200);
  // A free-audit request with a fixture website, so /admin/audit/[id] has a record with a finished website
  // check and /admin/audit/[id]/report a report to preview (requests are kept: nothing to remove after).
  const businessName = `Axe Check Clinic ${Date.now().toString(36)}`;
  const audit = await admin.post('/api/audit-requests', {
    headers: { origin: baseURL!, 'x-real-ip': freshClientIp() },
    data: { fullName: 'Axe Check', email: 'axe-check@example.com', businessName, website: sites.url('good.test'), businessType: 'clinic', goals: ['more-leads'], consent: true },
  });
  expect(audit.status(), await audit.text()).toBe(200);
  const list = await (await admin.get(`/admin/audit?q=${encodeURIComponent(businessName)}`)).text();
  const detail = /href="(\/admin\/audit\/[0-9a-f-]{36})"/.exec(list)?.[1];
  expect(detail, 'the request is listed').toBeDefined();
  await expect.poll(async () => (await (await admin.get(detail!)).text()).includes('data-report-editor'), { message: 'the website check finished', timeout: 60_000 }).toBe(true);
  // A chat conversation with markup in it, so /admin/chat-settings lists one and /admin/chat-settings/[id]
  // shows messages from the visitor and the assistant (conversations are kept: nothing to remove after).
  const visitorId = Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
  const chat = await admin.post('/api/chat/messages', {
    headers: { origin: baseURL!, 'x-real-ip': freshClientIp(), 'x-chat-visitor': visitorId },
    data: { body: 'Axe check: what services do you offer? <b>bold</b>' },
  });
  expect(chat.status(), await chat.text()).toBe(200);
  await admin.dispose();
});

test.afterAll(async ({ playwright, baseURL }) => {
  await sites?.close();
  const admin = await playwright.request.newContext({ baseURL, storageState: ADMIN_STATE });
  if (probeId) expect((await callAction(admin, baseURL!, 'admin.services.remove', { id: probeId })).status).toBe(200);
  if (faqProbeId) expect((await callAction(admin, baseURL!, 'admin.faqs.remove', { id: faqProbeId })).status).toBe(200);
  await admin.dispose();
});

test('the generated list holds the admin pages', () => {
  expect(ADMIN_PAGES.map((r) => r.pattern)).toEqual(expect.arrayContaining(['/admin', '/admin/activity', '/admin/content/transfer', '/admin/services/[id]', '/admin/chat-settings', '/admin/chat-settings/settings', '/admin/chat-settings/[conversationId]', '/admin/users', '/admin/users/[userId]']));
  expect(ADMIN_PAGES.map((r) => r.pattern)).toEqual(expect.arrayContaining(['/admin/leads', '/admin/leads/[person]']));
});

for (const route of ADMIN_PAGES) {
  if (route.params.length === 0) {
    test(`${route.pattern} passes axe`, async ({ page }) => {
      test.setTimeout(90_000);
      await expectNoViolations(page, route.pattern);
    });
    continue;
  }
  test(`${route.pattern} passes axe with a real record and as \`new\``, async ({ page }) => {
    test.setTimeout(120_000);
    const real = await realRecordPath(page.request, route);
    expect(real, `a real record of ${route.pattern} is linked from its list page or the activity log`).toBeDefined();
    await expectNoViolations(page, real!);
    // `new` is the create screen of a record type; a route without one (a user's page) answers 404 to it.
    const create = fillRoute(route.pattern, 'new');
    if ((await page.request.get(create)).status() !== 404) await expectNoViolations(page, create);
  });
}
