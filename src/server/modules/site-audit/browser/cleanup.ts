/**
 * Ending a check's browser from outside it: its check process on the way out, or the server after a check
 * process that died without ending its browser (audit-process.ts). Loads nothing of the browser's driver,
 * so the server's own process can use it.
 */
import { logger } from '../../../logger';
import { openBrowserCgroup, type BrowserCgroup } from './cgroup';
import { groupMembers } from './processes';
import { killBrowserGroup, removeProfileDir } from './profiles';

/** What is needed to end a browser and clean up after it from outside its check process. */
export interface LiveBrowser {
  pid: number;
  profileDir: string;
  cgroupDir: string | undefined;
}

/** After the kill, how long the group's processes get to be gone before the folder is removed anyway. */
const GONE_WITHIN_MS = 3_000;

/**
 * Kills a browser's every process and removes its folder and cgroup, synchronously (exit handlers run
 * this). A cgroup still emptying is left for cleanUpAfter or the next start.
 */
export function endFromOutside({ pid, profileDir, cgroupDir }: LiveBrowser): void {
  killBrowserGroup(pid, profileDir);
  const cgroup = cgroupDir ? openBrowserCgroup(cgroupDir) : undefined;
  cgroup?.kill();
  try {
    removeProfileDir(profileDir);
  } catch (err) {
    logger.warn({ err, profileDir }, 'the website check’s browser profile could not be removed (it is removed at the next start)');
  }
  cgroup?.remove();
}

export async function waitUntilGone(pgid: number, cgroup: BrowserCgroup | undefined): Promise<void> {
  const until = Date.now() + GONE_WITHIN_MS;
  while (Date.now() < until && (groupMembers(pgid).length > 0 || (cgroup && !cgroup.remove()))) await new Promise((resolve) => setTimeout(resolve, 25));
}

/** endFromOutside, then waits for the processes to be gone and removes what they held on to. */
export async function cleanUpAfter(browser: LiveBrowser): Promise<void> {
  endFromOutside(browser);
  await waitUntilGone(browser.pid, browser.cgroupDir ? openBrowserCgroup(browser.cgroupDir) : undefined);
  endFromOutside(browser);
}

