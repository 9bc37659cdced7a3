// Page-view ingestion (issue 10: ≥ 1,000 beacons/s on this 2-core machine, no error): the built server on a
// fresh data folder, POST /api/visits beacons from many simulated visitors (each its own address through the
// trusted proxy header, a realistic user agent and this site's Origin) at a fixed concurrency for N seconds,
// then the server is stopped (SIGTERM: it flushes its buffered counts before closing the database) and the
// counts in the database must equal what was answered 204. Standalone or as row (j) of bench/run.mjs.
//
//   node bench/visits-ingest.mjs [--duration=10] [--concurrency=32] [--dist=dist] [--json]
import { spawnSync } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import { halt, startBenchServer } from './bench-server.mjs';

export const VISITS_TARGET = { beaconsPerSecond: 1000, errors: 0 };

const root = path.resolve(import.meta.dirname, '..');
const args = new Map(process.argv.slice(2).map((a) => a.replace(/^--/, '').split('=')).map(([k, v]) => [k, v ?? 'true']));
const CLIENT_IP_HEADER = 'x-bench-client-ip';
const ADDRESSES = 5000;

const USER_AGENTS = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (Linux; Android 15; Pixel 9) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
  'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0',
];
const WARM_UP_UA = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
const PATHS = ['/', '/services', '/packages', '/articles', '/demos', '/free-audit', '/service/lead-follow-up', '/article/how-to-answer-leads-fast'];
const ENTRIES = [
  { r: 'https://www.google.com/', host: 'google.com' },
  { r: 'https://www.linkedin.com/feed/', host: 'linkedin.com', s: 'linkedin', m: 'social', c: 'spring' },
  { r: '', host: '', s: 'newsletter', m: 'email', c: 'november' },
  { r: '', host: '' },
];

function log(msg) {
  process.stderr.write(`bench (visits): ${msg}\n`);
}

/** The i-th beacon: which visitor (address + browser) sends which view. Deterministic, so it can be tallied. */
function beaconOf(i, base) {
  const address = i % ADDRESSES;
  const ua = USER_AGENTS[address % USER_AGENTS.length];
  // A visitor's first view of the run enters the site; the later ones are internal navigations.
  const entry = i < ADDRESSES ? ENTRIES[address % ENTRIES.length] : undefined;
  const body = {
    p: PATHS[i % PATHS.length],
    r: entry ? entry.r : `${base}/`,
    ...(entry?.s ? { s: entry.s, m: entry.m, c: entry.c } : {}),
    w: [390, 412, 820, 1280, 1440, 1920][address % 6],
  };
  return { address: `198.18.${Math.floor(address / 250)}.${(address % 250) + 1}`, ua, body: JSON.stringify(body), visit: Boolean(entry) };
}

function post(agent, base, port, beacon) {
  return new Promise((resolve) => {
    const started = performance.now();
    const req = http.request(
      {
        agent,
        host: '127.0.0.1',
        port,
        path: '/api/visits',
        method: 'POST',
        headers: {
          origin: base,
          'content-type': 'text/plain;charset=UTF-8',
          'content-length': Buffer.byteLength(beacon.body),
          'user-agent': beacon.ua,
          'sec-fetch-site': 'same-origin',
          [CLIENT_IP_HEADER]: beacon.address,
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode, ms: performance.now() - started }));
      },
    );
    req.on('error', () => resolve({ status: 0, ms: performance.now() - started }));
    req.setTimeout(10_000, () => req.destroy());
    req.end(beacon.body);
  });
}

/**
 * `concurrency` loops, each sending its next beacon when the previous one is answered, until `seconds` have
 * passed: nothing is in flight when it returns, so every beacon has a known answer.
 */
async function fire(base, port, seconds, concurrency, userAgent) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const latencies = [];
  const statuses = new Map();
  const expected = { views: 0, visits: 0, visitors: new Set() };
  let next = 0;
  const deadline = performance.now() + seconds * 1000;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < deadline) {
        const beacon = beaconOf(next++, base);
        if (userAgent) beacon.ua = userAgent;
        const { status, ms } = await post(agent, base, port, beacon);
        latencies.push(ms);
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
        if (status === 204) {
          expected.views += 1;
          if (beacon.visit) expected.visits += 1;
          expected.visitors.add(`${beacon.address} ${beacon.ua}`);
        }
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const at = (q) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] * 10) / 10;
  const sent = latencies.length;
  return {
    sent,
    seconds: Math.round(elapsed * 10) / 10,
    beaconsPerSecond: Math.round(sent / elapsed),
    p50Ms: at(0.5),
    p95Ms: at(0.95),
    p99Ms: at(0.99),
    statuses: Object.fromEntries(statuses),
    errors: sent - (statuses.get(204) ?? 0),
    expected: { views: expected.views, visits: expected.visits, visitors: expected.visitors.size },
  };
}

