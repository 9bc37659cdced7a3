/**
 * The website check's browser as a test sees it from outside, through /proc: its processes (whatever
 * version of the check started them: they are the Chromium processes with the check's proxy flags), the
 * memory they hold, their environment and user, and whether they are gone.
 */
import fs from 'node:fs';

export interface SeenProcess {
  pid: number;
  ppid: number;
  pgid: number;
  uid: number;
  cmdline: string;
}

const read = (file: string) => {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
};

const pids = () =>
  fs
    .readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map(Number);

/** After "pid (comm) ": state, ppid, pgrp … */
function statFields(pid: number): string[] | undefined {
  const stat = read(`/proc/${pid}/stat`);
  return stat?.slice(stat.lastIndexOf(')') + 2).split(' ');
}

/** Gone, or a zombie (dead; on machines whose init does not reap, orphans stay zombies). */
export function isGone(pid: number): boolean {
  const state = statFields(pid)?.[0];
  return state === undefined || state === 'Z' || state === 'X';
}

const ppidOf = (pid: number) => Number(statFields(pid)?.[1]);

/**
 * Every live process of a check's Chromium that `root` started: the browser (started with the check's
 * proxy flags) leads its process group, which holds its other processes; its parent is the check process,
 * whose parent is `root` (this test, or the stand-in server it started), or its parent is `root` itself
 * (a test that runs Lighthouse in its own process). Other test files may be running browsers of their own.
 */
export function checkBrowserProcesses(root = process.pid): SeenProcess[] {
  const all = pids()
    .filter((pid) => !isGone(pid))
    .map((pid) => ({ pid, ppid: ppidOf(pid), pgid: Number(statFields(pid)?.[2]), cmdline: (read(`/proc/${pid}/cmdline`) ?? '').split('\0').join(' ') }));
  const leaders = new Set(all.filter((process) => process.pid === process.pgid && process.cmdline.includes('--proxy-bypass-list=<-loopback>') && (process.ppid === root || ppidOf(process.ppid) === root)).map((process) => process.pid));
  return all
    .filter((process) => leaders.has(process.pgid))
    .map((process) => ({ ...process, uid: Number(/^Uid:\s+(\d+)/m.exec(read(`/proc/${process.pid}/status`) ?? '')?.[1]) }));
}

/**
 * The check's browser processes once Chromium itself runs (its first process and, soon after, its
 * renderers). Debian's /usr/bin/chromium is a shell script that runs `ls` and `tr` in a subshell before it
 * execs the browser: a look in those milliseconds (longer on a busy machine) saw three processes that were
 * about to end, so a Chromium child process (`--type=…`) must be among them.
 */
export async function waitForCheckBrowser(root = process.pid, timeoutMs = 30_000, atLeast = 3): Promise<SeenProcess[]> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const found = checkBrowserProcesses(root);
    if (found.length >= atLeast && found.some((process) => process.cmdline.includes(' --type='))) return found;
    if (Date.now() > until) throw new Error(`no browser of the check within ${timeoutMs} ms (found ${found.length} processes)`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Anonymous and shared memory of every process in group `pgid`, in bytes (what a page's script allocates). */
export function groupMemoryBytes(pgid: number): number {
  let kb = 0;
  for (const pid of pids()) {
    if (Number(statFields(pid)?.[2]) !== pgid || isGone(pid)) continue;
    const status = read(`/proc/${pid}/status`) ?? '';
    for (const field of ['RssAnon', 'RssShmem']) kb += Number(new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? 0);
  }
  return kb * 1024;
}

/**
 * Samples the memory of every check browser's process group every 50 ms until stopped, and gives the most
 * any group held at once.
 */
export function sampleBrowserMemory(root = process.pid): { stop(): number } {
  let peak = 0;
  const timer = setInterval(() => {
    for (const pgid of new Set(checkBrowserProcesses(root).map((process) => process.pgid))) peak = Math.max(peak, groupMemoryBytes(pgid));
  }, 50);
  return {
    stop() {
      clearInterval(timer);
      return peak;
    },
  };
}

/** The live processes whose command line names `text`. */
export function processesNaming(text: string): number[] {
  return pids().filter((pid) => !isGone(pid) && (read(`/proc/${pid}/cmdline`) ?? '').includes(text));
}

/** A process's environment, as NAME=value lines ("" when it cannot be read). */
export function environmentOf(pid: number): string {
  return (read(`/proc/${pid}/environ`) ?? '').split('\0').join('\n');
}

/** The check process that started a browser (its first process's parent). */
export const checkProcessOf = (browser: SeenProcess[]) => ppidOf(browser.find((process) => process.pid === process.pgid)!.pid);

/** The first process of the browser, which holds its environment as it was given (the others rewrite theirs). */
export const browserLeader = (browser: SeenProcess[]) => browser.find((process) => process.pid === process.pgid)!;

export const untilAllGone = (processes: { pid: number }[]) => () => processes.filter((process) => !isGone(process.pid)).map((process) => process.pid);

/** TCP ports the processes listen on (through /proc/net: sockets in their open files that are in LISTEN state). */
export function listeningPorts(processes: { pid: number }[]): number[] {
  const inodes = new Set<string>();
  for (const { pid } of processes) {
    let fds: string[] = [];
    try {
      fds = fs.readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue; // gone
    }
    for (const fd of fds) {
      try {
        const socket = /^socket:\[(\d+)\]$/.exec(fs.readlinkSync(`/proc/${pid}/fd/${fd}`))?.[1];
        if (socket) inodes.add(socket);
      } catch {
        // closed meanwhile
      }
    }
  }
  const ports: number[] = [];
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    for (const row of (read(table) ?? '').split('\n').slice(1)) {
      const [, local, , state, , , , , , inode] = row.trim().split(/\s+/);
      // state 0A: LISTEN
      if (state === '0A' && inode && inodes.has(inode)) ports.push(parseInt(local!.split(':')[1]!, 16));
    }
  }
  return ports;
}
