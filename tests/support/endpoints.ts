/**
 * Every Astro Action and every server endpoint of the site, found at import time, so a new Action or API
 * route is covered by the specs that use this list (the fuzz spec, the admin authorization matrix) without
 * editing them. Plain Node on purpose (no 'astro:*' imports): Playwright specs import it.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../..');
const PAGES_DIR = path.join(ROOT, 'src/pages');
const AUTH_SERVER_DIR = path.join(ROOT, 'src/server/auth');

// ---- Actions ---------------------------------------------------------------------------------------

/**
 * 'account.updateProfile', 'admin.services.update', … sorted: the names `/_actions/<name>` and
 * `?_action=<name>` take. Read from the real `server` object of src/actions, imported in a child Node
 * process where 'astro:actions' is a stub (support/register-astro-stub.mjs): nested groups and Actions made
 * by factories are found like any other.
 */
export function listActionNames(): string[] {
  const run = spawnSync(process.execPath, ['--import', 'tsx', '--import', path.join(ROOT, 'tests/support/register-astro-stub.mjs'), path.join(ROOT, 'tests/support/list-actions.ts')], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, LOG_LEVEL: 'silent' },
    timeout: 60_000,
  });
  if (run.status !== 0) throw new Error(`listing the Actions failed: ${run.stderr || run.error?.message}`);
  return JSON.parse(run.stdout) as string[];
}

// ---- Endpoints (src/pages/**/*.ts) -----------------------------------------------------------------

/**
 * better-auth answers everything under its catch-all route. A representative list of its endpoints,
 * including ones this site disables or never calls (they must refuse cleanly too) and paths it does not
 * have at all. Our own plugin endpoints (createAuthEndpoint in src/server/auth) are added by the scan.
 */
export const BETTER_AUTH_PATHS = [
  '/sign-in/email',
  '/sign-in/social',
  '/sign-up/email',
  '/sign-out',
  '/get-session',
  '/list-sessions',
  '/revoke-session',
  '/revoke-sessions',
  '/revoke-other-sessions',
  '/update-session',
  '/request-password-reset',
  '/reset-password',
  '/reset-password/fuzz-token',
  '/verify-email',
  '/send-verification-email',
  '/change-password',
  '/verify-password',
  '/update-user',
  '/change-email',
  '/delete-user',
  '/delete-user/callback',
  '/list-accounts',
  '/account-info',
  '/link-social',
  '/unlink-account',
  '/get-access-token',
  '/refresh-token',
  '/callback/fuzz',
  '/admin/set-role',
  '/admin/list-users',
  '/admin/get-user',
  '/admin/create-user',
  '/admin/ban-user',
  '/admin/impersonate-user',
  '/admin/has-permission',
  '/error',
  '/ok',
  '/unknown-thing',
] as const;

/** Paths of better-auth endpoints this project adds itself (e.g. '/account/change-password'). */
export function scanOwnAuthPaths(dir = AUTH_SERVER_DIR): string[] {
  const paths = new Set<string>();
  for (const file of fs.readdirSync(dir).filter((f) => /\.(ts|js)$/.test(f))) {
    const source = fs.readFileSync(path.join(dir, file), 'utf8');
    for (const m of source.matchAll(/createAuthEndpoint\(\s*['"`](\/[^'"`]+)['"`]/g)) paths.add(m[1]!.replace(/:\w+/g, 'fuzz'));
  }
  return [...paths].sort();
}

export interface EndpointRoute {
  /** A concrete path to request: parameters filled with a sample value. */
  path: string;
  /** The source file, relative to the repository (for messages). */
  file: string;
  /** The HTTP methods the file exports a handler for ('ALL' stands for every method). */
  methods: string[];
}

const HTTP_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'ALL'] as const;

/** `export const GET`, `export async function POST`, `export { handler as PUT }`: the methods a route answers. */
export function exportedMethods(source: string): string[] {
  const found = new Set<string>();
  for (const m of source.matchAll(/export\s+(?:const|let|var|(?:async\s+)?function)\s+([A-Z]+)\b/g)) found.add(m[1]!);
  for (const m of source.matchAll(/export\s*\{([^}]*)\}/g)) {
    for (const part of m[1]!.split(',')) {
      const name = part.trim().split(/\s+as\s+/).pop()?.trim();
      if (name) found.add(name);
    }
  }
  return HTTP_METHODS.filter((method) => found.has(method));
}

/** Files under src/pages that are endpoints (not .astro pages), relative to src/pages. */
function endpointFiles(dir = PAGES_DIR, prefix = ''): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) return endpointFiles(path.join(dir, entry.name), rel);
    return /\.(ts|js|mts|mjs)$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [rel] : [];
  });
}

/** The better-auth catch-all is the one whose file hands the request to our auth handler. */
const isBetterAuthMount = (source: string) => /handleAuthRequest|\.handler\(\s*request/.test(source);

/**
 * 'api/prices.ts' → ['/api/prices']; 'media/[file].ts' → ['/media/fuzz-param']; 'robots.txt.ts' →
 * ['/robots.txt']; 'api/auth/[...all].ts' (better-auth) → every better-auth path under /api/auth.
 */
function routesOf(relFile: string): string[] {
  const source = fs.readFileSync(path.join(PAGES_DIR, relFile), 'utf8');
  const segments = relFile.replace(/\.(ts|js|mts|mjs)$/, '').split('/');
  if (segments.at(-1) === 'index') segments.pop();
  const rest = segments.findIndex((s) => /^\[\.\.\.\w+\]$/.test(s));
  const fill = (segs: string[]) => '/' + segs.map((s) => s.replace(/^\[\w+\]$/, 'fuzz-param')).join('/');
  if (rest === -1) return [fill(segments)];
  const base = fill(segments.slice(0, rest)).replace(/\/$/, '');
  const tails = isBetterAuthMount(source) ? [...new Set([...BETTER_AUTH_PATHS, ...scanOwnAuthPaths()])] : ['', '/fuzz', '/fuzz/rest'];
  return tails.map((tail) => base + tail);
}

/** Every endpoint route of src/pages, with the file it comes from and the methods it exports. */
export function scanEndpointRoutes(): EndpointRoute[] {
  return endpointFiles()
    .sort()
    .flatMap((file) => {
      const methods = exportedMethods(fs.readFileSync(path.join(PAGES_DIR, file), 'utf8'));
      return routesOf(file).map((p) => ({ path: p, file: `src/pages/${file}`, methods }));
    });
}

export const ACTION_NAMES: readonly string[] = listActionNames();
export const ENDPOINT_ROUTES: readonly EndpointRoute[] = scanEndpointRoutes();
/** Routes under /api: the site's API, better-auth included. */
export const API_ROUTES: readonly string[] = ENDPOINT_ROUTES.filter((r) => r.path.startsWith('/api/')).map((r) => r.path);
/** Other endpoints (health checks, media, sitemap, robots.txt): not an API, still server code that parses requests. */
export const OTHER_ENDPOINTS: readonly string[] = ENDPOINT_ROUTES.filter((r) => !r.path.startsWith('/api/')).map((r) => r.path);
/** The admin's API (/api/admin/…): a verified admin only, whatever the method. */
export const ADMIN_API_ROUTES: readonly EndpointRoute[] = ENDPOINT_ROUTES.filter((r) => /^\/api\/admin(\/|$)/.test(r.path));
