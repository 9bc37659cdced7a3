/**
 * Exclusive lock on the PGlite data folder. PGlite is single-process: a second process opening the same
 * folder corrupts it, so every process that opens it (server, migrate, CLI scripts) takes this lock first.
 *
 * The lock file names its owner as JSON: `{"pid":1234,"startTime":5678}`. A PID alone is not enough —
 * after a crash or reboot the PID may belong to some other program, which would block start-up forever —
 * so the lock also records when the owner started (Linux: field 22 of /proc/<pid>/stat). The lock is held
 * only while that PID is alive with that start time; without /proc, a live PID counts as the holder.
 */
import fs from 'node:fs';
import path from 'node:path';
import { OWNER_ONLY_DIR, OWNER_ONLY_FILE } from '../data-dir';

export class DataDirLockedError extends Error {
  constructor(
    readonly dataDir: string,
    readonly pid: number,
  ) {
    super(
      `The data folder ${dataDir} is in use by another process (PID ${pid}). ` +
        'Only one process may open the embedded database at a time: stop the other server or script first, ' +
        'or point DATA_DIR at another folder.',
    );
  }
}

interface LockOwner {
  pid: number;
  /** Absent in lock files written as a bare PID (before start times were recorded) or without /proc. */
  startTime?: number;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** /proc/<pid>/<name>, or undefined where there is no /proc (or it hides the process). */
function readProc(pid: number, name: string): string | undefined {
  try {
    return fs.readFileSync(`/proc/${pid}/${name}`, 'utf8');
  } catch {
    return undefined;
  }
}

/** When the process started, in clock ticks after boot: field 22 of /proc/<pid>/stat. */
function startTimeOf(pid: number): number | undefined {
  const stat = readProc(pid, 'stat');
  if (stat === undefined) return undefined;
  // Field 2, the command name, is in parentheses and may itself hold spaces and parentheses: count the
  // fields after its closing parenthesis, where field 3 begins.
  const field = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[22 - 3];
  return field === undefined ? undefined : Number(field);
}

/** Every process that takes this lock is Node (server, migrate, CLI scripts through tsx). */
function looksLikeNode(pid: number): boolean | undefined {
  const cmdline = readProc(pid, 'cmdline');
  return cmdline === undefined ? undefined : /node/i.test(path.basename(cmdline.split('\0')[0] ?? ''));
}

function isHeld(owner: LockOwner): boolean {
  if (owner.pid === process.pid || !isAlive(owner.pid)) return false;
  if (owner.startTime === undefined) return looksLikeNode(owner.pid) ?? true;
  const startTime = startTimeOf(owner.pid);
  return startTime === undefined || startTime === owner.startTime;
}

/** The owner named in a lock file; undefined when it is gone or unreadable (then it is stale). */
function readOwner(lockPath: string): LockOwner | undefined {
  let text: string;
  try {
    text = fs.readFileSync(lockPath, 'utf8').trim();
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
  if (/^\d+$/.test(text)) return { pid: Number(text) };
  try {
    const { pid, startTime } = JSON.parse(text) as Partial<LockOwner>;
    if (Number.isInteger(pid)) return { pid: pid!, ...(Number.isInteger(startTime) ? { startTime } : {}) };
  } catch {
    /* not ours or half-written: stale */
  }
  return undefined;
}

export interface DataDirLock {
  release(): void;
}

export function acquireDataDirLock(dataDir: string): DataDirLock {
  fs.mkdirSync(dataDir, { recursive: true, mode: OWNER_ONLY_DIR });
  const lockPath = path.join(dataDir, 'db.lock');
  const me: LockOwner = { pid: process.pid, startTime: startTimeOf(process.pid) };
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(lockPath, JSON.stringify(me), { flag: 'wx', mode: OWNER_ONLY_FILE });
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        try {
          if (readOwner(lockPath)?.pid === process.pid) fs.rmSync(lockPath, { force: true });
        } catch {
          /* unreadable: left behind, the next start finds its owner gone */
        }
      };
      process.once('exit', release);
      return { release };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      const owner = readOwner(lockPath);
      if (owner && isHeld(owner)) throw new DataDirLockedError(dataDir, owner.pid);
      fs.rmSync(lockPath, { force: true }); // stale: its owner died without releasing it, or its PID was reused
    }
  }
  throw new Error(`Could not lock the data folder ${dataDir}`);
}
