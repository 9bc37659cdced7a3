/**
 * Puts this process on CPU time nothing else wants (SCHED_IDLE, decision 051): a process at normal priority
 * waking (the server with a visitor's request) takes the core at once, where a lower nice value alone still
 * lets this one finish its time slice first. Needs `chrt` (util-linux, on every Debian); without it the
 * process keeps whatever nice value it was given.
 */
import { execFileSync } from 'node:child_process';

export function runOnIdleCpuOnly(): void {
  try {
    execFileSync('chrt', ['--idle', '--pid', '0', String(process.pid)], { stdio: 'ignore' });
  } catch {
    // no chrt: the nice value stands
  }
}
