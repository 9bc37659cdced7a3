/**
 * Who the check's browser runs as, and whether Chromium's sandbox can run there. A server running as root
 * starts the browser as an unprivileged user (AUDIT_BROWSER_USER, `nobody` by default): never root, which
 * could read everything on the machine, and not the server's own user either, which owns the data folder.
 * A server running as its own user (the shipped systemd unit) cannot switch users: the browser runs as
 * that user, and its sandbox is what keeps the page from the server's files.
 *
 * Chromium's sandbox needs user, PID and network namespaces. Where the kernel gives them to the browser's
 * user it runs sandboxed; where it does not, a root server's browser runs without it (as the unprivileged
 * user, which owns nothing of the server's), while a server's own user gets no browser (Chromium refuses
 * to start, and the check says Lighthouse could not measure the page), as decided in 045.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { logger } from '../../../logger';

export interface BrowserUser {
  name: string;
  uid: number;
  gid: number;
}

export const DEFAULT_BROWSER_USER = 'nobody';

export const runsAsRoot = () => process.getuid?.() === 0;

/** `id`'s answer for a user name or number, or undefined for a user this machine does not have. */
export function lookUpUser(name: string): BrowserUser | undefined {
  try {
    const id = (flag: string) => Number(execFileSync('id', [flag, name], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim());
    return { name, uid: id('-u'), gid: id('-g') };
  } catch {
    return undefined;
  }
}

const resolved = new Map<string, BrowserUser>();

/** The user to switch to when this process is root; undefined when it is not (the browser runs as it). */
export function browserUser(name: string): BrowserUser | undefined {
  if (!runsAsRoot()) return undefined;
  let user = resolved.get(name);
  if (!user) {
    user = lookUpUser(name);
    // Checked at start-up too (config.ts); the machine may have changed since.
    if (!user) throw new Error(`the browser's user ${name} does not exist on this machine`);
    if (user.uid === 0) throw new Error(`the browser's user ${name} is root`);
    resolved.set(name, user);
  }
  return user;
}

/** setpriv's arguments that make a program run as `user` with no way back to more privileges. */
export function dropTo(user: BrowserUser | undefined): string[] {
  const always = ['--no-new-privs', '--pdeathsig', 'KILL'];
  return user ? ['--reuid', String(user.uid), '--regid', String(user.gid), '--clear-groups', ...always] : always;
}

let sandboxable: Map<string, boolean> | undefined;

/** Whether the browser's user may make the namespaces Chromium's sandbox is built of (asked once per process). */
export function sandboxAvailable(user: BrowserUser | undefined): boolean {
  sandboxable ??= new Map();
  const key = user?.name ?? '';
  let available = sandboxable.get(key);
  if (available === undefined) {
    const probe = spawnSync('setpriv', [...dropTo(user), '--', 'unshare', '--user', '--pid', '--net', '--fork', 'true'], { stdio: 'ignore', timeout: 5_000 });
    available = probe.status === 0;
    if (!available) logger.warn({ user: user?.name ?? 'the server’s own' }, 'Chromium’s sandbox is not available to the website check’s browser (no user namespaces for its user)');
    sandboxable.set(key, available);
  }
  return available;
}
