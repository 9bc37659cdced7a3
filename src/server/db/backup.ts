/**
 * `npm run db:backup` and `npm run db:restore` (docs/decisions/025).
 *
 * Embedded database (PGlite): single-process, and the running server holds its folder (db/lock.ts). A copy
 * taken from under a live PGlite could be torn, so both commands take the same lock and refuse, in one
 * line, while the server runs. The backup is PGlite's own archive of its data folder after a CHECKPOINT.
 * A restore unpacks the archive into a folder beside the database, opens it to prove it is whole, and only
 * then swaps it in; the database it replaces is kept beside it. A failure at any step leaves the database
 * as it was.
 *
 * PostgreSQL (DATABASE_URL): its own tools, pg_dump's custom format while the site runs, and pg_restore in
 * one transaction (all or nothing), refused while a site process is connected. The password travels in
 * the environment (PGPASSWORD), never on a command line other local users can read.
 *
 * Backups hold everything the database does (sessions, reset tokens): files are owner-only (0600), written
 * under a temporary name and renamed when complete.
 */
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { OWNER_ONLY_DIR, OWNER_ONLY_FILE } from '../data-dir';
import { APPLICATION_NAME, SMALL_BUFFER_POOL, openDatabase } from './client';
import { acquireDataDirLock, DataDirLockedError, type DataDirLock } from './lock';
import { OwnerOnlyNodeFS } from './owner-only-fs';

/** A failure the operator can act on: printed as its message alone. */
export class BackupError extends Error {}

const PGDATA = 'pgdata';

function stamp(now = new Date()): string {
  return now.toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
}

/** Where a backup goes when no file is named: ./backups/agency-db-<UTC time>.<ext>, in an owner-only folder. */
export function defaultBackupFile(kind: 'pglite' | 'postgres', cwd = process.cwd(), now = new Date()): string {
  return path.join(cwd, 'backups', `agency-db-${stamp(now)}.${kind === 'pglite' ? 'pglite.tar.gz' : 'pgdump'}`);
}

/** Runs `write(tmp)` on an owner-only temporary file beside `file`, then renames it into place. */
async function writeAside(file: string, write: (tmp: string) => Promise<void>): Promise<void> {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: OWNER_ONLY_DIR });
  const tmp = path.join(path.dirname(file), `.${path.basename(file)}.${crypto.randomBytes(4).toString('hex')}.partial`);
  fs.writeFileSync(tmp, '', { mode: OWNER_ONLY_FILE, flag: 'wx' });
  try {
    await write(tmp);
    fs.chmodSync(tmp, OWNER_ONLY_FILE);
    fs.renameSync(tmp, file);
  } catch (err) {
    fs.rmSync(tmp, { force: true });
    throw err;
  }
}

const inUse = (dataDir: string, pid: number, command: string) =>
  new BackupError(
    `Cannot ${command}: the embedded database in ${dataDir} is in use by a running server or script (PID ${pid}). Stop the server, run the command again, then start the server.`,
  );

function lockForCommand(dataDir: string, command: string): DataDirLock {
  try {
    return acquireDataDirLock(dataDir);
  } catch (err) {
    throw err instanceof DataDirLockedError ? inUse(dataDir, err.pid, command) : err;
  }
}

function readBackupFile(file: string): Buffer {
  try {
    return fs.readFileSync(file);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new BackupError(`Cannot read ${file}: ${code === 'ENOENT' ? 'no such file' : code}`);
  }
}

// ---- Embedded database (PGlite) ----

export async function backupPglite(dataDir: string, file: string): Promise<void> {
  if (!fs.existsSync(path.join(dataDir, PGDATA, 'PG_VERSION'))) throw new BackupError(`There is no embedded database in ${dataDir} to back up.`);
  const handle = await openDatabase({ kind: 'pglite', dataDir }).catch((err: unknown) => {
    throw err instanceof DataDirLockedError ? inUse(dataDir, err.pid, 'back up') : err;
  });
  try {
    await handle.pglite!.exec('CHECKPOINT');
    const archive = await handle.pglite!.dumpDataDir('gzip');
    const bytes = new Uint8Array(await archive.arrayBuffer());
    await writeAside(file, async (tmp) => fs.writeFileSync(tmp, bytes));
  } finally {
    await handle.close();
  }
}

