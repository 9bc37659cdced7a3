import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runNode, type ProcessResult } from '../support/run-process';

const root = path.resolve(import.meta.dirname, '../..');
const temp = fs.mkdtempSync(path.join(os.tmpdir(), 'content-cli-'));
afterAll(() => fs.rmSync(temp, { recursive: true, force: true }));

function runImport(file: string): Promise<ProcessResult> {
  return runNode(['--import', 'tsx', path.join(root, 'scripts', 'content-import.ts'), '--', file], {
    cwd: root,
    env: { ...process.env, DATA_DIR: path.join(temp, 'data'), DATABASE_URL: '', LOG_LEVEL: 'silent' },
  });
}

describe('npm run content:import', () => {
  it('exits 1 and lists every bad record by position and field', { timeout: 180_000 }, async () => {
    const file = path.join(temp, 'bad.json');
    fs.writeFileSync(
      file,
      JSON.stringify({
        format: 'agency-site-content',
        version: 1,
        services: [
          { id: 'ok', name: 'Fine' },
          { id: 'second', name: '', price: 'cheap' },
        ],
        packages: [{ id: 'p', name: 'P', includedServiceIds: ['ghost'] }],
      }),
    );
    const { code, stdout, stderr } = await runImport(file);
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toContain('services[1].name: must not be empty');
    expect(stderr).toContain('services[1].price: must be a number');
    expect(stderr).toContain('packages[0].includedServiceIds[0]: no service "ghost" in this file or in the database');
    expect(stderr).toContain(`Nothing was imported: 3 problems in ${file}.`);
  });

  it('exits 1 with one clear line for a missing file or invalid JSON', async () => {
    const missing = await runImport(path.join(temp, 'nope.json'));
    expect(missing.code).toBe(1);
    expect(missing.stderr.trim().split('\n').filter((l) => !l.startsWith('npm warn'))).toEqual([`Cannot read ${path.join(temp, 'nope.json')}: no such file`]);

    const broken = path.join(temp, 'broken.json');
    fs.writeFileSync(broken, '{"format": "agency-site-content",');
    const invalid = await runImport(broken);
    expect(invalid.code).toBe(1);
    expect(invalid.stderr).toMatch(new RegExp(`^${broken.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is not valid JSON: `));
  });
});
