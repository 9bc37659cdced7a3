// `npm run bench`: throughput, latency, page weight, layout shift and memory of the built site, measured on
// loopback against a fresh data folder with the demo content. It reports numbers (PASS/MISS per target)
// and always exits 0: it is a measurement, not a test. Every step is bounded and it stops by itself.
//
//   node bench/run.mjs [--rebuild] [--duration=10]
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import autocannon from 'autocannon';
import { chromium } from 'playwright-core';
import { isBuildStale } from '../scripts/build-freshness.mjs';
import { BENCH_CLIENT_IP_HEADER, CHAT_LISTENER_TARGETS, chatListeners } from './chat-listeners.mjs';
import { benchArticle } from './fixtures.mjs';
import { countsMatch, VISITS_TARGET, visitsIngest } from './visits-ingest.mjs';
import { BOARD_TARGET_MS, isBoardRead, READS_TARGET_MS, serverP95 } from './admin-reads.mjs';
import { describeImport, IMPORT_TARGET, importPasses } from './firebase-import.mjs';
import { mediaRows, mediaServing } from './media-serving.mjs';
import { bodyFlood, floodRows } from './body-flood.mjs';
import { purgeRows, varnishPurge } from './varnish-purge.mjs';
import { crossInstance, crossInstanceRows } from './cross-instance.mjs';
import { workersBench, workersRows } from './workers.mjs';
import { loadAndFaults, loadFaultsRows } from './load-faults.mjs';
import { rendersBench, rendersProfileLines, rendersRows } from './renders.mjs';
import { SITE_AUDIT_WINDOW_SECONDS, siteAuditBench, siteAuditRows } from './site-audit.mjs';
import { sequenceRows } from './lead-sequences.mjs';
import { firstAdminCookie } from '../tests/support/front-proxy.mjs';
import { cpuMicros, rssMb } from './load-run.mjs';
import { SERVER_ENV, SERVER_NODE_ARGS } from '../scripts/server-process.mjs';
import { freePort } from './free-port.mjs';

const root = path.resolve(import.meta.dirname, '..');
const distDir = path.join(root, 'dist-bench');
const resultsDir = path.join(root, 'bench', 'results');
const args = new Map(process.argv.slice(2).map((a) => a.replace(/^--/, '').split('=')).map(([k, v]) => [k, v ?? 'true']));
const DURATION = Math.min(Math.max(Number(args.get('duration') ?? 10), 3), 60);
const CONNECTIONS = 20;
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const env = { ...process.env, ASTRO_TELEMETRY_DISABLED: '1', NODE_ENV: 'production' };
delete env.DATABASE_URL;

const TARGETS = {
  cachedRatio: 0.6,
  cachedP99Ms: 15,
  cachedCpuRatio: 1.5,
  jsKb: 80,
  cls: 0,
  rssMb: 400,
  adminListMs: 100,
  chatAnswerMs: 50,
};

// (g) the admin's article list with this many articles in the database.
const BENCH_ARTICLES = 1000;

// Whole-run guard: whatever happens, the server is stopped and the process ends. (m) to (r) start servers
// of their own and add about 12 minutes to the run.
const deadline = setTimeout(() => {
  console.error('bench: gave up after 40 minutes');
  cleanup();
  process.exit(0);
}, 40 * 60_000);
deadline.unref();

function log(msg) {
  process.stderr.write(`bench: ${msg}\n`);
}

function buildIfNeeded() {
  const stamp = path.join(distDir, '.build-stamp');
  if (args.has('rebuild') || isBuildStale(root, stamp)) {
    log('building into dist-bench/ …');
    const astro = path.join(root, 'node_modules', 'astro', 'bin', 'astro.mjs');
    const r = spawnSync(process.execPath, [astro, 'build', '--outDir', distDir], { cwd: root, env, stdio: ['ignore', 'ignore', 'inherit'] });
    if (r.status !== 0) throw new Error('astro build failed');
    fs.writeFileSync(stamp, new Date().toISOString());
  }
}

