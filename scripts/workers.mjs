// WORKERS: the server as several processes sharing one port (node:cluster), so a PostgreSQL site uses the
// machine's cores. server.mjs becomes the primary when WORKERS > 1: it forks the workers (each one the
// ordinary server), tells its launcher it is ready once every worker listens, starts a worker that died
// again after a growing wait, and on SIGTERM/SIGINT asks every worker to stop and exits when all have.
// The embedded database is single-process, so WORKERS > 1 needs DATABASE_URL. Work that must happen once
// per site (migrations, the demo seed, the admin claim link) is guarded by PostgreSQL advisory locks
// (src/server/db/advisory-lock.ts), so every worker may start the same way.
import cluster from 'node:cluster';
import os from 'node:os';
import { DEFAULT_POLICY, READY_MESSAGE, restartDelayMs } from './supervise.mjs';

const MAX_WORKERS = 64;
/** A worker that has not stopped this long after SIGTERM is killed. */
const STOP_TIMEOUT_MS = 30_000;

/**
 * WORKERS as a number of processes: unset or empty is 1; `auto` is one per core on PostgreSQL and 1 on the
 * embedded database. `{ error }` is the one line to print when the value cannot be used.
 */
export function parseWorkers(env = process.env) {
  const raw = (env.WORKERS ?? '').trim();
  if (raw === '') return { count: 1 };
  if (raw === 'auto') return { count: env.DATABASE_URL ? os.availableParallelism() : 1 };
  const count = Number(raw);
  if (!/^\d+$/.test(raw) || count < 1 || count > MAX_WORKERS) {
    return { error: `WORKERS must be a whole number from 1 to ${MAX_WORKERS}, or auto (it is "${raw}").` };
  }
  if (count > 1 && !env.DATABASE_URL) {
    return {
      error: `WORKERS=${count} needs PostgreSQL (DATABASE_URL): the embedded database can be opened by one process only. Unset WORKERS, or set DATABASE_URL.`,
    };
  }
  return { count };
}

/** The number of worker processes, or the one-line reason it cannot be used and exit 1. */
export function workersOrExit(env = process.env) {
  const { count, error } = parseWorkers(env);
  if (error) {
    console.error(error);
    process.exit(1);
  }
  return count;
}

const logLine = (level, msg, fields = {}) => console.error(JSON.stringify({ level, time: new Date().toISOString(), msg, ...fields }));
const howItEnded = (code, signal) => (signal ? `signal ${signal}` : `exit code ${code}`);

/**
 * Runs `count` workers of the current script (server.mjs) and never resolves: the primary ends with
 * process.exit — with the first worker's exit code when the server could not start, 0 after a clean stop.
 */
export function runWorkers({ count, policy: overrides = {} }) {
  const policy = { ...DEFAULT_POLICY, ...overrides };
  // Round-robin (Node's default on Linux) spreads connections evenly over the workers.
  cluster.schedulingPolicy = cluster.SCHED_RR;
  const slots = Array.from({ length: count }, (_, index) => ({ index: index + 1, worker: undefined, everServed: false, crashes: 0, failedRestarts: 0, timer: undefined }));
  let stopping;
  let allReady = false;

  const exitWhenAllStopped = () => {
    if (slots.every((s) => !s.worker)) process.exit(typeof stopping === 'number' ? stopping : 0);
  };

  const stopAll = (reason) => {
    if (stopping !== undefined) return;
    stopping = reason;
    for (const slot of slots) clearTimeout(slot.timer);
    for (const slot of slots) slot.worker?.process.kill('SIGTERM');
    setTimeout(() => {
      for (const slot of slots) slot.worker?.process.kill('SIGKILL');
    }, STOP_TIMEOUT_MS).unref();
    exitWhenAllStopped();
  };

  const start = (slot) => {
    slot.timer = undefined;
    let servingSince;
    const worker = cluster.fork({ WORKER_INDEX: String(slot.index) });
    slot.worker = worker;
    // A worker that died while the primary wrote to it (EPIPE): its 'exit' follows and is handled there.
    worker.on('error', (err) => logLine('warn', `worker ${slot.index}: ${err.message}`, { worker: slot.index }));
    worker.on('message', (message) => {
      if (message !== READY_MESSAGE) return;
      servingSince = Date.now();
      if (slot.everServed) console.log(JSON.stringify({ level: 'info', msg: `worker ${slot.index} (pid ${worker.process.pid}) is serving again` }));
      slot.everServed = true;
      slot.failedRestarts = 0;
      if (!allReady && slots.every((s) => s.everServed)) {
        allReady = true;
        console.log(JSON.stringify({ level: 'info', msg: `${count} worker processes are serving` }));
        process.send?.(READY_MESSAGE);
      }
    });
    worker.on('exit', (code, signal) => {
      slot.worker = undefined;
      if (stopping !== undefined) return exitWhenAllStopped();
      const name = `worker ${slot.index} (pid ${worker.process.pid})`;
      if (servingSince === undefined) {
        // Could not start. At first start that is the server's answer (it printed why): stop the others
        // and exit with it. After a crash a few tries are worth it (the database may be coming back).
        if (!allReady || ++slot.failedRestarts > policy.maxFailedRestarts) {
          if (allReady) logLine('fatal', `${name} could not start again (${howItEnded(code, signal)}); stopping the server`, { worker: slot.index });
          return stopAll(code || 1);
        }
      } else if (Date.now() - servingSince >= policy.healthyMs) {
        slot.crashes = 0;
      }
      slot.crashes++;
      const delayMs = restartDelayMs(slot.crashes, policy);
      logLine('error', `${name} stopped unexpectedly (${howItEnded(code, signal)}); the other workers go on serving; restarting it in ${delayMs / 1000} s`, {
        worker: slot.index,
        exitCode: code,
        signal,
        restartInMs: delayMs,
        restartsInARow: slot.crashes,
      });
      slot.timer = setTimeout(() => start(slot), delayMs);
    });
  };

  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.on(signal, () => stopAll(signal));
  // Under a launcher (npm start, npm run serve) an IPC channel reports readiness; a launcher that went
  // away (kill -9) must not leave the workers holding the port.
  if (process.send) {
    process.channel?.unref();
    process.once('disconnect', () => stopAll('SIGTERM'));
  }
  for (const slot of slots) start(slot);
  return new Promise(() => {});
}
