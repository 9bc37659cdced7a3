/**
 * `npm install` stays quiet on a machine's Node 20 (issue 20): npm prints only errors (.npmrc), and no
 * dependency's install script is left for npm to ask about: each one in the lock file is decided in
 * package.json's allowScripts (declined: their binaries come as packages).
 */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';

const read = (file: string) => fs.readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8');

describe('a quiet install', () => {
  it('every dependency with an install script is decided in allowScripts', () => {
    const lock = JSON.parse(read('package-lock.json')) as { packages: Record<string, { hasInstallScript?: boolean }> };
    const withScripts = [...new Set(Object.entries(lock.packages).filter(([, p]) => p.hasInstallScript).map(([key]) => key.split('node_modules/').at(-1)!))];
    expect(withScripts.length).toBeGreaterThan(0);
    const allowScripts = (JSON.parse(read('package.json')) as { allowScripts?: Record<string, boolean> }).allowScripts ?? {};
    expect(withScripts.filter((name) => !(name in allowScripts))).toEqual([]);
  });

  it('npm prints errors only, and the README says why', () => {
    expect(read('.npmrc')).toMatch(/^loglevel=error$/m);
    expect(read('README.md')).toContain('EBADENGINE');
  });
});