let server;
let dataDir;
/** (a2): the landing page's bytes as a built file, written into the bench build for the run. */
const STATIC_LANDING_COPY = 'bench-landing-copy.html';

function cleanup() {
  fs.rmSync(path.join(distDir, 'client', STATIC_LANDING_COPY), { force: true });
  if (server && server.exitCode === null) server.kill('SIGTERM');
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
}

async function startServer() {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agency-bench-'));
  const port = await freePort();
  const serverEnv = {
    ...env,
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    SITE_URL: `http://127.0.0.1:${port}`,
    SEED_DEMO_CONTENT: 'true',
    LOG_LEVEL: 'warn',
    APP_DIST_DIR: path.relative(root, distDir),
    // (i) gives each simulated widget its own client address through this header.
    TRUSTED_PROXY_IP_HEADER: BENCH_CLIENT_IP_HEADER,
  };
  log('creating the database with the demo content …');
  const migrate = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/migrate.ts'], { cwd: root, env: serverEnv, stdio: ['ignore', 'ignore', 'inherit'] });
  if (migrate.status !== 0) throw new Error('migration failed');
  importBenchArticles(serverEnv);
  server = spawn(process.execPath, SERVER_NODE_ARGS, { cwd: root, env: { ...serverEnv, ...SERVER_ENV }, stdio: ['ignore', 'ignore', 'inherit'] });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 120; i++) {
    if (server.exitCode !== null) throw new Error(`server exited with ${server.exitCode}`);
    try {
      if ((await fetch(`${base}/readyz`)).ok) return base;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error('server did not become ready within 60 s');
}

/**
 * Adds BENCH_ARTICLES articles through the content-import CLI (the same validation and transaction as an
 * owner's import), before the server holds the data folder.
 */
function importBenchArticles(serverEnv) {
  log(`importing ${BENCH_ARTICLES} articles …`);
  const articles = Array.from({ length: BENCH_ARTICLES }, (_, i) => ({
    ...benchArticle(i),
    createdAt: new Date(Date.UTC(2025, 0, 1) + i * 3_600_000).toISOString(),
  }));
  const file = path.join(dataDir, 'bench-articles.json');
  fs.writeFileSync(file, JSON.stringify({ format: 'agency-site-content', version: 1, articles }));
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/content-import.ts', file], { cwd: root, env: serverEnv, stdio: ['ignore', 'ignore', 'inherit'] });
  if (r.status !== 0) throw new Error('importing the bench articles failed');
}

/** Sequential server-side render times of an admin page (loopback wall time; one request at a time). */
async function adminPageTimes(base, cookie, pagePath, runs = 30) {
  const times = [];
  let status = 0;
  let rows = 0;
  for (let i = 0; i < runs + 3; i++) {
    const started = performance.now();
    const res = await fetch(`${base}${pagePath}`, { headers: { cookie } });
    const html = await res.text();
    const ms = performance.now() - started;
    status = res.status;
    rows = (html.match(/data-row=/g) ?? []).length;
    if (i >= 3) times.push(ms); // the first renders warm the JIT
  }
  times.sort((a, b) => a - b);
  const at = (q) => Math.round(times[Math.min(times.length - 1, Math.floor(q * times.length))] * 10) / 10;
  return { status, rows, p50: at(0.5), p95: at(0.95) };
}

/** (h) bench/chat-answer.mjs in its own process (it opens its own in-memory PGlite database). */
function chatAnswerTimes() {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'bench/chat-answer.mjs', '--json'], { cwd: root, env: { ...env, LOG_LEVEL: 'warn' }, encoding: 'utf8', timeout: 180_000 });
  if (r.status !== 0) throw new Error(`chat-answer bench exited with ${r.status}`);
  return JSON.parse(r.stdout.trim().split('\n').pop());
}

