/**
 * Every admin page of the site, found by walking src/pages/admin at import time, so the authorization and
 * accessibility specs cover a new admin page without being edited. Plain Node (Playwright specs import it).
 */
import fs from 'node:fs';
import path from 'node:path';

const ADMIN_DIR = path.resolve(import.meta.dirname, '../../src/pages/admin');

export interface AdminRoute {
  /** '/admin/services/[id]': the route as Astro names it. */
  pattern: string;
  /** The source file, relative to the repository. */
  file: string;
  /** 'page' for .astro files (HTML for people), 'endpoint' for .ts/.js ones (downloads and the like). */
  kind: 'page' | 'endpoint';
  /** The dynamic segments' names: ['id']. */
  params: string[];
}

function walk(dir: string, prefix: string): AdminRoute[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .sort((a, b) => a.name.localeCompare(b.name))
    .flatMap((entry): AdminRoute[] => {
      if (entry.isDirectory()) return walk(path.join(dir, entry.name), `${prefix}/${entry.name}`);
      const match = /^(.*)\.(astro|ts|js|mts|mjs|md|mdx)$/.exec(entry.name);
      if (!match || entry.name.endsWith('.d.ts') || entry.name.startsWith('_')) return [];
      const [, base, ext] = match;
      const pattern = base === 'index' ? prefix : `${prefix}/${base}`;
      return [
        {
          pattern,
          file: path.relative(path.resolve(ADMIN_DIR, '../../..'), path.join(dir, entry.name)),
          kind: ext === 'astro' || ext === 'md' || ext === 'mdx' ? 'page' : 'endpoint',
          params: [...pattern.matchAll(/\[(?:\.\.\.)?(\w+)\]/g)].map((m) => m[1]!),
        },
      ];
    });
}

export function scanAdminRoutes(dir = ADMIN_DIR): AdminRoute[] {
  return walk(dir, '/admin');
}

/** The route with every dynamic segment set to `value` ('[...rest]' takes it as one segment). */
export const fillRoute = (pattern: string, value: string) => pattern.replace(/\[(?:\.\.\.)?\w+\]/g, encodeURIComponent(value));

/** A record id that never exists (well-formed, so it reaches the page rather than a 400). */
export const MADE_UP_ID = 'no-such-record-7f3a9c';

/**
 * Concrete paths to request: each static route as it is, each dynamic one with `new` (the "create"
 * screens) and with a made-up id.
 */
export function concreteAdminPaths(routes: readonly AdminRoute[]): string[] {
  const paths = routes.flatMap((r) => (r.params.length === 0 ? [r.pattern] : [fillRoute(r.pattern, 'new'), fillRoute(r.pattern, MADE_UP_ID)]));
  return [...new Set(paths)];
}

/** A regular expression matching the concrete paths of a dynamic route ('/admin/services/[id]' → /admin/services/<segment>). */
export function routeMatcher(pattern: string): RegExp {
  const source = pattern
    .split(/(\[(?:\.\.\.)?\w+\])/)
    .map((part) => (/^\[\.\.\./.test(part) ? '(.+)' : /^\[/.test(part) ? '([^/?#]+)' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${source}$`);
}

export const ADMIN_ROUTES: readonly AdminRoute[] = scanAdminRoutes();
export const ADMIN_PAGES: readonly AdminRoute[] = ADMIN_ROUTES.filter((r) => r.kind === 'page');
