// A built server of a bench row's own: a fresh data folder (migrated, with the demo content unless told
// otherwise, and a content file imported before the server holds the folder), then server.mjs started the
// way production starts it. Bench rows that disturb the server (floods) or need their own content use it.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SERVER_ENV, SERVER_NODE_ARGS } from '../scripts/server-process.mjs';
import { freePort } from './free-port.mjs';

const root = path.resolve(import.meta.dirname, '..');

/** What a bench started or wrote that is still there: killed or removed when it ends early (its deadline). */
const running = new Set();
const scratch = new Set();
process.on('exit', () => {
  for (const child of running) child.kill('SIGKILL');
  for (const dir of scratch) fs.rmSync(dir, { recursive: true, force: true });
});

/** Removes a scratch file or folder if this process exits before it does. */
export function removeOnExit(file) {
  scratch.add(file);
  return () => {
    fs.rmSync(file, { recursive: true, force: true });
    scratch.delete(file);
  };
}

/** Kills `child` if this process exits first. */
export function killOnExit(child) {
  running.add(child);
  child.once('exit', () => running.delete(child));
  return child;
}

/** Stops a server process: SIGTERM (it checkpoints and closes its database), SIGKILL after 10 s. */
export async function halt(child) {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const stopped = await Promise.race([exited.then(() => true), new Promise((resolve) => setTimeout(() => resolve(false), 10_000))]);
  if (!stopped) {
    child.kill('SIGKILL');
    await exited;
  }
}

/**
 * @param {{ distDir: string, seed?: boolean, content?: object, env?: Record<string, string>, nodeArgs?: string[] }} options
 *   distDir relative to the project; `content` the sections of a content file, imported first; `env` extra
 *   settings (DATABASE_URL for PostgreSQL, WORKERS: ready once every worker listens); `nodeArgs` Node flags.
 * @returns the server (`bench.server` is its current process), `restart()` (same data folder and port: a
 *   fresh process for a row that may have hurt the last one) and `stop()` (also removes the data folder).
 */
export async function startBenchServer({ distDir, seed = true, content, env: extra = {}, nodeArgs = [] }) {
  if (!fs.existsSync(path.join(root, distDir, 'server', 'entry.mjs'))) throw new Error(`no build in ${distDir}/ (run npx astro build)`);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agency-bench-row-'));
  const removeDataDir = removeOnExit(dataDir);
  const port = await freePort();
  const env = {
    ...process.env,
    ASTRO_TELEMETRY_DISABLED: '1',
    NODE_ENV: 'production',
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    SITE_URL: `http://127.0.0.1:${port}`,
    SEED_DEMO_CONTENT: String(seed),
    LOG_LEVEL: 'warn',
    APP_DIST_DIR: distDir,
    ...extra,
  };
  // The embedded database unless the row names a PostgreSQL one (bench/workers.mjs).
  if (!extra.DATABASE_URL) delete env.DATABASE_URL;
  const workers = Number(extra.WORKERS ?? 1);
  const base = `http://127.0.0.1:${port}`;

  const launch = async () => {
    const child = killOnExit(spawn(process.execPath, [...bench.nodeArgs, ...SERVER_NODE_ARGS], { cwd: root, env: { ...env, ...SERVER_ENV }, stdio: ['ignore', 'pipe', 'inherit'] }));
    bench.server = child;
    // With WORKERS > 1 /readyz answers once the first worker listens; the primary says when all do.
    let stdout = '';
    child.stdout.on('data', (d) => (stdout += d.toString()));
    const allListening = () => workers <= 1 || stdout.includes(`${workers} worker processes are serving`);
    for (let i = 0; i < 120; i++) {
      if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
      try {
        if ((await fetch(`${base}/readyz`)).ok && allListening()) return;
      } catch {
        // not listening yet
      }
      await new Promise((r) => setTimeout(r, 500));
    }
    throw new Error('server did not become ready within 60 s');
  };
  const bench = {
    base,
    port,
    dataDir,
    server: undefined,
    /** Node flags before the server's own (e.g. --cpu-prof); may be changed before `restart()`. */
    nodeArgs,
    async restart() {
      await halt(bench.server);
      await launch();
    },
    async stop() {
      await halt(bench.server);
      removeDataDir();
    },
  };

  try {
    const run = (args) => {
      const r = spawnSync(process.execPath, ['--import', 'tsx', ...args], { cwd: root, env, stdio: ['ignore', 'ignore', 'inherit'], timeout: 180_000 });
      if (r.status !== 0) throw new Error(`${args.join(' ')} exited with ${r.status}`);
    };
    run(['scripts/migrate.ts']);
    if (content) {
      const file = path.join(dataDir, 'bench-content.json');
      fs.writeFileSync(file, JSON.stringify({ format: 'agency-site-content', version: 1, ...content }));
      run(['scripts/content-import.ts', file]);
    }
    await launch();
    return bench;
  } catch (err) {
    await bench.stop();
    throw err;
  }
}