/** (k) bench/admin-reads.mjs in its own process (its own in-memory PGlite, and PostgreSQL when named). */
function adminReadTimes() {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'bench/admin-reads.mjs', '--json'], { cwd: root, env: { ...env, LOG_LEVEL: 'error' }, encoding: 'utf8', timeout: 300_000 });
  if (r.status !== 0) throw new Error(`admin-reads bench exited with ${r.status}`);
  return JSON.parse(r.stdout.trim().split('\n').pop());
}

/** (t) bench/lead-sequences.mjs in its own process (its own in-memory PGlite, and PostgreSQL when named). */
function leadSequenceRun() {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'bench/lead-sequences.mjs', '--json'], { cwd: root, env: { ...env, LOG_LEVEL: 'error' }, encoding: 'utf8', timeout: 1_200_000 });
  if (r.status !== 0) throw new Error(`lead-sequences bench exited with ${r.status}`);
  return JSON.parse(r.stdout.trim().split('\n').pop());
}

/** (l) bench/firebase-import.mjs in its own process (its own emulators and databases). */
function firebaseImportTimes() {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'bench/firebase-import.mjs', '--json'], { cwd: root, env: { ...env, LOG_LEVEL: 'error' }, encoding: 'utf8', timeout: 300_000 });
  if (r.status !== 0) throw new Error(`firebase-import bench exited with ${r.status}`);
  return JSON.parse(r.stdout.trim().split('\n').pop());
}

function importRows(result) {
  const target = `≥ ${IMPORT_TARGET.recordsPerSecond.toLocaleString('en')} records/s, total < ${IMPORT_TARGET.totalSeconds} s`;
  if (!result) return [['(l) Firebase import, 1,000 members', 'n/a', target, mark(false)]];
  return ['pglite', 'postgres']
    .filter((engine) => result[engine])
    .map((engine) => [
      `(l) Firebase import, ${result.members.toLocaleString('en')} members + ${result.pageViews.toLocaleString('en')} page views, ${engine === 'pglite' ? 'PGlite' : 'PostgreSQL'}`,
      describeImport(result, engine),
      target,
      mark(importPasses(result, engine)),
    ]);
}

/** One row per engine: the slowest page's server-time p95 (CPU on PGlite, wall on PostgreSQL), and every page's. */
function readRows(reads) {
  if (!reads) return [['(k) admin reads, 1M page-time rows, 10k users', 'n/a', `p95 < ${READS_TARGET_MS} ms`, mark(false)]];
  return ['pglite', 'postgres']
    .filter((engine) => reads[engine])
    .flatMap((engine) => {
      const engineName = engine === 'pglite' ? 'PGlite (CPU time)' : 'PostgreSQL (wall time)';
      const all = Object.entries(reads[engine].reads);
      const row = (label, times, target) => {
        const worst = Math.max(...times.map(([, t]) => serverP95(engine, t)));
        return [label, `slowest p95 ${worst} ms: ${times.map(([name, t]) => `${name.trim()} ${serverP95(engine, t)}`).join('; ')}`, `every p95 < ${target} ms`, mark(worst < target)];
      };
      return [
        row(`(k) admin reads on ${engineName}`, all.filter(([name]) => !isBoardRead(name)), READS_TARGET_MS),
        row(`(k) the pipeline board's five columns on ${engineName}`, all.filter(([name]) => isBoardRead(name)), BOARD_TARGET_MS),
      ];
    });
}

/** Peak RSS while load runs, sampled twice a second. */
let peakRss = 0;
function sampleRss() {
  const v = rssMb(server.pid);
  if (v && v > peakRss) peakRss = v;
}

async function load(url, { path: fixedPath, duration = DURATION } = {}) {
  const sampler = setInterval(sampleRss, 500);
  const cpuBefore = cpuMicros(server.pid);
  try {
    const result = await autocannon({
      url,
      connections: CONNECTIONS,
      duration,
      requests: [
        {
          method: 'GET',
          path: fixedPath,
        },
      ],
    });
    const cpu = cpuMicros(server.pid) - cpuBefore;
    return {
      rps: Math.round(result.requests.average),
      cpuUsPerReq: result.requests.total > 0 ? Math.round(cpu / result.requests.total) : 0,
      serverCpuPct: Math.round((cpu / (duration * 1_000_000)) * 100),
      p50: result.latency.p50,
      p99: result.latency.p99,
      non2xx: result.non2xx,
      errors: result.errors + result.timeouts,
    };
  } finally {
    clearInterval(sampler);
  }
}

