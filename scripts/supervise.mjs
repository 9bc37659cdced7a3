// Keeps the server up under `npm start` and `npm run serve`: a server that crashes after it was serving is
// started again, with a growing wait so a crash loop cannot spin the CPU; one that could not start (a port
// taken, the data folder locked, a bad setting) is not retried forever but ends the launcher with its own
// message and exit code. SIGTERM/SIGINT stop the server cleanly and are never followed by a restart.
import { spawn } from 'node:child_process';

/** The server says it listens (server.mjs, over the IPC channel this launcher opens). */
export const READY_MESSAGE = 'agency:server-ready';

export const DEFAULT_POLICY = {
  /** The wait before the first restart, doubled after each crash that follows quickly… */
  firstDelayMs: 1_000,
  /** …up to this. */
  maxDelayMs: 30_000,
  /** A server that served this long before it crashed counts as healthy: the wait starts over. */
  healthyMs: 60_000,
  /** Restarts in a row that end before the server listens: then the launcher gives up. */
  maxFailedRestarts: 5,
};

/** The wait before restart number `crashes` (1, 2, …) of a series: 1 s, 2 s, 4 s … capped. */
export function restartDelayMs(crashes, policy = DEFAULT_POLICY) {
  return Math.min(policy.maxDelayMs, policy.firstDelayMs * 2 ** Math.max(0, crashes - 1));
}

const logLine = (level, msg, fields) => console.error(JSON.stringify({ level, time: new Date().toISOString(), msg, ...fields }));
const howItEnded = (code, signal) => (signal ? `signal ${signal}` : `exit code ${code}`);

/**
 * Runs `node <args>` and keeps it running; never returns (the launcher exits with the server). `policy`
 * overrides DEFAULT_POLICY (tests use short waits).
 */
export function supervise({ args, env = process.env, cwd = process.cwd(), policy: overrides = {} }) {
  const policy = { ...DEFAULT_POLICY, ...overrides };
  let child;
  let stopping;
  let restartTimer;
  let everServed = false;
  let crashes = 0;
  let failedRestarts = 0;

  const start = () => {
    restartTimer = undefined;
    let servingSince;
    child = spawn(process.execPath, args, { cwd, env, stdio: ['inherit', 'inherit', 'inherit', 'ipc'] });
    child.on('error', (err) => {
      logLine('fatal', `the server could not be run: ${err.message}`, {});
      process.exit(1);
    });
    child.on('message', (message) => {
      if (message !== READY_MESSAGE) return;
      servingSince = Date.now();
      everServed = true;
      failedRestarts = 0;
    });
    child.on('exit', (code, signal) => {
      child = undefined;
      if (stopping) process.exit(code ?? 0);
      if (servingSince === undefined) {
        // Could not start: on the first start that is the answer (the server printed why); after a crash
        // a few tries are worth it (the database may be coming back), then the same answer.
        if (!everServed || ++failedRestarts > policy.maxFailedRestarts) {
          if (everServed) logLine('fatal', `the server could not start again (${howItEnded(code, signal)}); giving up`, { exitCode: code, signal });
          process.exit(code || 1);
        }
      } else {
        if (Date.now() - servingSince >= policy.healthyMs) crashes = 0;
      }
      crashes++;
      const delayMs = restartDelayMs(crashes, policy);
      logLine('error', `the server stopped unexpectedly (${howItEnded(code, signal)}); restarting in ${delayMs / 1000} s`, {
        exitCode: code,
        signal,
        restartInMs: delayMs,
        restartsInARow: crashes,
      });
      restartTimer = setTimeout(start, delayMs);
    });
  };

  const stop = (signal) => {
    if (stopping) return; // Ctrl-C reaches the server too, and npm forwards it again: one stop is enough
    stopping = signal;
    if (restartTimer) {
      clearTimeout(restartTimer);
      process.exit(0);
    }
    // SIGHUP (the terminal went away) asks the server for the same clean stop as SIGTERM.
    child?.kill(signal === 'SIGHUP' ? 'SIGTERM' : signal);
  };
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.on(signal, () => stop(signal));
  // Under `npm start` the chain is npm → sh → this launcher, and npm hands a SIGTERM to the shell, which dies
  // without passing it on: this process would be left running, server and all. A launcher whose shell went
  // away stops as if it had been sent SIGTERM itself. Only under npm: run directly (systemd, nohup), the
  // parent may come and go.
  if (process.env.npm_lifecycle_event) {
    const parent = process.ppid;
    setInterval(() => process.ppid !== parent && stop('SIGTERM'), 500).unref();
  }
  start();
}
