/**
 * tests/support/endpoints.ts lists the Actions in plain Node with a stub for 'astro:actions' (the Playwright specs cannot import
 * 'astro:actions'). This compares its list with the real `server` object, so the scan cannot drift from
 * what Astro serves.
 */
import { describe, expect, it, vi } from 'vitest';
import { ADMIN_PAGES, ADMIN_ROUTES, concreteAdminPaths, fillRoute, MADE_UP_ID, routeMatcher } from '../support/admin-pages';
import { ACTION_NAMES, ADMIN_API_ROUTES, API_ROUTES, ENDPOINT_ROUTES, exportedMethods, OTHER_ENDPOINTS } from '../support/endpoints';

// `astro:actions` is a virtual module of Astro's Vite plugin; outside a build, give the actions Astro's
// real defineAction/ActionError (as tests/integration/actions-authorization.test.ts does).
vi.mock('astro:actions', async () => {
  const server = await import('../../node_modules/astro/dist/actions/runtime/server.js');
  const client = await import('../../node_modules/astro/dist/actions/runtime/client.js');
  return { defineAction: server.defineAction, ActionError: client.ActionError, isInputError: client.isInputError };
});

const { server } = await import('../../src/actions');

/** Dotted names of every action in the (possibly nested) server object, as Astro routes them. */
function realActionNames(node: object, prefix = ''): string[] {
  return Object.entries(node).flatMap(([key, value]) => {
    const name = prefix ? `${prefix}.${key}` : key;
    // defineAction returns a function carrying `orThrow`; anything else is a nested group of actions.
    if (typeof value === 'function' && 'orThrow' in value) return [name];
    if (value && typeof value === 'object') return realActionNames(value, name);
    return [];
  });
}

describe('the generated endpoint list', () => {
  it('names exactly the Actions of src/actions', () => {
    const real = realActionNames(server).sort();
    expect(real.length).toBeGreaterThan(0);
    expect(ACTION_NAMES).toEqual(real);
  });

  it('finds the API routes under src/pages/api, better-auth paths included', () => {
    expect(API_ROUTES).toContain('/api/prices');
    expect(API_ROUTES).toEqual(expect.arrayContaining(['/api/auth/sign-up/email', '/api/auth/sign-out', '/api/auth/get-session']));
    // Our own plugin endpoint comes from scanning src/server/auth, not from the hand-kept better-auth list.
    expect(API_ROUTES).toContain('/api/auth/account/change-password');
    expect(new Set(API_ROUTES).size).toBe(API_ROUTES.length);
  });

  it('finds the other endpoints and fills route parameters', () => {
    expect(OTHER_ENDPOINTS).toEqual(expect.arrayContaining(['/healthz', '/readyz', '/sitemap.xml', '/robots.txt']));
    expect([...API_ROUTES, ...OTHER_ENDPOINTS].every((p) => p.startsWith('/') && !/[[\]]/.test(p))).toBe(true);
  });

  it('finds the admin API routes and the methods each route exports', () => {
    expect(ADMIN_API_ROUTES.map((r) => [r.path, r.methods])).toEqual(
      expect.arrayContaining([
        ['/api/admin/content/export', ['GET']],
        ['/api/admin/content/import', ['POST']],
      ]),
    );
    expect(ENDPOINT_ROUTES.find((r) => r.path === '/api/prices')?.methods).toEqual(['GET']);
    expect(ENDPOINT_ROUTES.find((r) => r.path === '/media/fuzz-param')?.methods).toEqual(['GET', 'HEAD']);
    expect(ENDPOINT_ROUTES.find((r) => r.path === '/api/auth/sign-out')?.methods).toEqual(['ALL']);
    expect(exportedMethods('export async function PUT() {}\nconst d = 1; export { d as DELETE, helper };')).toEqual(['PUT', 'DELETE']);
  });
});

describe('the generated admin page list', () => {
  it('walks src/pages/admin: index pages, nested pages and dynamic segments', () => {
    const patterns = ADMIN_PAGES.map((r) => r.pattern);
    expect(patterns).toEqual(expect.arrayContaining(['/admin', '/admin/activity', '/admin/content/transfer', '/admin/services', '/admin/services/[id]', '/admin/users/[userId]']));
    expect(ADMIN_ROUTES.find((r) => r.pattern === '/admin/services/[id]')).toMatchObject({ params: ['id'], kind: 'page', file: 'src/pages/admin/services/[id].astro' });
    // A static page beside a dynamic one: the chat settings next to the conversations (decision 031).
    expect(patterns).toEqual(expect.arrayContaining(['/admin/chat-settings', '/admin/chat-settings/settings', '/admin/chat-settings/[conversationId]']));
    expect(concreteAdminPaths(ADMIN_ROUTES)).toContain('/admin/chat-settings/settings');
  });

  it('fills each dynamic segment with `new` and with a made-up id', () => {
    const paths = concreteAdminPaths(ADMIN_ROUTES);
    expect(paths).toEqual(expect.arrayContaining(['/admin', '/admin/services/new', `/admin/services/${MADE_UP_ID}`, `/admin/users/${MADE_UP_ID}`]));
    expect(paths.every((p) => p.startsWith('/admin') && !/[[\]]/.test(p))).toBe(true);
    expect(fillRoute('/admin/[a]/x/[...rest]', 'v w')).toBe('/admin/v%20w/x/v%20w');
  });

  it('matches concrete paths of a dynamic route', () => {
    expect(routeMatcher('/admin/services/[id]').test('/admin/services/lead-outreach')).toBe(true);
    expect(routeMatcher('/admin/services/[id]').test('/admin/services/a/b')).toBe(false);
    expect(routeMatcher('/admin/services/[id]').test('/admin/servicesx/a')).toBe(false);
  });
});
