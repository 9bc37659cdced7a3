// Where a server's CPU goes: reads a V8 CPU profile (`node --cpu-prof`, a .cpuprofile file) and lists the
// top consumers by self time, per function and per package or part (a dependency in node_modules, Node's
// own internals, the site's server chunks, the garbage collector). `npm run bench` prints it for uncached
// renders; on its own:
//
//   node bench/cpu-profile.mjs FILE.cpuprofile [--top=15] [--skip=SECONDS]
import fs from 'node:fs';
import path from 'node:path';

/** The package or part a script URL belongs to. */
export function partOf(url, functionName) {
  if (!url) {
    if (functionName === '(garbage collector)') return 'garbage collection';
    if (functionName === '(idle)' || functionName === '(program)') return functionName;
    return 'V8 built-ins';
  }
  if (url.startsWith('node:')) return `node:${url.slice(5).split('/')[0] === 'internal' ? url.slice(5).split('/').slice(0, 2).join('/') : url.slice(5)}`;
  const modules = url.lastIndexOf('/node_modules/');
  if (modules >= 0) {
    const rest = url.slice(modules + '/node_modules/'.length).split('/');
    return rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0];
  }
  if (/\/dist[^/]*\/server\//.test(url)) return 'site (server build)';
  return path.basename(url);
}

/**
 * Self time per function and per part, in ms, with the profile's total (idle excluded). `skipSeconds`: the
 * first seconds of the profile are left out (the process starting: compiling modules, migrations).
 */
export function summarizeProfile(profile, { skipSeconds = 0 } = {}) {
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const selfUs = new Map();
  const { samples, timeDeltas } = profile;
  let at = 0;
  for (let i = 0; i < samples.length; i++) {
    at += timeDeltas[i] ?? 0;
    if (at < skipSeconds * 1e6) continue;
    selfUs.set(samples[i], (selfUs.get(samples[i]) ?? 0) + (timeDeltas[i] ?? 0));
  }
  const byFunction = new Map();
  const byPart = new Map();
  let totalUs = 0;
  for (const [id, us] of selfUs) {
    const { callFrame } = nodes.get(id);
    const part = partOf(callFrame.url, callFrame.functionName);
    if (part === '(idle)') continue;
    totalUs += us;
    const where = callFrame.url ? `${part} ${path.basename(callFrame.url)}:${callFrame.lineNumber + 1}` : part;
    const name = `${callFrame.functionName || '(anonymous)'}  ${where}`;
    byFunction.set(name, (byFunction.get(name) ?? 0) + us);
    byPart.set(part, (byPart.get(part) ?? 0) + us);
  }
  const ranked = (map) =>
    [...map].sort((a, b) => b[1] - a[1]).map(([name, us]) => ({ name, ms: Math.round(us / 1000), share: totalUs ? Math.round((us / totalUs) * 1000) / 10 : 0 }));
  return { totalMs: Math.round(totalUs / 1000), byPart: ranked(byPart), byFunction: ranked(byFunction) };
}

export function profileLines(summary, top = 12) {
  const line = (r) => `${String(r.share).padStart(5)} %  ${String(r.ms).padStart(6)} ms  ${r.name}`;
  return [
    `CPU ${summary.totalMs} ms (idle excluded); by part:`,
    ...summary.byPart.slice(0, top).map(line),
    'by function (self time):',
    ...summary.byFunction.slice(0, top).map(line),
  ];
}

const isMain = process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename);
if (isMain) {
  const [file, ...rest] = process.argv.slice(2);
  const option = (name, fallback) => Number(rest.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback);
  if (!file) {
    console.error('usage: node bench/cpu-profile.mjs FILE.cpuprofile [--top=15] [--skip=SECONDS]');
    process.exit(2);
  }
  const summary = summarizeProfile(JSON.parse(fs.readFileSync(file, 'utf8')), { skipSeconds: option('skip', 0) });
  for (const l of profileLines(summary, option('top', 15))) console.log(l);
}
