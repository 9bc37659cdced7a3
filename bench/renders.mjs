// (c) Uncached renders (issue 21): a server of the row's own with the route cache off (ROUTE_CACHE=false),
// so every request renders its page, as after an admin's save or for a page nobody asked for yet (the
// public reads and the landing page's sections are still kept once per change: decisions 039 and 041). The
// landing page, a list, a detail page, the articles and an article are measured one after the other; then
// the landing page again under Node's CPU profiler, whose top consumers are printed with the row, so the
// next regression is found in minutes. wrk when installed (a load generator in C: autocannon's own CPU,
// ~0.4 ms a request, comes out of the same two cores the server is measured on).
//
//   node bench/renders.mjs [--duration=10] [--dist=dist] [--json]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startBenchServer } from './bench-server.mjs';
import { profileLines, summarizeProfile } from './cpu-profile.mjs';
import { failedRequests, hasWrk, loadRun, rssMb, wrkRun } from './load-run.mjs';

/** The issue's targets for uncached landing renders. */
export const RENDERS_TARGET = { pglite: 500, postgres: 800 };
const PROFILE_SECONDS = 10;

/** The first link to a detail page on a list page ("/service/…", "/article/…"). */
async function firstLink(base, list, prefix) {
  const html = await (await fetch(`${base}${list}`)).text();
  return new RegExp(`href="(${prefix}[^"?#]+)"`).exec(html)?.[1];
}

export async function rendersBench({ seconds = 10, connections = 20, distDir = 'dist', log = () => {} }) {
  const generator = hasWrk() ? 'wrk' : 'autocannon';
  const run = generator === 'wrk' ? wrkRun : loadRun;
  const profileDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agency-bench-profile-'));
  const bench = await startBenchServer({ distDir, env: { ROUTE_CACHE: 'false' } });
  try {
    const pages = [
      ['/', '/'],
      ['a list', '/services'],
      ['a detail page', await firstLink(bench.base, '/services', '/service/')],
      ['the articles', '/articles'],
      ['an article', await firstLink(bench.base, '/articles', '/article/')],
    ].filter(([, p]) => p);
    const landingHtml = await (await fetch(`${bench.base}/`)).text();
    // JIT, the memos and whatever the first start leaves to do (the demo content's image variants): the
    // first seconds of renders are measurably slower than the rest.
    await run({ base: bench.base, pid: bench.server.pid, path: '/', connections, duration: 8 });
    const results = [];
    for (const [label, pagePath] of pages) {
      log(`${label}: ${pagePath}`);
      await run({ base: bench.base, pid: bench.server.pid, path: pagePath, connections, duration: 3 }); // JIT warm-up
      results.push({ label, path: pagePath, ...(await run({ base: bench.base, pid: bench.server.pid, path: pagePath, connections, duration: seconds })) });
    }
    const rssAfter = rssMb(bench.server.pid);
    log(`profiling ${PROFILE_SECONDS} s of landing renders`);
    bench.nodeArgs = ['--cpu-prof', `--cpu-prof-dir=${profileDir}`];
    const started = performance.now();
    await bench.restart();
    await run({ base: bench.base, pid: bench.server.pid, path: '/', connections, duration: 3 });
    // The process's start and the warm-up are left out: the profile's clock starts with the process.
    const skipSeconds = (performance.now() - started) / 1000;
    await run({ base: bench.base, pid: bench.server.pid, path: '/', connections, duration: PROFILE_SECONDS });
    await bench.restart(); // SIGTERM: the profile is written as the process exits
    const file = fs.readdirSync(profileDir).find((f) => f.endsWith('.cpuprofile'));
    const profile = file ? summarizeProfile(JSON.parse(fs.readFileSync(path.join(profileDir, file), 'utf8')), { skipSeconds }) : undefined;
    return { generator, pages: results, landingHtml, rssAfter, profile };
  } finally {
    await bench.stop();
    fs.rmSync(profileDir, { recursive: true, force: true });
  }
}

export function rendersRows(r, mark) {
  const target = `≥ ${RENDERS_TARGET.pglite} req/s`;
  if (!r) return [['(c) uncached / renders, PGlite', 'n/a', target, mark(false)]];
  const line = (x) => `${x.rps} req/s, p99 ${x.p99} ms, ${x.cpuUsPerReq} µs CPU/req${x.errors ? `, ${x.errors} errors` : ''}`;
  const [landing, ...others] = r.pages;
  return [
    ['(c) uncached / renders, PGlite', `${line(landing)} (${r.generator})`, target, mark(landing.rps >= RENDERS_TARGET.pglite && failedRequests(landing) === 0)],
    ...others.map((x) => [`    ${x.label} ${x.path}`, line(x), 'reference', failedRequests(x) ? 'MISS' : '']),
  ];
}

/** The profile's top consumers, printed below the table. */
export const rendersProfileLines = (r, top = 12) =>
  r?.profile ? [`Where the CPU of ${PROFILE_SECONDS} s of uncached / renders went (bench/cpu-profile.mjs):`, ...profileLines(r.profile, top).map((l) => `  ${l}`)] : [];

const isMain = process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename);
if (isMain) {
  const args = new Map(process.argv.slice(2).map((a) => a.replace(/^--/, '').split('=')).map(([k, v]) => [k, v ?? 'true']));
  const seconds = Math.min(Math.max(Number(args.get('duration') ?? 10), 3), 60);
  try {
    const r = await rendersBench({ seconds, distDir: args.get('dist') ?? 'dist', log: (m) => process.stderr.write(`bench (renders): ${m}\n`) });
    if (args.has('json')) console.log(JSON.stringify({ ...r, landingHtml: undefined }));
    else for (const line of [...rendersRows(r, (ok) => (ok ? 'PASS' : 'MISS')).map((row) => row.join('  ')), ...rendersProfileLines(r)]) console.log(line);
  } catch (err) {
    console.error(`bench (renders): ${err instanceof Error ? err.message : err}`);
  }
  process.exit(0);
}