/** Static import graph of the page's scripts: what a visitor's browser downloads to run `/`. */
async function javascriptWeight(base) {
  const html = await (await fetch(`${base}/`)).text();
  const head = /<head[^>]*>([\s\S]*?)<\/head>/i.exec(html)?.[1] ?? '';
  const blocking = [...head.matchAll(/<script\b([^>]*)>/gi)]
    .map((m) => m[1])
    .filter((attrs) => /\bsrc=/.test(attrs) && !/\b(defer|async)\b/.test(attrs) && !/type=["']?module/.test(attrs));
  const entries = new Set();
  for (const m of html.matchAll(/<script\b[^>]*\bsrc="([^"]+)"/gi)) entries.add(m[1]);
  for (const m of html.matchAll(/<link\b[^>]*rel="modulepreload"[^>]*href="([^"]+)"/gi)) entries.add(m[1]);
  for (const m of html.matchAll(/<link\b[^>]*href="([^"]+)"[^>]*rel="modulepreload"/gi)) entries.add(m[1]);
  // Islands load their component and framework renderer from attributes, not from <script src>.
  for (const m of html.matchAll(/\b(?:component-url|renderer-url|before-hydration-url)="([^"]+)"/gi)) if (m[1]) entries.add(m[1]);
  const seen = new Map();
  const queue = [...entries].map((u) => new URL(u, `${base}/`).href);
  while (queue.length > 0 && seen.size < 200) {
    const url = queue.shift();
    if (seen.has(url) || !url.startsWith(base)) continue;
    const res = await fetch(url);
    const body = Buffer.from(await res.arrayBuffer());
    seen.set(url, zlib.gzipSync(body, { level: 6 }).length);
    // Static imports only: dynamic import() chunks load on demand (e.g. when the chat opens).
    const text = body.toString('utf8');
    for (const m of text.matchAll(/(?:\bimport|\bfrom)\s*["']([^"']+\.m?js)["']/g)) queue.push(new URL(m[1], url).href);
  }
  const gzipBytes = [...seen.values()].reduce((a, b) => a + b, 0);
  return { files: seen.size, gzipKb: Math.round((gzipBytes / 1024) * 10) / 10, blocking: blocking.length };
}

async function cumulativeLayoutShift(base) {
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync', '--disable-quic'],
  });
  try {
    const out = {};
    for (const width of [390, 1280]) {
      const context = await browser.newContext({ viewport: { width, height: width < 768 ? 844 : 800 } });
      const page = await context.newPage();
      await page.addInitScript(() => {
        globalThis.__cls = 0;
        new PerformanceObserver((list) => {
          for (const e of list.getEntries()) if (!e.hadRecentInput) globalThis.__cls += e.value;
        }).observe({ type: 'layout-shift', buffered: true });
      });
      await page.goto(`${base}/`, { waitUntil: 'load', timeout: 30_000 });
      await page.waitForTimeout(3000);
      out[width] = Math.round((await page.evaluate(() => globalThis.__cls)) * 10000) / 10000;
      await context.close();
    }
    return out;
  } finally {
    await browser.close();
  }
}

const mark = (ok) => (ok ? 'PASS' : 'MISS');

let loadBefore = 0;

