/**
 * A control group of its own for the check's browser (cgroup v2), where the machine delegates one to this
 * server: the kernel then holds the browser's memory to the bound itself (memory.max, no swap, the whole
 * group killed together on running out) and ends every process in it at once (cgroup.kill), however many
 * it started. Elsewhere (cgroup v1, no delegation, root outside a delegated unit) there is none, and the
 * watchdog (watchdog-thread.ts) keeps the bound alone; it runs in both cases.
 *
 * Delegated means: the unified hierarchy at /sys/fs/cgroup, and the parent of this process's cgroup
 * writable by and owned by this process's user, not root, with the memory controller enabled for its
 * children. That is what systemd makes of `Delegate=memory pids` with `DelegateSubgroup=server`
 * (README, "Running as a service"): the server in `<unit>/server`, the browsers beside it.
 */
import fs from 'node:fs';
import path from 'node:path';

export interface CgroupHost {
  /** Where the unified hierarchy is mounted. */
  root: string;
  /** /proc/self/cgroup. */
  ownCgroups: string;
  uid: number;
}

const LIVE_HOST: () => CgroupHost = () => ({ root: '/sys/fs/cgroup', ownCgroups: fs.readFileSync('/proc/self/cgroup', 'utf8'), uid: process.getuid?.() ?? 0 });

const read = (file: string) => {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
};

/** The folder under which this process may make cgroups with a memory bound, or undefined. */
export function delegatedParent(host: CgroupHost): string | undefined {
  if (read(path.join(host.root, 'cgroup.controllers')) === undefined) return undefined; // not cgroup v2 (unified)
  const own = /^0::(\/.*)$/m.exec(host.ownCgroups)?.[1];
  if (!own || own === '/' || host.uid === 0) return undefined;
  const parent = path.join(host.root, path.posix.dirname(own));
  if (!(read(path.join(parent, 'cgroup.subtree_control')) ?? '').split(/\s+/).includes('memory')) return undefined;
  try {
    if (fs.statSync(parent).uid !== host.uid) return undefined;
    fs.accessSync(parent, fs.constants.W_OK);
  } catch {
    return undefined;
  }
  return parent;
}

export const BROWSER_CGROUP_PREFIX = 'site-check-';

export interface BrowserCgroup {
  dir: string;
  /** What a process writes its PID into to join (the browser's wrapper does, before it becomes the browser). */
  procsFile: string;
  /** The kernel killed in it for want of memory. */
  ranOutOfMemory(): boolean;
  /** SIGKILL to everything in it. */
  kill(): void;
  /** Removes it once it is empty (true), or leaves it (false) while processes are still in it. */
  remove(): boolean;
}

/** memory.events' "oom_kill N". */
export function oomKills(events: string | undefined): number {
  return Number(/^oom_kill (\d+)$/m.exec(events ?? '')?.[1] ?? 0);
}

export function openBrowserCgroup(dir: string): BrowserCgroup {
  return {
    dir,
    procsFile: path.join(dir, 'cgroup.procs'),
    ranOutOfMemory: () => oomKills(read(path.join(dir, 'memory.events'))) > 0,
    kill() {
      try {
        fs.writeFileSync(path.join(dir, 'cgroup.kill'), '1');
        return;
      } catch {
        // Before Linux 5.14: one by one.
      }
      for (const pid of (read(path.join(dir, 'cgroup.procs')) ?? '').split('\n').filter(Boolean)) {
        try {
          process.kill(Number(pid), 'SIGKILL');
        } catch {
          // gone
        }
      }
    },
    remove() {
      try {
        fs.rmdirSync(dir);
        return true;
      } catch (err) {
        return (err as NodeJS.ErrnoException).code === 'ENOENT';
      }
    },
  };
}

/** The browsers' cgroups there are now (profiles.ts removes those of check processes that are gone). */
export function browserCgroupDirs(host: CgroupHost = LIVE_HOST()): string[] {
  const parent = delegatedParent(host);
  if (!parent) return [];
  return fs
    .readdirSync(parent, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && entry.name.startsWith(BROWSER_CGROUP_PREFIX))
    .map((entry) => path.join(parent, entry.name));
}

/**
 * A new cgroup named `name` holding at most `memoryBytes` (no swap, killed as one), or undefined where
 * none can be made. `host` is for tests.
 */
export function createBrowserCgroup(name: string, memoryBytes: number, host: CgroupHost = LIVE_HOST()): BrowserCgroup | undefined {
  const parent = delegatedParent(host);
  if (!parent) return undefined;
  const dir = path.join(parent, name);
  try {
    fs.mkdirSync(dir);
    fs.writeFileSync(path.join(dir, 'memory.max'), String(memoryBytes));
    fs.writeFileSync(path.join(dir, 'memory.oom.group'), '1');
  } catch {
    try {
      fs.rmdirSync(dir);
    } catch {
      // never made
    }
    return undefined;
  }
  // Optional controls: swap may be off on the machine, pids not delegated.
  const optional: [string, string][] = [
    ['memory.swap.max', '0'],
    ['pids.max', '1000'],
  ];
  for (const [file, value] of optional) {
    try {
      if (fs.existsSync(path.join(dir, file))) fs.writeFileSync(path.join(dir, file), value);
    } catch {
      // left at the parent's
    }
  }
  return openBrowserCgroup(dir);
}
