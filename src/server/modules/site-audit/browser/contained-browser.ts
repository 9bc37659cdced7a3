/**
 * Starts the website check's Chromium in its box (decision 056) and ends it:
 * - its own process group, led by the browser, so one kill takes every process it started; and a cgroup
 *   of its own with a kernel memory bound where the machine delegates one (cgroup.ts);
 * - a watchdog thread holding the group to its bounds of memory, processor time and time (watchdog.ts);
 * - a minimal environment (environment.ts), a fresh profile folder of its own, an unprivileged user when
 *   the server is root, no way to more privileges (setpriv's no_new_privs), and the sandbox where the
 *   kernel allows it (user.ts);
 * - the DevTools protocol over a pipe, never a port (pipe-transport.ts);
 * - death with its check process: the kernel kills the browser when the process that started it dies
 *   (setpriv's parent-death signal), that process kills every browser it has on its way out (exit,
 *   disconnect from the server, SIGTERM: worker.ts), and the server kills the group of a check process
 *   that died without doing so (audit-process.ts); leftovers of any other end are removed at start-up
 *   (profiles.ts). The browser is the first the kernel kills when memory runs out (oom_score_adj 1000).
 *
 * Needs Linux, `sh` and `setpriv` (util-linux, on every Debian; config.ts checks for it).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { Launcher } from 'chrome-launcher';
import type { BrowserBounds, BrowserStop } from './bounds';
import { createBrowserCgroup } from './cgroup';
import { endFromOutside, waitUntilGone, type LiveBrowser } from './cleanup';
import { browserEnv } from './environment';
import { PipeTransport } from './pipe-transport';
import { killGroup } from './processes';
import { cgroupName, ensureProfileRoot, makeProfileDir, removeProfileDir } from './profiles';
import { browserUser, dropTo, runsAsRoot, sandboxAvailable } from './user';
import { watchBrowser, type Watchdog } from './watchdog';

export interface ContainedBrowserOptions {
  chromiumPath: string;
  /** Chromium flags besides the box's own. */
  flags: readonly string[];
  bounds: BrowserBounds;
  /** AUDIT_BROWSER_USER: who the browser runs as when this process is root. */
  user: string;
  /** Told of the browser as soon as it runs, and when it is gone (the server cleans up after a check that dies). */
  onChange?: ((event: BrowserEvent) => void) | undefined;
}

export type { LiveBrowser };
export type BrowserEvent = { started: LiveBrowser } | { ended: number };

export interface ContainedBrowser extends LiveBrowser {
  transport: PipeTransport;
  /** Resolves when the browser's first process has ended: by itself, at a bound, or by stop(). */
  exited: Promise<void>;
  /** The bound the browser was stopped at, once it was. */
  stoppedAt(): BrowserStop | undefined;
  /** Kills every process of the browser and removes its profile folder and cgroup; the bound it had hit, if any. */
  stop(): Promise<BrowserStop | undefined>;
  /** The most memory its processes held together, in bytes. */
  peakMemoryBytes(): number;
  /** The last of what it wrote to its standard error (why it did not start, when it did not). */
  errorOutput(): string;
}

/**
 * Joins the cgroup (when there is one: its cgroup.procs, else "-"), volunteers for the kernel's OOM killer,
 * then becomes the rest of the command line: every process the browser starts is made after both.
 */
const ENTER_BOX = 'p=$1; shift; if [ "$p" != - ]; then echo $$ > "$p" || exit 97; fi; echo 1000 > /proc/self/oom_score_adj; exec "$@"';

/** Standard error kept, for the message when the browser does not start. */
const ERROR_TAIL_BYTES = 4096;

const live = new Set<LiveBrowser>();
let exitHooked = false;

/** Kills every browser this process started, at once, and removes their folders (its own end is near). */
export function endAllBrowsersNow(): void {
  for (const browser of live) endFromOutside(browser);
  live.clear();
}

function flagsFor(options: ContainedBrowserOptions, profileDir: string, withSandbox: boolean): string[] {
  return [
    ...Launcher.defaultFlags(),
    ...options.flags,
    // No crash reports leave. (Its crash handler still starts, outside the group, and ends with the browser;
    // --disable-crashpad-for-testing, which would spare it, makes Debian's Chromium kill its network service.)
    '--disable-crash-reporter',
    // Where the namespace sandbox is not available, never a setuid helper instead (no_new_privs forbids it anyway).
    '--disable-setuid-sandbox',
    '--remote-debugging-pipe',
    `--user-data-dir=${profileDir}`,
    ...(withSandbox ? [] : ['--no-sandbox']),
    'about:blank',
  ];
}

export async function launchContainedBrowser(options: ContainedBrowserOptions): Promise<ContainedBrowser> {
  if (!exitHooked) {
    exitHooked = true;
    // However this process ends (but SIGKILL: then the parent-death signal and the server do it).
    process.on('exit', endAllBrowsersNow);
  }
  const user = browserUser(options.user);
  const sandbox = sandboxAvailable(user);
  const profileDir = makeProfileDir(ensureProfileRoot(), user);
  const cgroup = createBrowserCgroup(cgroupName(profileDir), options.bounds.memoryBytes);

  // Root without a sandbox-capable user: the browser runs unsandboxed, but as the unprivileged user.
  const flags = flagsFor(options, profileDir, sandbox || !runsAsRoot());
  const child: ChildProcess = spawn('sh', ['-c', ENTER_BOX, 'site-check-browser', cgroup?.procsFile ?? '-', 'setpriv', ...dropTo(user), '--', options.chromiumPath, ...flags], {
    cwd: profileDir,
    env: browserEnv(process.env, profileDir),
    // Its own process group (it leads it), so killing the group takes every process it starts.
    detached: true,
    // fd 3: commands to the browser; fd 4: its answers (--remote-debugging-pipe).
    stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'],
  });
  const pid = child.pid;
  if (pid === undefined) {
    removeProfileDir(profileDir);
    cgroup?.remove();
    throw new Error('the browser could not be started');
  }
  const browser: LiveBrowser = { pid, profileDir, cgroupDir: cgroup?.dir };
  live.add(browser);
  options.onChange?.({ started: browser });

  let errorTail = '';
  child.stderr!.on('data', (chunk: Buffer) => (errorTail = (errorTail + chunk.toString('utf8')).slice(-ERROR_TAIL_BYTES)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const watchdog: Watchdog = watchBrowser(pid, options.bounds, cgroup?.dir);
  const transport = new PipeTransport(child.stdio[3] as Writable, child.stdio[4] as Readable);

  let stopping: Promise<BrowserStop | undefined> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      // Ours for sure: until this process has collected its child the PID is not given to another, and while
      // the group has a process its number is not either.
      killGroup(pid);
      cgroup?.kill();
      transport.close();
      await exited;
      await waitUntilGone(pid, cgroup);
      const stoppedAt = watchdog.stop() ?? (cgroup?.ranOutOfMemory() ? 'memory' : undefined);
      await watchdog.end();
      endFromOutside(browser);
      live.delete(browser);
      options.onChange?.({ ended: pid });
      return stoppedAt;
    })());

  return {
    ...browser,
    transport,
    exited,
    stoppedAt: () => watchdog.stop(),
    stop,
    peakMemoryBytes: () => watchdog.peakMemoryBytes(),
    errorOutput: () => errorTail.trim(),
  };
}