/** Returns where the database it replaced was kept (undefined when there was none). */
export async function restorePglite(dataDir: string, file: string): Promise<string | undefined> {
  const lock = lockForCommand(dataDir, 'restore');
  let archive: Buffer;
  try {
    archive = readBackupFile(file);
  } catch (err) {
    lock.release();
    throw err;
  }
  const live = path.join(dataDir, PGDATA);
  const staging = path.join(dataDir, `${PGDATA}.restoring-${crypto.randomBytes(4).toString('hex')}`);
  try {
    try {
      const client = await PGlite.create({ fs: new OwnerOnlyNodeFS(staging), loadDataDir: new Blob([new Uint8Array(archive)]), startParams: SMALL_BUFFER_POOL });
      // Proves the unpacked database starts and answers before anything is swapped.
      await client.query('select count(*) from pg_catalog.pg_class');
      await client.exec('CHECKPOINT');
      await client.close();
    } catch (err) {
      throw new BackupError(`${file} is not a backup of the embedded database (${err instanceof Error ? err.message : String(err)}). Nothing was changed.`);
    }
    let previous: string | undefined;
    if (fs.existsSync(live)) {
      previous = path.join(dataDir, `${PGDATA}.before-restore-${stamp()}`);
      fs.renameSync(live, previous);
    }
    fs.renameSync(staging, live);
    return previous;
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
    lock.release();
  }
}

// ---- PostgreSQL ----

interface Connection {
  /** The URL without its password. */
  url: string;
  env: NodeJS.ProcessEnv;
}

function connectionOf(databaseUrl: string): Connection {
  const url = new URL(databaseUrl);
  const env: NodeJS.ProcessEnv = { ...process.env };
  if (url.password) env.PGPASSWORD = decodeURIComponent(url.password);
  url.password = '';
  return { url: url.toString(), env };
}

function run(tool: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(tool, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') {
        reject(
          new BackupError(
            `${tool} was not found. Install PostgreSQL's client tools of the server's major version or newer (Debian: apt-get install postgresql-client), or use your database provider's backups.`,
          ),
        );
      } else reject(err);
    });
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

const lastLines = (text: string) => text.trim().split('\n').slice(-3).join(' ').trim();

export async function backupPostgres(databaseUrl: string, file: string): Promise<void> {
  const { url, env } = connectionOf(databaseUrl);
  await writeAside(file, async (tmp) => {
    const { code, stderr } = await run('pg_dump', ['--format=custom', '--no-owner', '--no-privileges', `--file=${tmp}`, `--dbname=${url}`], env);
    if (code !== 0) throw new BackupError(`pg_dump failed: ${lastLines(stderr) || `exit code ${code}`}`);
  });
}

/** Site processes connected to the database (they name themselves APPLICATION_NAME). */
async function connectedSiteProcesses(databaseUrl: string): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl, application_name: `${APPLICATION_NAME}-restore` });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: string }>(
      'select count(*) as n from pg_stat_activity where datname = current_database() and application_name = $1 and pid <> pg_backend_pid()',
      [APPLICATION_NAME],
    );
    return Number(rows[0]?.n ?? 0);
  } finally {
    await client.end();
  }
}

export async function restorePostgres(databaseUrl: string, file: string): Promise<void> {
  const connected = await connectedSiteProcesses(databaseUrl);
  if (connected > 0) {
    throw new BackupError(`Cannot restore: ${connected} connection(s) of the running site are open on this database. Stop every site process, run the command again, then start them.`);
  }
  readBackupFile(file);
  const { url, env } = connectionOf(databaseUrl);
  const listed = await run('pg_restore', ['--list', file], env);
  if (listed.code !== 0) throw new BackupError(`${file} is not a pg_dump archive (${lastLines(listed.stderr)}). Nothing was changed.`);
  // One transaction: a restore that fails halfway leaves the database as it was.
  const { code, stderr } = await run('pg_restore', ['--clean', '--if-exists', '--no-owner', '--no-privileges', '--single-transaction', '--exit-on-error', `--dbname=${url}`, file], env);
  if (code !== 0) throw new BackupError(`pg_restore failed, nothing was changed: ${lastLines(stderr) || `exit code ${code}`}`);
}
