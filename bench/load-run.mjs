// One autocannon run against a bench server, with what it cost the server: CPU time per request (from
// /proc, so it counts the server's work whatever the load generator manages) and its memory.
import { execFile, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import autocannon from 'autocannon';
import { percentile } from './percentile.mjs';

/** VmRSS of a process in MB (undefined once it is gone). */
export function rssMb(pid) {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Math.round(Number(m[1]) / 1024) : undefined;
  } catch {
    return undefined;
  }
}

/** User + system CPU time of a process, in microseconds (from /proc, clock ticks of 10 ms). */
export function cpuMicros(pid) {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10_000;
  } catch {
    return 0;
  }
}

/** A percentile of ascending latencies in ms, to a tenth (0 when there are none). */
const msAt = (sorted, p) => Math.round((percentile(sorted, p) ?? 0) * 10) / 10;

/**
 * Latencies as a fixed-rate load sees them (decision 052): each response once at its own latency, plus, for
 * a response later than its connection's next send, the sends it held up (HdrHistogram's
 * recordValueWithExpectedInterval, with the real interval). autocannon 9 makes that correction with an
 * interval of ceil(1 / rate) = 1 ms, its rate being per second: every response of L ms adds L − 1 made-up
 * samples, so a server that always answers in 10 ms gets a p50 of 6 ms, and one slow answer weighs in the
 * p99 as much as its length in ms. Its 1 ms buckets are too coarse for a 20 % margin on a 5 ms p99, too.
 */
export function withHeldSends(latencies, intervalMs) {
  if (!intervalMs) return latencies;
  return latencies.flatMap((ms) => {
    const held = [];
    for (let late = ms - intervalMs; late >= intervalMs; late -= intervalMs) held.push(late);
    return [ms, ...held];
  });
}

/**
 * GET `path` for `duration` seconds over `connections` connections (at `overallRate` requests/s in all,
 * when given: latency as a visitor sees it, not as a saturated queue). `pid` is the server's process, or
 * all of them (a primary and its workers). For renders, the server runs with ROUTE_CACHE=false: a query
 * string the page does not read would be answered from the route cache.
 * @param {{ base: string, pid: number | number[], path: string, headers?: Record<string, string>, connections?: number,
 *   duration?: number, overallRate?: number, until?: Promise<unknown> }} options
 */
export async function loadRun({ base, pid, path, headers = {}, connections = 20, duration = 10, overallRate, until }) {
  const pids = [pid].flat();
  const cpuOf = () => pids.reduce((sum, p) => sum + cpuMicros(p), 0);
  const request = { method: 'GET', path, headers };
  const cpuBefore = cpuOf();
  const started = performance.now();
  const run = autocannon({ url: base, connections, duration, ...(overallRate ? { overallRate, ignoreCoordinatedOmission: true } : {}), requests: [request] });
  const responses = [];
  run.on('response', (_client, statusCode, _bytes, ms) => statusCode >= 200 && statusCode <= 299 && responses.push(ms));
  // `until`: a promise that ends the run early (what it measures has ended); `duration` is then the most.
  until?.then(() => run.stop());
  const result = await run;
  const seconds = until ? (performance.now() - started) / 1000 : duration;
  const cpu = cpuOf() - cpuBefore;
  // A connection's send interval at a fixed rate (autocannon lowers the connections to the rate when fewer).
  const intervalMs = overallRate ? (1000 * Math.min(connections, overallRate)) / overallRate : undefined;
  const latencies = withHeldSends(responses, intervalMs).toSorted((x, y) => x - y);
  const statuses = Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([code, s]) => [code, s.count]));
  return {
    requests: result.requests.total,
    rps: Math.round(result.requests.average),
    cpuUsPerReq: result.requests.total > 0 ? Math.round(cpu / result.requests.total) : 0,
    serverCpuPct: Math.round((cpu / (seconds * 1_000_000)) * 100),
    seconds: Math.round(seconds * 10) / 10,
    p50: msAt(latencies, 50),
    p99: msAt(latencies, 99),
    statuses,
    errors: result.errors + result.timeouts,
  };
}

/** A run's failures: socket errors and timeouts, and every answer that was not 2xx. */
export const failedRequests = (run) =>
  run.errors + Object.entries(run.statuses).filter(([code]) => !code.startsWith('2')).reduce((sum, [, count]) => sum + count, 0);

/** Whether wrk (Debian package `wrk`) is installed: a load generator in C that leaves the server more CPU. */
export function hasWrk() {
  return spawnSync('wrk', ['--version']).error === undefined;
}

/** wrk's durations ("812.00us", "38.21ms", "1.02s") in milliseconds. */
function wrkMs(text) {
  const m = /([\d.]+)(us|ms|s)/.exec(text ?? '');
  if (!m) return undefined;
  const scale = { us: 0.001, ms: 1, s: 1000 }[m[2]];
  return Math.round(Number(m[1]) * scale * 100) / 100;
}

/**
 * `loadRun` with wrk instead of autocannon, for rows where the load generator's own CPU would decide the
 * result: on a 2-core machine autocannon takes ~0.4 ms of CPU per request from the cores the server is
 * measured on (bench/workers.mjs). Same result shape. GET only.
 */
export async function wrkRun({ base, pid, path, connections = 20, duration = 10 }) {
  const pids = [pid].flat();
  const cpuOf = () => pids.reduce((sum, p) => sum + cpuMicros(p), 0);
  const args = ['-t1', `-c${connections}`, `-d${duration}s`, '--latency', new URL(path, base).href];
  const cpuBefore = cpuOf();
  const out = await new Promise((resolve, reject) => execFile('wrk', args, (err, stdout) => (err ? reject(err) : resolve(stdout))));
  const cpu = cpuOf() - cpuBefore;
  const requests = Number(/(\d+) requests in/.exec(out)?.[1] ?? 0);
  const socketErrors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out);
  const failed = Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0);
  return {
    requests,
    rps: Math.round(Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? 0)),
    cpuUsPerReq: requests > 0 ? Math.round(cpu / requests) : 0,
    serverCpuPct: Math.round((cpu / (duration * 1_000_000)) * 100),
    p50: wrkMs(/50%\s+(\S+)/.exec(out)?.[1]),
    p99: wrkMs(/99%\s+(\S+)/.exec(out)?.[1]),
    statuses: { '2xx': requests - failed, ...(failed ? { 'other': failed } : {}) },
    errors: socketErrors ? socketErrors.slice(1).reduce((a, b) => a + Number(b), 0) : 0,
  };
}
