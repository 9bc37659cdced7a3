import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

// Session and reset tokens sit in PGlite's write-ahead log: everything under DATA_DIR must be owner-only,
// whatever the umask of the shell that started the program. These run the real migrate step (a fresh
// PGlite database) in a child process started under `umask 000`, the worst case.
const root = path.resolve(import.meta.dirname, '../..');
const temp = fs.mkdtempSync(path.join(os.tmpdir(), 'data-dir-modes-'));
const dataDir = path.join(temp, 'data');
afterAll(() => fs.rmSync(temp, { recursive: true, force: true }));

function migrateUnderUmask000(): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const command = `umask 000; exec "${process.execPath}" --import tsx scripts/migrate.ts`;
    const child = spawn('sh', ['-c', command], {
      cwd: root,
      env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'silent', SEED_DEMO_CONTENT: 'false' },
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

/** Every entry under dir (itself included) whose mode is not owner-only, as "0755 dir pgdata/base". */
function looseEntries(dir: string): string[] {
  const loose: string[] = [];
  const visit = (p: string) => {
    const stat = fs.lstatSync(p);
    if (stat.isSymbolicLink()) return;
    const mode = stat.mode & 0o777;
    const want = stat.isDirectory() ? 0o700 : 0o600;
    if (mode !== want) loose.push(`${mode.toString(8).padStart(4, '0')} ${stat.isDirectory() ? 'dir' : 'file'} ${path.relative(dir, p) || '.'}`);
    if (stat.isDirectory()) for (const name of fs.readdirSync(p)) visit(path.join(p, name));
  };
  visit(dir);
  return loose;
}

describe('data folder permissions', () => {
  it('creates a new embedded database owner-only (dirs 0700, files 0600) under umask 000', { timeout: 300_000 }, async () => {
    const { code, stderr } = await migrateUnderUmask000();
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(fs.existsSync(path.join(dataDir, 'pgdata'))).toBe(true);
    expect(looseEntries(dataDir)).toEqual([]);
  });

  it('tightens an existing data folder with 0755/0644 entries when it is opened, without following links', { timeout: 300_000 }, async () => {
    // Loosen what the first run left (or make it, when that run failed), as an old install would have it.
    fs.mkdirSync(path.join(dataDir, 'outbox'), { recursive: true });
    fs.writeFileSync(path.join(dataDir, 'outbox', 'old.eml'), 'Subject: sign-in link\r\n');
    fs.writeFileSync(path.join(dataDir, 'auth-secret'), `${'s'.repeat(48)}\n`);
    const loosen = (p: string) => {
      const stat = fs.lstatSync(p);
      if (stat.isSymbolicLink()) return;
      fs.chmodSync(p, stat.isDirectory() ? 0o755 : 0o644);
      if (stat.isDirectory()) for (const name of fs.readdirSync(p)) loosen(path.join(p, name));
    };
    loosen(dataDir);
    // A link inside the folder to a file outside it: the walk must leave the target alone.
    const outside = path.join(temp, 'outside.txt');
    fs.writeFileSync(outside, 'not ours');
    fs.chmodSync(outside, 0o644);
    fs.symlinkSync(outside, path.join(dataDir, 'link-to-outside'));
    expect(looseEntries(dataDir).length).toBeGreaterThan(3);

    const { code, stderr } = await migrateUnderUmask000();
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(looseEntries(dataDir)).toEqual([]);
    expect(fs.statSync(outside).mode & 0o777).toBe(0o644);
  });
});