async function main() {
  [loadBefore] = os.loadavg();
  buildIfNeeded();
  // (c) first, on a server of its own with the route cache off: its landing page is also the static file
  // (a2) that the cached page (b) is compared with, byte for byte the same size.
  log('(c) uncached renders (its own server, the route cache off)');
  let renders;
  try {
    renders = await rendersBench({ seconds: DURATION, connections: CONNECTIONS, distDir: path.relative(root, distDir), log: (m) => log(`(c) ${m}`) });
  } catch (err) {
    log(`uncached renders not measured: ${err instanceof Error ? err.message : err}`);
  }
  const landingCopy = path.join(distDir, 'client', STATIC_LANDING_COPY);
  fs.writeFileSync(landingCopy, renders?.landingHtml ?? '');
  const base = await startServer();
  log(`server on ${base} (pid ${server.pid}); ${DURATION} s per load run, ${CONNECTIONS} connections`);

  // Warm both paths so JIT and the route cache are in their steady state before measuring.
  await load(base, { path: '/favicon.svg', duration: 2 });
  await load(base, { path: '/', duration: 2 });

  log('(a) static file');
  const staticFile = await load(base, { path: '/favicon.svg' });
  const staticLanding = renders ? await load(base, { path: `/${STATIC_LANDING_COPY}` }) : undefined;
  log('(b) cached landing page');
  const cached = await load(base, { path: '/' });
  const cacheHit = (await fetch(`${base}/`)).headers.get('x-astro-cache');
  const rssAfterCached = rssMb(server.pid);
  // (f) after the heaviest load: the uncached renders, on (c)'s server.
  const rssAfterLoad = renders?.rssAfter;
  log('(d) JavaScript weight');
  const js = await javascriptWeight(base);
  log('(e) layout shift in Chromium');
  let cls;
  try {
    cls = await cumulativeLayoutShift(base);
  } catch (err) {
    log(`CLS not measured: ${err instanceof Error ? err.message : err}`);
    cls = { 390: null, 1280: null };
  }

  log(`(g) admin article list with ${BENCH_ARTICLES} articles`);
  let adminList;
  let adminSearch;
  let cookie;
  try {
    cookie = await firstAdminCookie(base, dataDir);
    adminList = await adminPageTimes(base, cookie, '/admin/articles');
    adminSearch = await adminPageTimes(base, cookie, '/admin/articles?q=article%2099&sort=title&page=2');
  } catch (err) {
    log(`admin list not measured: ${err instanceof Error ? err.message : err}`);
  }

  log('(h) chat answer on PGlite');
  let chat;
  try {
    chat = chatAnswerTimes();
  } catch (err) {
    log(`chat answer not measured: ${err instanceof Error ? err.message : err}`);
  }

  log('(i) 100 open chat widgets');
  let listeners;
  try {
    listeners = await chatListeners({ base, pid: server.pid, cookie, log: (m) => log(`(i) ${m}`) });
  } catch (err) {
    log(`chat listeners not measured: ${err instanceof Error ? err.message : err}`);
  }

  log('(j) page-view beacons (its own server and data folder)');
  let visits;
  try {
    visits = await visitsIngest({ seconds: DURATION, concurrency: 32, distDir: path.relative(root, distDir) });
  } catch (err) {
    log(`page-view ingestion not measured: ${err instanceof Error ? err.message : err}`);
  }

  log('(k) admin reads with 1,000,000 page-time rows and 10,000 users');
  let reads;
  try {
    reads = adminReadTimes();
  } catch (err) {
    log(`admin reads not measured: ${err instanceof Error ? err.message : err}`);
  }

  log('(t) a follow-up sequence run over 10,000 enrolled people, two workers');
  let sequences;
  try {
    sequences = leadSequenceRun();
  } catch (err) {
    log(`sequence run not measured: ${err instanceof Error ? err.message : err}`);
  }

  log('(l) Firebase import of 1,000 members and 40,000 page views (offline emulators)');
  let firebaseImport;
  try {
    firebaseImport = firebaseImportTimes();
  } catch (err) {
    log(`Firebase import not measured: ${err instanceof Error ? err.message : err}`);
  }

  log('(m) a hot image from /media next to the same bytes as a static file (its own server)');
  let media;
  try {
    media = await mediaServing({ seconds: DURATION, connections: CONNECTIONS, distDir: path.relative(root, distDir), log: (m) => log(`(m) ${m}`) });
  } catch (err) {
    log(`media serving not measured: ${err instanceof Error ? err.message : err}`);
  }

  log('(n) anonymous body floods against a cached page (its own server)');
  let flood;
  try {
    flood = await bodyFlood({ seconds: DURATION, distDir: path.relative(root, distDir), log: (m) => log(`(n) ${m}`) });
  } catch (err) {
    log(`body floods not measured: ${err instanceof Error ? err.message : err}`);
  }

  log('(o) purge to fresh through Varnish (its own server and Varnish)');
  let purge;
  try {
    purge = await varnishPurge({ edits: 20, distDir: path.relative(root, distDir), log: (m) => log(`(o) ${m}`) });
  } catch (err) {
    log(`purge through Varnish not measured: ${err instanceof Error ? err.message : err}`);
  }

  log('(p) cross-instance invalidation: two servers on one PostgreSQL database (skipped without one)');
  let instances;
  try {
    instances = await crossInstance({ distDir: path.relative(root, distDir), log: (m) => log(`(p) ${m}`) });
  } catch (err) {
    log(`cross-instance invalidation not measured: ${err instanceof Error ? err.message : err}`);
  }

  log('(q) uncached renders with 1 and 2 worker processes on PostgreSQL (servers of their own)');
  let workers;
  try {
    workers = await workersBench({ seconds: DURATION, connections: CONNECTIONS, distDir: path.relative(root, distDir), log: (m) => log(`(q) ${m}`) });
  } catch (err) {
    log(`workers not measured: ${err instanceof Error ? err.message : err}`);
  }

  log('(r) load and faults: 2 instances behind nginx on a PostgreSQL of its own, 200 visitors for 60 s');
  let faults;
  try {
    faults = await loadAndFaults({ distDir: path.relative(root, distDir), log: (m) => log(`(r) ${m}`) });
  } catch (err) {
    log(`load and faults not measured: ${err instanceof Error ? err.message : err}`);
  }

  log('(s) the free audit\'s website check against the fixture sites (a server of its own)');
  let siteAudit;
  try {
    // `seconds`: the idle windows; the busy ones last as long as the checks (site-audit.mjs).
    siteAudit = await siteAuditBench({ distDir: path.relative(root, distDir), seconds: Math.min(DURATION, SITE_AUDIT_WINDOW_SECONDS), log: (m) => log(`(s) ${m}`) });
  } catch (err) {
    log(`website check not measured: ${err instanceof Error ? err.message : err}`);
  }

  const ratio = staticFile.rps > 0 ? cached.rps / staticFile.rps : 0;
  // Server CPU per request: what a hit costs the server, whatever the load generator manages to parse,
  // next to a static file of the same bytes (the landing page (c) rendered, served by server.mjs).
  const cpuRatio = staticLanding?.cpuUsPerReq > 0 ? cached.cpuUsPerReq / staticLanding.cpuUsPerReq : 0;
  const rows = [
    ['(a) static /favicon.svg', `${staticFile.rps} req/s, p99 ${staticFile.p99} ms`, '', ''],
    ['(a2) static file the size of /', staticLanding ? `${staticLanding.rps} req/s, p99 ${staticLanding.p99} ms, ${Math.round(Buffer.byteLength(renders.landingHtml) / 1024)} KB` : 'n/a', '', ''],
    [
      '(b) cached / (ratio to a)',
      `${cached.rps} req/s, p99 ${cached.p99} ms, ${Math.round(ratio * 100)}% (cache ${cacheHit})`,
      `≥ ${TARGETS.cachedRatio * 100}%, p99 ≤ ${TARGETS.cachedP99Ms} ms`,
      mark(ratio >= TARGETS.cachedRatio && cached.p99 <= TARGETS.cachedP99Ms),
    ],
    [
      '    server CPU per request, cached / vs a2',
      staticLanding
        ? `cached ${cached.cpuUsPerReq} µs, static ${staticLanding.cpuUsPerReq} µs (${Math.round(cpuRatio * 100) / 100}×), favicon ${staticFile.cpuUsPerReq} µs`
        : 'n/a',
      `≤ ${TARGETS.cachedCpuRatio}×`,
      mark(cpuRatio > 0 && cpuRatio <= TARGETS.cachedCpuRatio),
    ],
    ...rendersRows(renders, mark),
    [
      '(d) JavaScript for /',
      `${js.gzipKb} KB gzip in ${js.files} files, ${js.blocking} render-blocking`,
      `≤ ${TARGETS.jsKb} KB, 0 blocking`,
      mark(js.gzipKb <= TARGETS.jsKb && js.blocking === 0),
    ],
    [
      '(e) CLS 390 px / 1280 px',
      `${cls[390] ?? 'n/a'} / ${cls[1280] ?? 'n/a'}`,
      `${TARGETS.cls}`,
      mark(cls[390] === TARGETS.cls && cls[1280] === TARGETS.cls),
    ],
    ['(f) server RSS after load', `${rssAfterLoad} MB after (c)'s renders, ${rssAfterCached} MB after (b), peak ${peakRss} MB`, `≤ ${TARGETS.rssMb} MB`, mark(rssAfterLoad !== undefined && rssAfterLoad <= TARGETS.rssMb)],
    [
      `(g) /admin/articles, ${BENCH_ARTICLES} articles`,
      adminList
        ? `p50 ${adminList.p50} ms, p95 ${adminList.p95} ms (${adminList.status}, ${adminList.rows} rows); search+sort p50 ${adminSearch.p50} ms`
        : 'n/a',
      `p95 < ${TARGETS.adminListMs} ms`,
      mark(adminList?.status === 200 && adminList.p95 < TARGETS.adminListMs),
    ],
    [
      '(h) chat answer, 1000 articles + 100 FAQs',
      chat ? `p50 ${chat.p50} ms, p95 ${chat.p95} ms (CPU p95 ${chat.cpuP95} ms; ${chat.samples} answers, PGlite in-process)` : 'n/a',
      `p95 < ${TARGETS.chatAnswerMs} ms`,
      mark(chat !== undefined && chat.p95 < TARGETS.chatAnswerMs),
    ],
    [
      `(i) ${listeners?.listeners ?? 100} open chat widgets`,
      listeners
        ? `RSS +${listeners.rssGrowthMb} MB (${listeners.rssBeforeMb} → ${listeners.rssAfterMb}), CPU ${listeners.idleCpuMs} ms in ${listeners.idleSeconds} idle s, ` +
          (listeners.delivery ? `replies delivered ${listeners.delivery.delivered}/${listeners.listeners}, p95 ${listeners.delivery.p95Ms} ms` : 'replies not measured')
        : 'n/a',
      `< ${CHAT_LISTENER_TARGETS.rssGrowthMb} MB, idle CPU < ${CHAT_LISTENER_TARGETS.idleCpuMs} ms, delivery < ${CHAT_LISTENER_TARGETS.deliveryMs} ms`,
      mark(
        listeners !== undefined &&
          listeners.rssGrowthMb < CHAT_LISTENER_TARGETS.rssGrowthMb &&
          listeners.idleCpuMs < CHAT_LISTENER_TARGETS.idleCpuMs &&
          listeners.delivery?.delivered === listeners.listeners &&
          listeners.delivery.maxMs < CHAT_LISTENER_TARGETS.deliveryMs,
      ),
    ],
    [
      '(j) page-view beacons, 32 at once',
      visits
        ? `${visits.beaconsPerSecond} beacons/s, p95 ${visits.p95Ms} ms, ${visits.errors} errors; stored counts ${countsMatch(visits) ? 'equal' : 'DIFFER from'} the ${visits.expected.views} answered`
        : 'n/a',
      `≥ ${VISITS_TARGET.beaconsPerSecond.toLocaleString('en')} beacons/s, 0 errors`,
      mark(visits !== undefined && visits.beaconsPerSecond >= VISITS_TARGET.beaconsPerSecond && visits.errors === VISITS_TARGET.errors && countsMatch(visits)),
    ],
    ...readRows(reads),
    ...importRows(firebaseImport),
    ...mediaRows(media, mark),
    ...floodRows(flood, mark),
    ...purgeRows(purge, mark),
    ...crossInstanceRows(instances, mark),
    ...workersRows(workers, mark),
    ...loadFaultsRows(faults, mark),
    ...siteAuditRows(siteAudit, mark, TARGETS.rssMb),
    ...sequenceRows(sequences, mark),
  ];
  const errors = [staticFile, staticLanding, cached].filter(Boolean).reduce((a, r) => a + r.errors + r.non2xx, 0);
  const widths = [0, 1, 2, 3].map((i) => Math.max(...rows.map((r) => r[i].length), ['Measure', 'Result', 'Target', ''][i].length));
  const line = (r) => r.map((c, i) => c.padEnd(widths[i])).join('  ');
  console.log(`\n${line(['Measure', 'Result', 'Target', ''])}\n${line(widths.map((w) => '-'.repeat(w)))}`);
  for (const r of rows) console.log(line(r));
  for (const l of rendersProfileLines(renders)) console.log(l);
  const [load1] = os.loadavg();
  console.log(`\n${errors} failed or non-2xx responses during load. Node ${process.version}, ${os.cpus().length} CPUs, loopback.`);
  // The load generator shares the CPUs with the server: other busy processes lower every number.
  console.log(`Load average before the run ${loadBefore.toFixed(2)}, after ${load1.toFixed(2)} (other processes compete for the same CPUs).`);

  fs.mkdirSync(resultsDir, { recursive: true });
  const result = {
    at: new Date().toISOString(),
    node: process.version,
    cpus: os.cpus().length,
    loadAverageBefore: loadBefore,
    durationSeconds: DURATION,
    connections: CONNECTIONS,
    static: staticFile,
    cached: { ...cached, ratioToStatic: Math.round(ratio * 1000) / 1000, cacheHeader: cacheHit },
    staticLandingCopy: staticLanding ?? null,
    cachedCpuPerRequestToStatic: Math.round(cpuRatio * 1000) / 1000,
    uncachedRenders: renders ? { ...renders, landingHtml: undefined } : null,
    javascript: js,
    cls,
    rssMb: { afterLoad: rssAfterLoad, afterCachedLoad: rssAfterCached, peak: peakRss },
    adminArticleList: adminList ? { articles: BENCH_ARTICLES, list: adminList, searchSortPage2: adminSearch } : null,
    chatAnswer: chat ?? null,
    chatListeners: listeners ?? null,
    visitsIngest: visits ? { ...visits, countsMatch: countsMatch(visits) } : null,
    adminReads: reads ?? null,
    firebaseImport: firebaseImport ?? null,
    mediaServing: media ?? null,
    bodyFlood: flood ?? null,
    varnishPurge: purge ?? null,
    crossInstance: instances ?? null,
    workers: workers ?? null,
    loadAndFaults: faults ?? null,
    siteAudit: siteAudit ?? null,
    leadSequences: sequences ?? null,
    failedResponses: errors,
    targets: TARGETS,
  };
  fs.writeFileSync(path.join(resultsDir, 'latest.json'), `${JSON.stringify(result, null, 2)}\n`);
  log(`results written to ${path.relative(root, path.join(resultsDir, 'latest.json'))}`);
}

try {
  await main();
} catch (err) {
  console.error(`bench: ${err instanceof Error ? err.message : err}`);
} finally {
  // Let the server checkpoint and close its database before its folder is removed.
  if (server && server.exitCode === null) {
    const exited = new Promise((resolve) => server.once('exit', resolve));
    server.kill('SIGTERM');
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
  }
  cleanup();
}
process.exit(0);
