/**
 * Every Astro Action and every server endpoint of the site, read from the sources at import time, so a new
 * Action or API route is covered by the specs that use this list (the fuzz spec) without editing them.
 *
 * Plain Node on purpose (no 'astro:*' imports): Playwright specs import it. The Action scan is checked
 * against the real `server` object of src/actions by tests/unit/endpoints-list.test.ts, so it cannot drift.
 */
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../..');
const ACTIONS_DIR = path.join(ROOT, 'src/actions');
const PAGES_DIR = path.join(ROOT, 'src/pages');
const AUTH_SERVER_DIR = path.join(ROOT, 'src/server/auth');

// ---- Actions ---------------------------------------------------------------------------------------

/** `import { a, b as c } from './file'` → { a: 'file.ts', c: 'file.ts' } (relative imports only). */
function localImports(source: string, dir: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const [, names, from] of source.matchAll(/import\s*\{([^}]*)\}\s*from\s*['"](\.{1,2}\/[^'"]+)['"]/g)) {
    const file = resolveModule(path.resolve(dir, from!));
    for (const name of names!.split(',').map((n) => n.trim()).filter(Boolean)) {
      const local = name.split(/\s+as\s+/).pop()!.trim();
      if (file) found.set(local, file);
    }
  }
  return found;
}

function resolveModule(base: string): string | undefined {
  const candidates = [base, ...['.ts', '.js', '.mts', '.mjs'].map((ext) => base.replace(/\.(js|mjs)$/, '') + ext), path.join(base, 'index.ts')];
  return candidates.find((file) => fs.existsSync(file) && fs.statSync(file).isFile());
}

/** The keys of `export const server = { account, users: userActions }` → [['account', 'account'], ['users', 'userActions']]. */
function serverEntries(indexSource: string): Array<[key: string, local: string]> {
  const body = /export\s+const\s+server\s*=\s*\{([^}]*)\}/.exec(indexSource)?.[1];
  if (body === undefined) throw new Error('src/actions/index.ts: no `export const server = { ... }` found (update tests/support/endpoints.ts)');
  return body
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => {
      const [key, local = key] = entry.split(':').map((part) => part.trim());
      if (!/^\w+$/.test(key!) || !/^\w+$/.test(local!)) throw new Error(`src/actions/index.ts: cannot read the server entry "${entry}"`);
      return [key!, local!];
    });
}

/** The `name: defineAction(` keys inside `export const <domain> = { ... }` (up to the next top-level export). */
function actionKeys(source: string, domain: string, file: string): string[] {
  const start = new RegExp(`export\\s+const\\s+${domain}\\s*=\\s*\\{`).exec(source);
  if (!start) throw new Error(`${path.relative(ROOT, file)}: no \`export const ${domain} = {\` found`);
  const rest = source.slice(start.index + start[0].length);
  const end = rest.search(/\nexport\s/);
  const block = end === -1 ? rest : rest.slice(0, end);
  return [...block.matchAll(/(\w+)\s*:\s*defineAction\s*\(/g)].map((m) => m[1]!);
}

/** 'account.updateProfile', 'users.promote', … sorted: the names `/_actions/<name>` and `?_action=<name>` take. */
export function scanActionNames(actionsDir = ACTIONS_DIR): string[] {
  const indexFile = path.join(actionsDir, 'index.ts');
  const indexSource = fs.readFileSync(indexFile, 'utf8');
  const imports = localImports(indexSource, actionsDir);
  const names: string[] = [];
  for (const [key, local] of serverEntries(indexSource)) {
    const file = imports.get(local) ?? indexFile;
    for (const action of actionKeys(fs.readFileSync(file, 'utf8'), local, file)) names.push(`${key}.${action}`);
  }
  return names.sort();
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

/** Every endpoint route of src/pages, with the file it comes from. */
export function scanEndpointRoutes(): EndpointRoute[] {
  return endpointFiles()
    .sort()
    .flatMap((file) => routesOf(file).map((p) => ({ path: p, file: `src/pages/${file}` })));
}

export const ACTION_NAMES: readonly string[] = scanActionNames();
export const ENDPOINT_ROUTES: readonly EndpointRoute[] = scanEndpointRoutes();
/** Routes under /api: the site's API, better-auth included. */
export const API_ROUTES: readonly string[] = ENDPOINT_ROUTES.filter((r) => r.path.startsWith('/api/')).map((r) => r.path);
/** Other endpoints (health checks, media, sitemap, robots.txt): not an API, still server code that parses requests. */
export const OTHER_ENDPOINTS: readonly string[] = ENDPOINT_ROUTES.filter((r) => !r.path.startsWith('/api/')).map((r) => r.path);
