/**
 * A PostgreSQL server of the test's own (Debian's PostgreSQL binaries, a private port and data folder), so
 * a test can stop it and start it again while the site runs on it. initdb refuses to run as root: as root,
 * the cluster belongs to the `postgres` system user and its commands run as that user.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** POSTGRES_BIN, or the newest Debian PostgreSQL installed (/usr/lib/postgresql/<major>/bin). */
function postgresBin(): string {
  if (process.env.POSTGRES_BIN) return process.env.POSTGRES_BIN;
  const majors = fs.existsSync('/usr/lib/postgresql') ? fs.readdirSync('/usr/lib/postgresql').filter((v) => /^\d+$/.test(v)) : [];
  const newest = majors.sort((a, b) => Number(b) - Number(a))[0] ?? '15';
  return `/usr/lib/postgresql/${newest}/bin`;
}

export const POSTGRES_BIN = postgresBin();

export const canRunThrowawayPostgres = () => fs.existsSync(path.join(POSTGRES_BIN, 'initdb'));

export interface ThrowawayPostgres {
  url: string;
  start(): void;
  stop(): void;
  remove(): void;
}

export function createThrowawayPostgres(port: number): ThrowawayPostgres {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agency-throwaway-pg-'));
  const dataDir = path.join(dir, 'data');
  const asRoot = process.getuid?.() === 0;
  if (asRoot) execFileSync('chown', ['postgres:postgres', dir]);
  const run = (tool: string, args: string[]) => {
    const command = path.join(POSTGRES_BIN, tool);
    const [file, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args];
    execFileSync(file, argv, { stdio: ['ignore', 'ignore', 'pipe'], cwd: dir });
  };
  run('initdb', ['-D', dataDir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`;
  const handle: ThrowawayPostgres = {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    start: () => run('pg_ctl', ['-D', dataDir, '-o', options, '-l', path.join(dir, 'log'), '-w', 'start']),
    stop: () => run('pg_ctl', ['-D', dataDir, '-m', 'fast', '-w', 'stop']),
    remove() {
      try {
        handle.stop();
      } catch {
        // Not running.
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
  handle.start();
  return handle;
}
