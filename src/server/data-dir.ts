/**
 * DATA_DIR holds secrets: PGlite's files (sessions and reset tokens sit in its write-ahead log), the
 * generated auth secret, the mail outbox with sign-in links and the lock. Everything in it is owner-only,
 * set by the program rather than left to the umask of whatever shell started it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { isMainThread } from 'node:worker_threads';

export const OWNER_ONLY_DIR = 0o700;
export const OWNER_ONLY_FILE = 0o600;

export class DataDirPermissionError extends Error {}

/**
 * Makes every file and folder this process creates from now on owner-only (umask 077; PGlite's own chmods
 * are handled by db/owner-only-fs.ts), then tightens what is already in the folder: an install made
 * before, or by a shell with a loose umask. Call before anything opens or writes the folder.
 */
export function secureDataDir(dataDir: string) {
  // Only the main thread may change the umask; the app never runs in a worker (tests may).
  if (isMainThread) process.umask(0o077);
  // The folder itself is followed if it is a link: the operator chose it, and the database lives there.
  const root = fs.statSync(dataDir, { throwIfNoEntry: false });
  if (root?.isDirectory()) tighten(dataDir, root);
}

function tighten(entry: string, stat: fs.Stats) {
  const wanted = stat.isDirectory() ? OWNER_ONLY_DIR : OWNER_ONLY_FILE;
  try {
    if ((stat.mode & 0o777) !== wanted) fs.chmodSync(entry, wanted);
    if (!stat.isDirectory()) return;
    for (const name of fs.readdirSync(entry)) {
      const child = path.join(entry, name);
      // lstat: a link inside the folder may point anywhere; never follow it (chmod would change its target).
      const childStat = fs.lstatSync(child, { throwIfNoEntry: false });
      if (childStat && !childStat.isSymbolicLink()) tighten(child, childStat);
    }
  } catch (e) {
    if (e instanceof DataDirPermissionError) throw e;
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return; // removed meanwhile (a temporary file of the database)
    throw new DataDirPermissionError(
      `Cannot make ${entry} private to its owner (${code}): everything in the data folder must belong to the user that runs the server.`,
    );
  }
}
