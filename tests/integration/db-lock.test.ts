import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { acquireDataDirLock, DataDirLockedError } from '../../src/server/db/lock';

const dirs: string[] = [];
const tempDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lock-test-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => dirs.splice(0).forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

describe('data folder lock', () => {
  it('refuses a second holder while a live process holds the lock, naming the folder and PID', async () => {
    const dir = tempDir();
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 20000)']);
    fs.writeFileSync(path.join(dir, 'db.lock'), String(child.pid));
    try {
      expect(() => acquireDataDirLock(dir)).toThrow(DataDirLockedError);
      expect(() => acquireDataDirLock(dir)).toThrow(new RegExp(`in use by another process \\(PID ${child.pid}\\)`));
    } finally {
      child.kill();
    }
  });

  it('takes over a stale lock left by a process that died', () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'db.lock'), '999999999');
    const lock = acquireDataDirLock(dir);
    expect(fs.readFileSync(path.join(dir, 'db.lock'), 'utf8')).toBe(String(process.pid));
    lock.release();
    expect(fs.existsSync(path.join(dir, 'db.lock'))).toBe(false);
  });
});
