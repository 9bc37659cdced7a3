// (q) WORKERS=1 next to WORKERS=2 on PostgreSQL: uncached landing renders (the route cache off,
// ROUTE_CACHE=false, so every request renders the page). Each setting gets its own server and database, both
// started before the first run; the runs alternate (1, 2, 1, 2, 1, 2) so a neighbour's burst on this
// shared machine hurts both alike, and each setting's median round is compared (one burst, up or down,
// moves a best-of comparison by a third; it barely moves the median). Needs BENCH_DATABASE_URL or
// TEST_DATABASE_URL (a PostgreSQL server); without one the row says so.
//
//   node bench/workers.mjs [--duration=10] [--dist=dist] [--json]
import { execFileSync, spawn } from 'node:child_process';
import path from 'node:path';
import { startBenchServer } from './bench-server.mjs';
import { failedRequests, hasWrk, loadRun, wrkRun } from './load-run.mjs';
import { RENDERS_TARGET } from './renders.mjs';

/** The target on a 2-core machine. */
export const WORKERS_TARGET_RATIO = 1.5;
const ROUNDS = 5;

/** The primary and its workers: CPU is counted over all of them. */
function processTree(pid) {
  try {
    const children = execFileSync('ps', ['-o', 'pid=', '--ppid', String(pid)], { encoding: 'utf8' }).split('\n').map(Number).filter(Boolean);
    return [pid, ...children];
  } catch {
    return [pid];
  }
}

/** Pure computation for `ms` in a child process: how much it got done (a share of a free core). */
function spin(ms) {
  const code = `const end = Date.now() + ${ms}; let n = 0; while (Date.now() < end) for (let i = 0; i < 1e5; i++) n += Math.sqrt(i); console.log(n);`;
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['-e', code], { stdio: ['ignore', 'pipe', 'ignore'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.on('exit', () => resolve(Number(out) || 0));
  });
}

/**
 * What the machine gives two busy processes at this moment, as a multiple of one: 2 on an idle 2-core
 * machine, less when other work holds a core. The workers' ratio cannot exceed it.
 */
async function twoProcessCeiling(ms = 3000) {
  const one = await spin(ms);
  const two = (await Promise.all([spin(ms), spin(ms)])).reduce((a, b) => a + b, 0);
  return one > 0 ? Math.round((two / one) * 100) / 100 : 0;
}

export async function workersBench({ seconds = 10, connections = 20, distDir = 'dist', log = () => {} }) {
  const serverUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  if (!serverUrl) return { skipped: 'no PostgreSQL server: set BENCH_DATABASE_URL or TEST_DATABASE_URL' };
  // Node 24 runs this TypeScript file as is (types stripped).
  const { createPostgresDatabase } = await import('../tests/support/postgres-database.ts');
  // wrk when installed: autocannon's own CPU (~0.4 ms a request) comes out of the two cores being measured.
  const generator = hasWrk() ? 'wrk' : 'autocannon';
  const run = generator === 'wrk' ? wrkRun : loadRun;
  const setups = [];
  let ceilingBefore = 0;
  try {
    for (const workers of [1, 2]) {
      const database = await createPostgresDatabase(serverUrl, `bench_workers${workers}`);
      const setup = { workers, database, runs: [] };
      setups.push(setup);
      log(`starting WORKERS=${workers} on PostgreSQL`);
      setup.bench = await startBenchServer({
        distDir,
        env: { DATABASE_URL: database.url, AUTH_SECRET: 'bench-secret-bench-secret-bench-secret-0123', WORKERS: String(workers), ROUTE_CACHE: 'false' },
      });
    }
    for (const setup of setups) {
      // JIT and pools warm in every worker (the first seconds of renders are measurably slower).
      await run({ base: setup.bench.base, pid: setup.bench.server.pid, path: '/', connections, duration: 8 });
    }
    ceilingBefore = await twoProcessCeiling();
    for (let round = 1; round <= ROUNDS; round++) {
      for (const setup of setups) {
        log(`round ${round}: WORKERS=${setup.workers}`);
        const pids = processTree(setup.bench.server.pid);
        setup.runs.push(await run({ base: setup.bench.base, pid: pids, path: '/', connections, duration: seconds }));
      }
    }
  } finally {
    for (const setup of setups) {
      await setup.bench?.stop();
      await setup.database.drop().catch(() => {});
    }
  }
  const median = (runs) => [...runs].sort((a, b) => a.rps - b.rps)[Math.floor(runs.length / 2)];
  const [one, two] = setups.map((s) => median(s.runs));
  const failed = setups.flatMap((s) => s.runs).reduce((sum, r) => sum + failedRequests(r), 0);
  const ceiling = [ceilingBefore, await twoProcessCeiling()];
  return { generator, one, two, ratio: one.rps > 0 ? Math.round((two.rps / one.rps) * 100) / 100 : 0, rounds: setups.map((s) => s.runs.map((r) => r.rps)), failed, ceiling };
}

export function workersRows(r, mark) {
  const target = `≥ ${WORKERS_TARGET_RATIO}× one worker`;
  if (!r || r.skipped) return [['(q) uncached renders, 1 vs 2 workers (PostgreSQL)', r?.skipped ?? 'n/a', target, mark(false)]];
  const line = (x) => `${x.rps} req/s, p99 ${x.p99} ms, ${x.cpuUsPerReq} µs CPU/req`;
  return [
    ['(q) uncached renders, WORKERS=2 / WORKERS=1', `${r.ratio}× (rounds: ${r.rounds[0].join(', ')} vs ${r.rounds[1].join(', ')} req/s; ${r.failed} failed)`, target, mark(r.ratio >= WORKERS_TARGET_RATIO && r.failed === 0)],
    ['    WORKERS=1, PostgreSQL', line(r.one), 'reference', ''],
    ['(q) uncached / renders, WORKERS=2, PostgreSQL', line(r.two), `≥ ${RENDERS_TARGET.postgres} req/s`, mark(r.two.rps >= RENDERS_TARGET.postgres)],
    ['    load generator', r.generator === 'wrk' ? 'wrk' : 'autocannon (install wrk, a Debian package, to leave the server more of the machine)', 'information', ''],
    ['    two busy processes vs one, same machine', `${r.ceiling.join('× before, ')}× after the runs (about the most two workers could gain; 2× on an idle 2-core machine)`, 'information', ''],
  ];
}

const isMain = process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename);
if (isMain) {
  const args = new Map(process.argv.slice(2).map((a) => a.replace(/^--/, '').split('=')).map(([k, v]) => [k, v ?? 'true']));
  const seconds = Math.min(Math.max(Number(args.get('duration') ?? 10), 3), 60);
  try {
    const r = await workersBench({ seconds, distDir: args.get('dist') ?? 'dist', log: (m) => process.stderr.write(`bench (workers): ${m}\n`) });
    if (args.has('json')) console.log(JSON.stringify(r));
    else for (const row of workersRows(r, (ok) => (ok ? 'PASS' : 'MISS'))) console.log(row.join('  '));
  } catch (err) {
    console.error(`bench (workers): ${err instanceof Error ? err.message : err}`);
  }
  process.exit(0);
}
