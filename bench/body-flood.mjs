// (n) Anonymous body floods (ARCHITECTURE: "who may call comes before what was sent"): while parallel
// connections post large bodies without a session — half with Content-Length, half chunked — a visitor's
// cached landing page must stay fast and the server's memory bounded. Three floods, each on a fresh server
// process over the same data folder (the last flood may have hurt the process):
//   1 MiB JSON to POST /api/lead-events (its own limit is 8 KB), 20 connections;
//   12 MiB url-encoded to POST /api/admin/media (admin only), 20 connections;
//   60 MB JSON to POST /api/admin/content/import (admin only), 4 connections (4 × 60 MB in flight already).
// The attacker runs in a child process (this file with --attack), so building and sending bodies does not
// slow the probe: autocannon GETs `/` from 10 connections at 200 requests/s (latency as a visitor sees it).
// Every flood is bounded in time and count, and aimed only at the loopback server started here.
//
//   node bench/body-flood.mjs [--duration=10] [--dist=dist] [--json]
import { spawn } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { killOnExit, startBenchServer } from './bench-server.mjs';
import { loadRun, rssMb } from './load-run.mjs';

export const FLOOD_TARGET = { p99Ms: 50, rssGrowthMb: 100 };

const MiB = 1024 * 1024;
const PROBE = { connections: 10, overallRate: 200 };

export const FLOODS = [
  { name: 'lead-events', label: '1 MiB JSON → /api/lead-events', path: '/api/lead-events', type: 'application/json', bytes: MiB, connections: 20, maxRequests: 4000 },
  { name: 'media-upload', label: '12 MiB form → /api/admin/media', path: '/api/admin/media', type: 'application/x-www-form-urlencoded', bytes: 12 * MiB, connections: 20, maxRequests: 200 },
  { name: 'content-import', label: '60 MB JSON → /api/admin/content/import', path: '/api/admin/content/import', type: 'application/json', bytes: 60_000_000, connections: 4, maxRequests: 24 },
];

// ---- The attacker (child process) ---------------------------------------------------------------------

/** Valid JSON of exactly `size` bytes: many small records, as costly to parse as a real file of that size. */
function jsonBody(size) {
  const head = '{"items":[';
  const tail = '""]}';
  const item = (i) => `{"id":"r${String(i).padStart(7, '0')}","text":"lorem ipsum dolor sit amet, consectetur adipiscing elit"},`;
  const itemBytes = item(0).length;
  const parts = [head];
  let length = head.length;
  for (let i = 0; length + itemBytes + tail.length <= size; i++) {
    parts.push(item(i));
    length += itemBytes;
  }
  // The last element is a string padded to the exact size.
  parts.push(`"${'x'.repeat(size - length - tail.length)}${tail.slice(1)}`);
  return Buffer.from(parts.join(''));
}

/** A url-encoded form of exactly `size` bytes: many fields of 100 characters. */
function formBody(size) {
  const parts = [];
  let length = 0;
  for (let i = 0; length + 110 + 10 <= size; i++) {
    const field = `f${String(i).padStart(7, '0')}=${'v'.repeat(100)}&`;
    parts.push(field);
    length += field.length;
  }
  parts.push(`last=${'v'.repeat(size - length - 5)}`);
  return Buffer.from(parts.join(''));
}

const CHUNK = 64 * 1024;

/** One post; its outcome is the status code, or the socket error when the server cut it off. */
function post({ port, path: target, origin, type, body, chunked }) {
  return new Promise((resolve) => {
    let settled = false;
    const headers = { origin, 'content-type': type, ...(chunked ? {} : { 'content-length': body.length }) };
    const req = http.request({ host: '127.0.0.1', port, path: target, method: 'POST', headers, agent: false });
    const done = (outcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.destroy();
      resolve(outcome);
    };
    const timer = setTimeout(() => done('timeout'), 15_000);
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => done(String(res.statusCode)));
      res.on('error', () => done(String(res.statusCode)));
    });
    req.on('error', (err) => done(err.code ?? 'error'));
    // Chunked: no Content-Length, the body in 64 KiB pieces (Node sends Transfer-Encoding: chunked).
    const source = chunked ? Readable.from((function* () { for (let o = 0; o < body.length; o += CHUNK) yield body.subarray(o, o + CHUNK); })()) : Readable.from([body]);
    pipeline(source, req).catch(() => {});
  });
}

async function attack({ port, origin, path: target, type, bytes, connections, maxRequests, seconds }) {
  const body = type === 'application/json' ? jsonBody(bytes) : formBody(bytes);
  if (body.length !== bytes) throw new Error(`body is ${body.length} bytes, not ${bytes}`);
  process.stdout.write('ready\n');
  const outcomes = {};
  let sent = 0;
  const started = performance.now();
  const deadline = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: connections }, async (_, c) => {
      while (performance.now() < deadline && sent < maxRequests) {
        sent += 1;
        const outcome = await post({ port, path: target, origin, type, body, chunked: c % 2 === 1 });
        const key = `${c % 2 === 1 ? 'chunked' : 'length'} ${outcome}`;
        outcomes[key] = (outcomes[key] ?? 0) + 1;
      }
    }),
  );
  process.stdout.write(`${JSON.stringify({ sent, seconds: Math.round((performance.now() - started) / 100) / 10, outcomes })}\n`);
}

// ---- The measure (parent) -----------------------------------------------------------------------------

