/**
 * The check's browser as the kernel sees it, read from /proc (Linux): the processes of its process group
 * (Chromium's zygotes, renderers and utility processes stay in the group its first process leads), the
 * memory they hold of their own and the processor time they used. Reading another user's /proc/PID/stat
 * and status is allowed, so this works when the browser runs as an unprivileged user of its own.
 */
import fs from 'node:fs';

/** /proc reports processor time in clock ticks of 1/100 s (USER_HZ, the same on every Linux). */
const TICK_MS = 10;

export interface ProcessStat {
  pid: number;
  ppid: number;
  pgid: number;
  /** R, S, D, Z (a zombie: dead, its parent has not collected it) … */
  state: string;
  /** User and system time, in ms. */
  cpuMs: number;
  /** Clock ticks since boot at which it started: with the PID, names one process across PID reuse. */
  startTicks: number;
}

/** Fields after "pid (comm) ": the name may hold spaces and parentheses, so split after its last ")". */
export function parseStat(pid: number, text: string): ProcessStat | undefined {
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  if (fields.length < 20) return undefined;
  // proc(5): state is field 3; ppid 4, pgrp 5; utime 14, stime 15; starttime 22 (fields[0] is field 3).
  return {
    pid,
    state: fields[0]!,
    ppid: Number(fields[1]),
    pgid: Number(fields[2]),
    cpuMs: (Number(fields[11]) + Number(fields[12])) * TICK_MS,
    startTicks: Number(fields[19]),
  };
}

export function readStat(pid: number): ProcessStat | undefined {
  try {
    return parseStat(pid, fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return undefined; // gone
  }
}

/** A process that exists and has not died (a zombie's memory is freed already). */
export function isRunning(pid: number): boolean {
  const stat = readStat(pid);
  return stat !== undefined && stat.state !== 'Z' && stat.state !== 'X';
}

export function allPids(): number[] {
  return fs
    .readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map(Number);
}

/** The running processes of process group `pgid`. */
export function groupMembers(pgid: number): ProcessStat[] {
  const members: ProcessStat[] = [];
  for (const pid of allPids()) {
    const stat = readStat(pid);
    if (stat?.pgid === pgid && stat.state !== 'Z' && stat.state !== 'X') members.push(stat);
  }
  return members;
}

/**
 * The memory a process holds of its own, in bytes: anonymous pages (what a page's script allocates) and
 * shared memory (what renderers hand the browser process). Not its mapped files: every Chromium process
 * maps the same program, and counting it in each would count a few hundred MB many times over.
 */
export function parseOwnMemory(status: string): number {
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0);
  return (kb('RssAnon') + kb('RssShmem')) * 1024;
}

export function ownMemoryBytes(pid: number): number {
  try {
    return parseOwnMemory(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  } catch {
    return 0; // gone
  }
}

/** The whole command line, arguments separated by spaces ("" for a process that is gone). */
export function commandLine(pid: number): string {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
  } catch {
    return '';
  }
}

/** SIGKILL to every process of the group; false when none was left. */
export function killGroup(pgid: number): boolean {
  // kill(-1) would be every process this user may signal; 0 this process's own group.
  if (!Number.isInteger(pgid) || pgid <= 1) return false;
  try {
    process.kill(-pgid, 'SIGKILL');
    return true;
  } catch {
    return false;
  }
}
