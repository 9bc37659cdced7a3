/**
 * Which answers a CDN or caching proxy in front may keep (docs/decisions/024). Every page route of
 * src/pages is found by walking the folder and must be either a public page (then it carries the
 * shared-cache directives and the purge tags, rendered and replayed alike) or personal (admin, dashboard,
 * account, auth, the API: never a shared-cache directive, whoever asks). The lists are generated, so a new
 * page or API route is covered without editing this file.
 */
import { expect, test, type APIRequestContext, type APIResponse } from './support/fixtures';
import { ADMIN_ROUTES, concreteAdminPaths, routeMatcher, scanAdminRoutes } from '../support/admin-pages';
import { API_ROUTES, ENDPOINT_ROUTES } from '../support/endpoints';
import { ADMIN_STATE, MEMBER_STATE } from './support/accounts';
import { allPublicPaths } from './support/public-pages';
// Pages whose answer depends on who asks, or whose address is a private link: the server's own rule.
import { isPrivatePath } from '../../src/server/security-headers';

const SHARED = /^public, max-age=0, s-maxage=[1-9]\d*, stale-while-revalidate=\d+$/;

/** Every route of src/pages (pages and endpoints), as Astro names it: '/article/[slug]', '/admin/faqs/[id]'. */
const ALL_ROUTES = scanAdminRoutes(new URL('../../src/pages', import.meta.url).pathname).map((r) => ({ ...r, pattern: r.pattern.replace(/^\/admin/, '') || '/' }));
const PAGE_ROUTES = ALL_ROUTES.filter((r) => r.kind === 'page' && !/^\/(404|500)$/.test(r.pattern));


function expectNotShared(res: APIResponse, label: string) {
  const h = res.headers();
  expect(h['cache-control'] ?? '', label).not.toMatch(/s-maxage|public/);
  expect(h['surrogate-key'], label).toBeUndefined();
  expect(h['cache-tag'], label).toBeUndefined();
  expect(h['cdn-tag'], label).toBeUndefined();
}

function expectShared(res: APIResponse, label: string) {
  const h = res.headers();
  expect(res.status(), label).toBe(200);
  expect(h['cache-control'], label).toMatch(SHARED);
  // Every public page carries the site-wide tags; the tag headers list the same tags.
  const keys = (h['surrogate-key'] ?? '').split(' ');
  expect(keys, label).toEqual(expect.arrayContaining(['site', 'seo', 'chat']));
  expect(h['cache-tag'], label).toBe(keys.join(','));
  expect(h['cdn-tag'], label).toBe(keys.join(','));
}

/** The personal addresses: every non-public page route, filled like the authorization matrix fills them, and every API route. */
function personalPaths(): string[] {
  const pages = PAGE_ROUTES.filter((r) => isPrivatePath(r.pattern));
  const filled = concreteAdminPaths(pages.map((r) => ({ ...r })));
  return [...new Set([...filled, ...concreteAdminPaths(ADMIN_ROUTES), ...API_ROUTES])];
}

/**
 * Asked with the caller's cookies through fetch, which resolves on the headers: live streams (the chat's
 * event streams) are judged by their headers and closed, instead of being read to an end that never comes.
 */
async function checkPersonal(request: APIRequestContext, baseURL: string, who: string) {
  const { cookies } = await request.storageState();
  const cookie = cookies.map((c) => `${c.name}=${c.value}`).join('; ');
  for (const path of personalPaths()) {
    const controller = new AbortController();
    const res = await fetch(new URL(path, baseURL), { headers: cookie ? { cookie } : {}, redirect: 'manual', signal: controller.signal });
    const label = `${who} GET ${path} (${res.status})`;
    expect(res.headers.get('cache-control') ?? '', label).not.toMatch(/s-maxage|public/);
    for (const name of ['surrogate-key', 'cache-tag', 'cdn-tag']) expect(res.headers.get(name), label).toBeNull();
    controller.abort();
  }
}

test('every page route is either a public page or a personal one', async ({ request }) => {
  const publicPaths = await allPublicPaths(request);
  for (const route of PAGE_ROUTES) {
    const isPublic = publicPaths.some((p) => routeMatcher(route.pattern).test(p));
    expect(isPublic !== isPrivatePath(route.pattern), `${route.file}: public (${isPublic}) or personal`).toBe(true);
  }
  expect(PAGE_ROUTES.length).toBeGreaterThan(40);
  expect(API_ROUTES.length).toBeGreaterThan(20);
});

test('public pages carry shared-cache directives and purge tags, on the render and on the route-cache hit', async ({ request }) => {
  const paths = [...(await allPublicPaths(request)), '/sitemap.xml'];
  for (const path of paths) {
    const first = await request.get(path);
    const again = await request.get(path);
    expect(again.headers()['x-astro-cache'], path).toBe('HIT');
    expectShared(first, `${path} (${first.headers()['x-astro-cache']})`);
    expectShared(again, `${path} (HIT)`);
    expect(again.headers()['surrogate-key'], path).toBe(first.headers()['surrogate-key']);
  }
});

test('answers that are not the same for everyone never carry one', async ({ request, baseURL }) => {
  // Not found, an admin's preview, a form post, a health probe, and what the other endpoints answer.
  for (const path of ['/no-such-page', '/service/no-such-service', '/article/no-such-article', '/?preview', '/healthz', '/readyz']) {
    expectNotShared(await request.get(path, { maxRedirects: 0 }), path);
  }
  for (const route of ENDPOINT_ROUTES.filter((r) => !['/sitemap.xml', '/robots.txt'].includes(r.path))) {
    const res = await request.get(route.path, { maxRedirects: 0 });
    if (res.status() !== 200 || route.path.startsWith('/api/')) expectNotShared(res, `GET ${route.path} (${res.status()})`);
  }
  const post = await request.post('/free-audit', { headers: { origin: baseURL! }, form: { website: 'x' }, maxRedirects: 0 });
  expectNotShared(post, 'POST /free-audit');
  await checkPersonal(request, baseURL!, 'a visitor');
});

test.describe('signed in', () => {
  test.describe('as a member', () => {
    test.use({ storageState: MEMBER_STATE });
    test('personal routes never carry a shared-cache directive', async ({ request, baseURL }) => {
      await checkPersonal(request, baseURL!, 'a member');
    });
  });
  test.describe('as the admin', () => {
    test.use({ storageState: ADMIN_STATE });
    test('personal routes never carry a shared-cache directive', async ({ request, baseURL }) => {
      await checkPersonal(request, baseURL!, 'the admin');
    });
  });
});