/** Starts the attacker; resolves `ready` once its body is built, `result` when it is done (or killed). */
function startAttacker(flood, { port, base, seconds }) {
  const spec = { ...flood, port, origin: base, seconds };
  const child = killOnExit(spawn(process.execPath, [import.meta.filename, `--attack=${JSON.stringify(spec)}`], { stdio: ['ignore', 'pipe', 'inherit'] }));
  // Bounded whatever happens: the child is killed after its run plus the last requests' timeout.
  const guard = setTimeout(() => child.kill('SIGKILL'), (seconds + 30) * 1000);
  let out = '';
  let onReady;
  const ready = new Promise((resolve) => (onReady = resolve));
  child.stdout.on('data', (d) => {
    out += d;
    if (out.includes('ready\n')) onReady();
  });
  const result = new Promise((resolve) =>
    child.on('exit', () => {
      clearTimeout(guard);
      onReady();
      const last = out.trim().split('\n').pop();
      resolve(last && last !== 'ready' ? JSON.parse(last) : { sent: 0, outcomes: { 'attacker failed': 1 } });
    }),
  );
  return { ready, result };
}

async function floodRun(bench, flood, seconds, log) {
  log(`${flood.label}: fresh server process`);
  await bench.restart();
  const pid = bench.server.pid;
  // The landing page in the route cache, and the process settled, before the measure.
  await loadRun({ base: bench.base, pid, path: '/', ...PROBE, duration: 2 });
  const rssBefore = rssMb(pid);
  let rssPeak = rssBefore;
  const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, rssMb(pid) ?? 0)), 200);
  try {
    const attacker = startAttacker(flood, { port: bench.port, base: bench.base, seconds });
    await attacker.ready;
    const probe = await loadRun({ base: bench.base, pid, path: '/', ...PROBE, duration: seconds });
    const attack = await attacker.result;
    await new Promise((r) => setTimeout(r, 1000)); // what the server still holds after the last body
    const alive = bench.server.exitCode === null && bench.server.signalCode === null;
    return {
      ...flood,
      probe,
      attack,
      rssBeforeMb: rssBefore,
      rssPeakMb: rssPeak,
      rssGrowthMb: rssPeak - rssBefore,
      serverAlive: alive,
      serverExit: alive ? null : (bench.server.signalCode ?? bench.server.exitCode),
    };
  } finally {
    clearInterval(sampler);
  }
}

export async function bodyFlood({ seconds = 10, distDir = 'dist', log = () => {} } = {}) {
  const bench = await startBenchServer({ distDir });
  try {
    await loadRun({ base: bench.base, pid: bench.server.pid, path: '/', ...PROBE, duration: 2 });
    log('the landing page without a flood');
    const quiet = await loadRun({ base: bench.base, pid: bench.server.pid, path: '/', ...PROBE, duration: seconds });
    const floods = [];
    for (const flood of FLOODS) floods.push(await floodRun(bench, flood, seconds, log));
    return { probe: PROBE, quiet, floods };
  } finally {
    await bench.stop();
  }
}

export function floodPasses(f) {
  const probeOk = f.probe.errors === 0 && (f.probe.statuses['200'] ?? 0) === f.probe.requests;
  return f.serverAlive && probeOk && f.probe.p99 < FLOOD_TARGET.p99Ms && f.rssGrowthMb < FLOOD_TARGET.rssGrowthMb;
}

const outcomeText = (outcomes) =>
  Object.entries(outcomes)
    .sort(([, a], [, b]) => b - a)
    .map(([k, n]) => `${n}× ${k}`)
    .join(', ');

/** The rows bench/run.mjs prints (and this file alone). */
export function floodRows(r, mark) {
  const target = `/ p99 < ${FLOOD_TARGET.p99Ms} ms, RSS growth < ${FLOOD_TARGET.rssGrowthMb} MB`;
  if (!r) return [['(n) anonymous body floods', 'n/a', target, mark(false)]];
  return [
    [`(n) / during no flood (${r.probe.connections} conn., ${r.probe.overallRate} req/s)`, `p50 ${r.quiet.p50} ms, p99 ${r.quiet.p99} ms`, 'reference', ''],
    ...r.floods.map((f) => [
      `    ${f.label}, ${f.connections} conn.`,
      `/ p99 ${f.probe.p99} ms (${f.probe.errors} errors, ${f.probe.requests - (f.probe.statuses['200'] ?? 0)} not 200), RSS +${f.rssGrowthMb} MB (${f.rssBeforeMb} → ${f.rssPeakMb})` +
        `${f.serverAlive ? '' : `, SERVER DIED (${f.serverExit})`}; ${f.attack.sent} bodies: ${outcomeText(f.attack.outcomes)}`,
      target,
      mark(floodPasses(f)),
    ]),
  ];
}

const args = new Map(process.argv.slice(2).map((a) => a.replace(/^--/, '').split(/=(.*)/s)).map(([k, v]) => [k, v ?? 'true']));
const isMain = process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename);
if (isMain && args.has('attack')) {
  await attack(JSON.parse(args.get('attack')));
  process.exit(0);
} else if (isMain) {
  const seconds = Math.min(Math.max(Number(args.get('duration') ?? 10), 3), 60);
  try {
    const r = await bodyFlood({ seconds, distDir: args.get('dist') ?? 'dist', log: (m) => process.stderr.write(`bench (flood): ${m}\n`) });
    if (args.has('json')) console.log(JSON.stringify(r));
    else for (const row of floodRows(r, (ok) => (ok ? 'PASS' : 'MISS'))) console.log(row.join('  '));
  } catch (err) {
    console.error(`bench (flood): ${err instanceof Error ? err.message : err}`);
  }
  process.exit(0);
}
