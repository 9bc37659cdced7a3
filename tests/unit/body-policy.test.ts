/**
 * Every route that takes a body says how much (src/server/http/body-policy.ts), from the list of routes
 * and Actions the site really has: a new write route cannot fall back to a limit nobody chose.
 */
import { describe, expect, it } from 'vitest';
import { bodyPolicyFor, declaredRoutePolicy, LARGEST_BODY_BYTES, MAX_URLENCODED_BYTES } from '../../src/server/http/body-policy';
import { normalizePath } from '../../src/server/guards';
import { ACTION_NAMES, ENDPOINT_ROUTES } from '../support/endpoints';

const WRITES = ['POST', 'PUT', 'PATCH', 'DELETE', 'ALL'];

describe('body limits', () => {
  it('every endpoint that answers a write declares its body limit', () => {
    const writeRoutes = ENDPOINT_ROUTES.filter((r) => r.methods.some((m) => WRITES.includes(m)));
    expect(writeRoutes.length).toBeGreaterThan(5);
    for (const route of writeRoutes) {
      const policy = declaredRoutePolicy(normalizePath(route.path));
      expect(policy, `${route.file} takes writes but declares no body limit in body-policy.ts`).toBeDefined();
      expect(policy!.limit).toBeLessThanOrEqual(LARGEST_BODY_BYTES);
    }
  });

  it('every Action has a limit of a few KB for members and 1 MB for admins, checked before Astro parses it', () => {
    expect(ACTION_NAMES.length).toBeGreaterThan(10);
    for (const name of ACTION_NAMES) {
      const policy = bodyPolicyFor(`/_actions/${name.toLowerCase()}`, name);
      expect(policy.reader, name).toBe('middleware');
      expect(policy.limit, name).toBe(name.startsWith('admin.') ? 1024 * 1024 : 16 * 1024);
    }
  });

  it('no route but the two admin uploads takes more than a form of 64 KB', () => {
    const large = ENDPOINT_ROUTES.map((r) => normalizePath(r.path)).filter((p) => (declaredRoutePolicy(p)?.limit ?? 0) > MAX_URLENCODED_BYTES);
    expect([...new Set(large)].sort()).toEqual(['/api/admin/content/import', '/api/admin/media']);
  });
});
