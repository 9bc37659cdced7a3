import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { acquireDataDirLock, DataDirLockedError } from '../../src/server/db/lock';

const root = path.resolve(import.meta.dirname, '../..');
const dirs: string[] = [];
const tempDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lock-test-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => dirs.splice(0).forEach((d) => fs.rmSync(d, { recursive: true, force: true })));
const lockOwnerPid = (dir: string) => (JSON.parse(fs.readFileSync(path.join(dir, 'db.lock'), 'utf8')) as { pid: number }).pid;

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
    expect(lockOwnerPid(dir)).toBe(process.pid);
    lock.release();
    expect(fs.existsSync(path.join(dir, 'db.lock'))).toBe(false);
  });

  it('takes over a lock whose PID now belongs to an unrelated program', async () => {
    const dir = tempDir();
    const other = spawn('sleep', ['30']);
    try {
      await new Promise((resolve) => other.once('spawn', resolve));
      // An old-format lock (a bare PID) and a current one whose start time is not that process's.
      for (const content of [String(other.pid), JSON.stringify({ pid: other.pid, startTime: 1 })]) {
        fs.writeFileSync(path.join(dir, 'db.lock'), content);
        const lock = acquireDataDirLock(dir);
        expect(lockOwnerPid(dir)).toBe(process.pid);
        lock.release();
      }
    } finally {
      other.kill();
    }
  });

  it('refuses the lock while another process of ours holds it', { timeout: 60_000 }, async () => {
    const dir = tempDir();
    const holder = spawn(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', `
        import { acquireDataDirLock } from ${JSON.stringify(path.join(root, 'src/server/db/lock.ts'))};
        acquireDataDirLock(${JSON.stringify(dir)});
        console.log('locked');
        setTimeout(() => {}, 30_000);`],
      { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    try {
      await new Promise<void>((resolve, reject) => {
        holder.stdout.on('data', (d: Buffer) => d.toString().includes('locked') && resolve());
        holder.once('exit', (code) => reject(new Error(`the lock holder exited with ${code}`)));
      });
      expect(() => acquireDataDirLock(dir)).toThrow(DataDirLockedError);
      expect(() => acquireDataDirLock(dir)).toThrow(
        `The data folder ${dir} is in use by another process (PID ${holder.pid}). Only one process may open the embedded database at a time`,
      );
    } finally {
      holder.kill();
    }
  });
});
