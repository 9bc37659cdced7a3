/**
 * The check browsers' profile folders, and what earlier runs left behind. Each browser gets a fresh folder
 * under one root in the temporary folder, named after the check process that started it (PID and start
 * time, which together name one process across PID reuse): a folder, or a browser started with one, whose
 * check process is no longer running is a leftover. The server removes leftovers when it starts (a browser
 * of an older version, one that survived a crash of everything); the folder of a browser that ended with
 * its check is removed right away.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BROWSER_CGROUP_PREFIX, browserCgroupDirs, openBrowserCgroup } from './cgroup';
import { allPids, commandLine, isRunning, killGroup, readStat } from './processes';

const ROOT_NAME = 'site-check-browsers';

export function profileRoot(tmpDir = os.tmpdir()): string {
  return path.join(tmpDir, ROOT_NAME);
}

/**
 * The root, made if missing: this process's user's own, not a link, writable by no one else. In a shared
 * /tmp anyone may have made the name first, to plant links in it; then there is no browser.
 */
export function ensureProfileRoot(root = profileRoot()): string {
  try {
    fs.mkdirSync(root, { mode: 0o711 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  const stat = fs.lstatSync(root);
  if (!stat.isDirectory() || stat.uid !== process.getuid?.() || (stat.mode & 0o022) !== 0) {
    throw new Error(`${root} is not this server's own folder; the browser was not started`);
  }
  // Passable (not readable) by the browser's user, whatever the umask made it (the service's is 0077).
  fs.chmodSync(root, 0o711);
  return root;
}

/** "<pid>.<start ticks>" of the process that starts browsers. */
function ownerTag(pid = process.pid): string {
  return `${pid}.${readStat(pid)?.startTicks ?? 0}`;
}

/** The owner a profile folder's name records, and whether it is still running. */
function ownerRunning(name: string): boolean {
  const match = /^(\d+)\.(\d+)-/.exec(name);
  if (!match) return false;
  const pid = Number(match[1]);
  return isRunning(pid) && readStat(pid)?.startTicks === Number(match[2]);
}

/** A new empty profile folder, owner-only, handed to `owner` (the unprivileged user the browser runs as). */
export function makeProfileDir(root: string, owner?: { uid: number; gid: number }): string {
  const dir = path.join(root, `${ownerTag()}-${crypto.randomBytes(6).toString('hex')}`);
  fs.mkdirSync(dir, { mode: 0o700 });
  if (owner) fs.chownSync(dir, owner.uid, owner.gid);
  return dir;
}

/** The browser's cgroup (cgroup.ts) is named after its profile folder, and so after its check process too. */
export const cgroupName = (profileDir: string) => `${BROWSER_CGROUP_PREFIX}${path.basename(profileDir)}`;

export function removeProfileDir(dir: string): void {
  // A killed browser's last processes may still be closing files for a moment.
  fs.rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
}

/**
 * The profile folder a process of one of our browsers names on its command line: the browser's own
 * processes as --user-data-dir, its crash handler (which leaves the group) in its --database.
 */
function profileOf(pid: number, root: string): string | undefined {
  const escaped = root.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`=(${escaped}/[^ /]+)`).exec(commandLine(pid))?.[1];
}

/**
 * Kills the process group of the browser started with `profileDir` as `pid`: while the group lives its
 * number is not given to another process, so a group whose leader has died is still that browser's; a
 * running leader must show the profile folder, or the number has gone to someone else.
 */
export function killBrowserGroup(pid: number, profileDir: string): void {
  if (isRunning(pid) && !commandLine(pid).includes(`--user-data-dir=${profileDir}`)) return;
  killGroup(pid);
}

/** What removeLeftovers found and ended. */
export interface Leftovers {
  browsers: number;
  profiles: number;
  cgroups: number;
}

/**
 * Ends the browsers whose check process is gone (every process of their group, or of their cgroup) and
 * removes the profile folders and cgroups of check processes that are gone.
 */
export function removeLeftovers(root = profileRoot()): Leftovers {
  const found: Leftovers = { browsers: 0, profiles: 0, cgroups: 0 };
  for (const dir of browserCgroupDirs()) {
    if (ownerRunning(path.basename(dir).slice(BROWSER_CGROUP_PREFIX.length))) continue;
    const cgroup = openBrowserCgroup(dir);
    cgroup.kill();
    if (cgroup.remove()) found.cgroups++;
  }
  if (!fs.existsSync(root)) return found;
  const groups = new Set<number>();
  for (const pid of allPids()) {
    const profile = profileOf(pid, root);
    if (profile && !ownerRunning(path.basename(profile))) groups.add(readStat(pid)?.pgid ?? pid);
  }
  // A browser leads its own group (it was started detached): the group takes all its processes. Never this
  // process's own group, whatever a command line in it says.
  groups.delete(readStat(process.pid)?.pgid ?? 0);
  for (const pgid of groups) if (killGroup(pgid)) found.browsers++;
  for (const name of fs.readdirSync(root)) {
    if (ownerRunning(name)) continue;
    removeProfileDir(path.join(root, name));
    found.profiles++;
  }
  return found;
}
