/**
 * tests/support/endpoints.ts lists the Actions in plain Node with a stub for 'astro:actions' (the Playwright specs cannot import
 * 'astro:actions'). This compares its list with the real `server` object, so the scan cannot drift from
 * what Astro serves.
 */
import { describe, expect, it, vi } from 'vitest';
import { ACTION_NAMES, API_ROUTES, OTHER_ENDPOINTS } from '../support/endpoints';

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
});
