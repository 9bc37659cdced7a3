// (o) Purge-to-fresh through Varnish (docs/decisions/024; issue 19: "the purge reaches Varnish in < 1 s"):
// the built site (CDN_PURGE=varnish) behind Debian's varnishd with docs/deploy/varnish.vcl, both on their
// own ports and data folder. Each edit: the landing page is a Varnish hit, the admin adds a FAQ (the
// Action over HTTP, through Varnish), and a visitor asking every 10 ms sees it; the time from the write's
// answer to the first fresh page is the measure. Skipped (n/a) where varnishd is not installed.
// Standalone or as row (o) of bench/run.mjs.
//
//   node bench/varnish-purge.mjs [--edits=20] [--dist=dist] [--json]
import path from 'node:path';
import { percentile } from './percentile.mjs';
import { addFaq, findProgram, firstAdminCookie, freePort, msUntilFresh, startSite, startVarnish } from '../tests/support/front-proxy.mjs';

export const PURGE_TARGET = { p99Ms: 1000 };


export async function varnishPurge({ edits = 20, distDir = 'dist', log = () => {} } = {}) {
  if (!findProgram('varnishd')) return { skipped: 'varnishd is not installed (apt-get install varnish)' };
  const varnishPort = await freePort();
  const front = `http://127.0.0.1:${varnishPort}`;
  log('starting the site and Varnish …');
  const site = await startSite({ distDir, env: { SITE_URL: front, CDN_PURGE: 'varnish', CDN_PURGE_URL: `${front}/`, TRUSTED_PROXY_IP_HEADER: 'x-real-ip' } });
  let varnish;
  try {
    varnish = await startVarnish({ backendPorts: [site.port], port: varnishPort });
    const cookie = await firstAdminCookie(varnish.base, site.dataDir);
    const times = [];
    let hitsBefore = 0;
    for (let i = 0; i < edits; i++) {
      await (await fetch(`${varnish.base}/`)).arrayBuffer();
      const before = await fetch(`${varnish.base}/`);
      await before.arrayBuffer();
      if (before.headers.get('x-cache') === 'HIT') hitsBefore++;
      const question = `Bench purge question ${i} ${Date.now()}?`;
      await addFaq(varnish.base, cookie, question);
      times.push(await msUntilFresh(varnish.base, '/', question));
    }
    const sorted = [...times].sort((a, b) => a - b);
    const round = (x) => Math.round(x * 10) / 10;
    return { edits, hitsBefore, p50Ms: round(percentile(sorted, 50)), p99Ms: round(percentile(sorted, 99)), maxMs: round(sorted.at(-1)) };
  } finally {
    await varnish?.stop();
    await site.stop();
  }
}

export function purgeRows(r, mark) {
  const target = `p99 < ${PURGE_TARGET.p99Ms} ms`;
  if (!r) return [['(o) purge to fresh through Varnish', 'n/a', target, mark(false)]];
  if (r.skipped) return [['(o) purge to fresh through Varnish', `n/a: ${r.skipped}`, target, '']];
  return [
    [
      `(o) purge to fresh through Varnish, ${r.edits} edits`,
      `p50 ${r.p50Ms} ms, p99 ${r.p99Ms} ms, max ${r.maxMs} ms; ${r.hitsBefore}/${r.edits} were hits before`,
      target,
      mark(r.p99Ms < PURGE_TARGET.p99Ms && r.hitsBefore === r.edits),
    ],
  ];
}

const isMain = process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename);
if (isMain) {
  const args = new Map(process.argv.slice(2).map((a) => a.replace(/^--/, '').split('=')).map(([k, v]) => [k, v ?? 'true']));
  try {
    const r = await varnishPurge({ edits: Number(args.get('edits') ?? 20), distDir: args.get('dist') ?? 'dist', log: (m) => process.stderr.write(`bench (varnish): ${m}\n`) });
    if (args.has('json')) console.log(JSON.stringify(r));
    else for (const row of purgeRows(r, (ok) => (ok ? 'PASS' : 'MISS'))) console.log(row.join('  '));
  } catch (err) {
    console.error(`bench (varnish): ${err instanceof Error ? err.message : err}`);
  }
  process.exit(0);
}
