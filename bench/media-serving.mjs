// (m) Images from the database at about the cost of a static file (docs/decisions/019): a ~200 KB photo,
// imported as an upload stores it, served hot at /media/{hash}.webp, side by side with the same bytes as a
// built static file and with /favicon.svg (row (a)); then the 304 a browser gets when it revalidates, next to
// a static file's 304. Server CPU per request is the measure (the load generator shares the CPUs). Its own
// server and data folder. Standalone or as row (m) of bench/run.mjs.
//
//   node bench/media-serving.mjs [--duration=10] [--dist=dist] [--json]
import fs from 'node:fs';
import path from 'node:path';
import { removeOnExit, startBenchServer } from './bench-server.mjs';
import { benchPhoto } from './fixtures.mjs';
import { loadRun } from './load-run.mjs';

/** A hot image may cost the server at most this much more CPU per request than the same bytes as a static file. */
export const MEDIA_TARGET = { cpuRatio: 1.5 };

const root = path.resolve(import.meta.dirname, '..');
const STATIC_PHOTO = 'bench-photo.webp';

/**
 * The static twin is written into the build only while the server starts (it reads built files into memory
 * then) and removed at once, so no build keeps it.
 */
async function serverWithPhoto(distDir, photo) {
  const twin = path.join(root, distDir, 'client', STATIC_PHOTO);
  fs.writeFileSync(twin, photo.bytes);
  const removeTwin = removeOnExit(twin);
  try {
    return await startBenchServer({ distDir, content: { media: [photo.record] } });
  } finally {
    removeTwin();
  }
}

export async function mediaServing({ seconds = 10, connections = 20, distDir = 'dist', log = () => {} } = {}) {
  const photo = await benchPhoto();
  const started = await serverWithPhoto(distDir, photo);
  const { base } = started;
  const pid = started.server.pid;
  const mediaPath = `/media/${photo.record.id}.webp`;
  try {
    const first = await fetch(`${base}${mediaPath}`);
    const served = Buffer.from(await first.arrayBuffer());
    if (first.status !== 200 || !served.equals(photo.bytes)) throw new Error(`${mediaPath} answered ${first.status} with ${served.length} bytes`);
    const staticRes = await fetch(`${base}/${STATIC_PHOTO}`);
    const staticEtag = staticRes.headers.get('etag');
    if (staticRes.status !== 200 || (await staticRes.arrayBuffer()).byteLength !== photo.bytes.length) throw new Error('the static twin is not served');

    const run = (p, headers) => loadRun({ base, pid, path: p, headers, connections, duration: seconds });
    log('warming up');
    await loadRun({ base, pid, path: mediaPath, connections, duration: 2 });
    await loadRun({ base, pid, path: `/${STATIC_PHOTO}`, connections, duration: 2 });
    log('favicon');
    const favicon = await run('/favicon.svg');
    log(`static photo (${photo.bytes.length} bytes)`);
    const staticPhoto = await run(`/${STATIC_PHOTO}`);
    log('the same photo from /media');
    const media = await run(mediaPath);
    log('304s');
    const staticNotModified = await run(`/${STATIC_PHOTO}`, { 'if-none-match': staticEtag });
    const mediaNotModified = await run(mediaPath, { 'if-none-match': `"${photo.record.id}"` });
    return { bytes: photo.bytes.length, id: photo.record.id, favicon, staticPhoto, media, staticNotModified, mediaNotModified };
  } finally {
    await started.stop();
  }
}

const ratio = (a, b) => (b > 0 ? Math.round((a / b) * 100) / 100 : 0);

/** Hot image's and its 304's CPU per request over the static file's (same bytes, same kind of answer). */
export function mediaRatios(r) {
  return { hot: ratio(r.media.cpuUsPerReq, r.staticPhoto.cpuUsPerReq), notModified: ratio(r.mediaNotModified.cpuUsPerReq, r.staticNotModified.cpuUsPerReq) };
}

export function mediaPasses(r) {
  const { hot, notModified } = mediaRatios(r);
  const clean = [r.media, r.mediaNotModified].every((x) => x.errors === 0);
  return clean && r.media.statuses['200'] === r.media.requests && r.mediaNotModified.statuses['304'] === r.mediaNotModified.requests && hot <= MEDIA_TARGET.cpuRatio && notModified <= MEDIA_TARGET.cpuRatio;
}

/** The rows bench/run.mjs prints (and this file alone). */
export function mediaRows(r, mark) {
  const target = `CPU/req ≤ ${MEDIA_TARGET.cpuRatio}× the static file's`;
  if (!r) return [['(m) hot image /media/{hash}.webp', 'n/a', target, mark(false)]];
  const { hot, notModified } = mediaRatios(r);
  const line = (x) => `${x.rps} req/s, ${x.cpuUsPerReq} µs CPU/req, p99 ${x.p99} ms`;
  const kb = Math.round(r.bytes / 1024);
  return [
    [`(m) hot image, ${kb} KB WebP from /media`, `${line(r.media)} (${hot}× static)`, target, mark(mediaPasses(r))],
    [`    same ${kb} KB as a static file`, line(r.staticPhoto), 'reference', ''],
    ['    static /favicon.svg, as (a)', line(r.favicon), 'reference', ''],
    ['    304 for a held image (no read)', `${line(r.mediaNotModified)} (${notModified}× static 304: ${r.staticNotModified.cpuUsPerReq} µs)`, target, ''],
  ];
}

const isMain = process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename);
if (isMain) {
  const args = new Map(process.argv.slice(2).map((a) => a.replace(/^--/, '').split('=')).map(([k, v]) => [k, v ?? 'true']));
  const seconds = Math.min(Math.max(Number(args.get('duration') ?? 10), 3), 60);
  try {
    const r = await mediaServing({ seconds, distDir: args.get('dist') ?? 'dist', log: (m) => process.stderr.write(`bench (media): ${m}\n`) });
    if (args.has('json')) console.log(JSON.stringify(r));
    else for (const row of mediaRows(r, (ok) => (ok ? 'PASS' : 'MISS'))) console.log(row.join('  '));
  } catch (err) {
    console.error(`bench (media): ${err instanceof Error ? err.message : err}`);
  }
  process.exit(0);
}
