/**
 * The public routes analytics and lead attribution count by name (src/shared/site-routes.ts): the fixed
 * pages match src/pages (a new public page cannot be forgotten), detail pages match their folders, and
 * anything else is no route.
 */
import fs from 'node:fs';
import path from 'node:path';
import { isPrivatePath } from '../../src/server/security-headers';
import { describe, expect, it } from 'vitest';
import { DETAIL_KINDS, PUBLIC_STATIC_PATHS, publicRouteOf } from '../../src/shared/site-routes';

const pagesDir = path.resolve(import.meta.dirname, '../../src/pages');

function pageFiles(dir: string, prefix = ''): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const rel = `${prefix}/${entry.name}`;
    return entry.isDirectory() ? pageFiles(path.join(dir, entry.name), rel) : [rel];
  });
}

describe('the public routes', () => {
  it('list every fixed page of src/pages that a visitor opens (not admin, API, error pages or files)', () => {
    const fixed = pageFiles(pagesDir)
      .filter((f) => f.endsWith('.astro') && !f.includes('['))
      .filter((f) => !/^\/(admin|api)\//.test(f) && !/^\/(404|500)\.astro$/.test(f))
      .map((f) => f.replace(/\.astro$/, '').replace(/\/index$/, '') || '/');
    expect([...PUBLIC_STATIC_PATHS].sort()).toEqual(fixed.sort());
  });

  it('know every dynamic public page by its folder (private ones, like a report link, are never counted by name)', () => {
    const dynamic = pageFiles(pagesDir).filter((f) => f.includes('[') && f.endsWith('.astro') && !isPrivatePath(f));
    expect(dynamic.map((f) => f.split('/')[1]).sort()).toEqual([...DETAIL_KINDS].sort());
  });

  it('read a path as a fixed page or a detail page with its decoded id', () => {
    expect(publicRouteOf('/')).toEqual({ kind: 'static', path: '/' });
    expect(publicRouteOf('/free-audit')).toEqual({ kind: 'static', path: '/free-audit' });
    expect(publicRouteOf('/service/ai-chatbot')).toEqual({ kind: 'service', id: 'ai-chatbot' });
    expect(publicRouteOf('/article/hello%20world')).toEqual({ kind: 'article', id: 'hello world' });
    expect(publicRouteOf('/package/growth')).toEqual({ kind: 'package', id: 'growth' });
    expect(publicRouteOf('/demo/d1')).toEqual({ kind: 'demo', id: 'd1' });
  });

  it('refuse everything else', () => {
    for (const p of ['', '/services/', '/Services', '/admin', '/api/visits', '/service', '/service/', '/service/a/b', '/article/%E0%A4%A', `/article/${'a'.repeat(201)}`, '/buy-now-at-cheap-example', '/media/x.webp', '/services?x=1', `/audit-report/${'A'.repeat(43)}`, '/dashboard/reports/r1']) {
      expect(publicRouteOf(p), p).toBeUndefined();
    }
  });
});
