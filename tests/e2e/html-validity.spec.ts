/**
 * Every public page, the auth pages and the error pages are valid HTML by the Nu HTML Checker (vnu, the
 * W3C validator). All pages go to ONE java run: starting the JVM is most of the cost.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from './support/fixtures';
import { allPublicPaths } from './support/public-pages';

// The vnu-jar package's main export is the path of vnu.jar (see its README).
const VNU_JAR = String(createRequire(import.meta.url)('vnu-jar'));

const MORE_PATHS = ['/auth', '/auth?tab=signup', '/auth/reset-password', '/auth/error?error=INVALID_TOKEN', '/claim-admin?token=x', '/this-page-does-not-exist', '/articles?page=abc'];

interface VnuMessage {
  type: string;
  subType?: string;
  url?: string;
  firstLine?: number;
  lastLine?: number;
  message: string;
  extract?: string;
}

/** One java run over all files; the JSON report comes on stderr. */
function checkHtml(files: string[]): VnuMessage[] {
  const run = spawnSync('java', ['-jar', VNU_JAR, '--errors-only', '--format', 'json', ...files], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (run.error) throw new Error(`could not run java (Debian: apt-get install default-jre-headless): ${run.error.message}`);
  try {
    return (JSON.parse(run.stderr) as { messages: VnuMessage[] }).messages;
  } catch {
    throw new Error(`vnu gave no JSON report (exit ${run.status}): ${run.stderr.slice(0, 2000)}`);
  }
}

test('every public page passes the Nu HTML Checker (errors only)', async ({ request }) => {
  test.setTimeout(120_000);
  const publicPaths = await allPublicPaths(request);
  expect(publicPaths.length).toBeGreaterThan(10);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'html-validity-'));
  try {
    const pathOfFile = new Map<string, string>();
    for (const [i, pagePath] of [...publicPaths, ...MORE_PATHS].entries()) {
      const res = await request.get(pagePath);
      expect(res.headers()['content-type'], pagePath).toContain('text/html');
      const file = path.join(dir, `${String(i).padStart(3, '0')}${pagePath.replace(/[^a-z0-9]+/gi, '-')}.html`);
      fs.writeFileSync(file, await res.body());
      pathOfFile.set(file, pagePath);
    }

    // vnu names files as file: URLs.
    const pagePathOf = (url = '') => pathOfFile.get(url.startsWith('file:') ? new URL(url).pathname : url) ?? url;
    const errors = checkHtml([...pathOfFile.keys()])
      .filter((m) => m.type !== 'info')
      .map((m) => `${pagePathOf(m.url)}:${m.lastLine ?? '?'}: ${m.message}${m.extract ? ` — ${m.extract.trim()}` : ''}`);
    expect(errors, errors.join('\n')).toEqual([]);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