/** The stopped server's database, summed over the run's days (in a child: the TypeScript client needs tsx). */
function countsInDatabase(dataDir) {
  const r = spawnSync(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'visits-ingest.mjs'), `--count=${dataDir}`], {
    cwd: root,
    env: { ...process.env, LOG_LEVEL: 'warn' },
    encoding: 'utf8',
    timeout: 120_000,
  });
  if (r.status !== 0) throw new Error(`counting failed: ${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').pop());
}

async function count(dataDir) {
  const { openDatabase } = await import('../src/server/db/client.ts');
  const handle = await openDatabase({ kind: 'pglite', dataDir });
  try {
    const one = async (q) => (await handle.pglite.query(q)).rows[0];
    const out = {
      ...(await one('select coalesce(sum(views),0)::int as views, coalesce(sum(visits),0)::int as visits, coalesce(sum(visitors),0)::int as visitors from analytics_days')),
      pageViews: (await one('select coalesce(sum(views),0)::int as n from analytics_pages')).n,
      deviceViews: (await one('select coalesce(sum(views),0)::int as n from analytics_devices')).n,
      sourceVisits: (await one('select coalesce(sum(visits),0)::int as n from analytics_sources')).n,
      visitorHashes: (await one('select count(*)::int as n from analytics_visitors')).n,
    };
    process.stdout.write(`${JSON.stringify(out)}\n`);
  } finally {
    await handle.close();
  }
}

export async function visitsIngest({ seconds = 10, concurrency = 32, distDir = 'dist' } = {}) {
  // No demo content: only the beacons' counts go in. The trusted header gives each visitor its address.
  const bench = await startBenchServer({ distDir, seed: false, env: { TRUSTED_PROXY_IP_HEADER: CLIENT_IP_HEADER } });
  try {
    log(`server on ${bench.base}; warming up`);
    // A crawler's beacons take the whole path but the counting, so the database starts the measure empty.
    const warmUp = await fire(bench.base, bench.port, 2, concurrency, WARM_UP_UA);
    if (warmUp.errors > 0) throw new Error(`warm-up answers: ${JSON.stringify(warmUp.statuses)}`);
    log(`${seconds} s of beacons at concurrency ${concurrency} from ${ADDRESSES} addresses`);
    const result = await fire(bench.base, bench.port, seconds, concurrency);
    // SIGTERM writes the counts held in memory; then the data folder is read by another process.
    await halt(bench.server);
    const stored = countsInDatabase(bench.dataDir);
    return { ...result, stored };
  } finally {
    await bench.stop();
  }
}

/** Whether the stored counts are exactly what was answered 204. */
export function countsMatch(r) {
  const { stored, expected } = r;
  return (
    stored.views === expected.views &&
    stored.visits === expected.visits &&
    stored.visitors === expected.visitors &&
    stored.pageViews === expected.views &&
    stored.deviceViews === expected.views &&
    stored.sourceVisits === expected.visits &&
    stored.visitorHashes === expected.visitors
  );
}

const isMain = process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename);
if (isMain && args.has('count')) {
  await count(args.get('count'));
} else if (isMain) {
  const seconds = Math.min(Math.max(Number(args.get('duration') ?? 10), 3), 60);
  const concurrency = Math.min(Math.max(Number(args.get('concurrency') ?? 32), 1), 256);
  const r = await visitsIngest({ seconds, concurrency, distDir: args.get('dist') ?? 'dist' });
  if (args.has('json')) {
    console.log(JSON.stringify({ ...r, countsMatch: countsMatch(r) }));
  } else {
    const ok = r.beaconsPerSecond >= VISITS_TARGET.beaconsPerSecond && r.errors === VISITS_TARGET.errors;
    console.log(`${r.sent} beacons in ${r.seconds} s: ${r.beaconsPerSecond} beacons/s, p50 ${r.p50Ms} ms, p95 ${r.p95Ms} ms, p99 ${r.p99Ms} ms`);
    console.log(`answers ${JSON.stringify(r.statuses)}, ${r.errors} errors; target >= ${VISITS_TARGET.beaconsPerSecond}/s, 0 errors: ${ok ? 'PASS' : 'MISS'}`);
    console.log(`expected ${JSON.stringify(r.expected)}`);
    console.log(`stored   ${JSON.stringify(r.stored)}`);
    console.log(`counts in the database equal the beacons answered 204: ${countsMatch(r) ? 'yes' : 'NO'}`);
  }
}
