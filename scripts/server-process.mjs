// How every launcher (npm start, npm run serve, the e2e suite, the benchmark) runs server.mjs, so the
// memory settings measured in the benchmark are the ones production gets.
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');

/**
 * - A small young generation: V8's default semi-spaces hold ~100 MB the server never needs (measured).
 * - An explicit old-space limit: V8 scales how far it lets the heap grow past the live set (~60 MB here) by
 *   the limit, and the default limit (a share of the machine's RAM) let it grow to ~230 MB under steady
 *   uncached renders. With 512 MB, far above anything the site keeps alive, it stays near 100 MB
 *   (measured: RSS 452 → 336 MB after 30 s of uncached landing renders, throughput unchanged).
 */
export const SERVER_NODE_ARGS = ['--max-semi-space-size=16', '--max-old-space-size=512', path.join(root, 'server.mjs')];

/**
 * glibc malloc:
 * - fewer arenas on a 2-core machine: ~55 MB less RSS under load, no throughput cost;
 * - blocks of 64 KB and more from mmap (the default threshold adapts upwards to 32 MB): an uncached page's
 *   bytes (~80 KB, twice per render: Astro's encoding and the Response's copy) then go back to the system
 *   when freed instead of fragmenting the heap. Measured on (c)'s renders, two runs each: RSS 434/452 →
 *   377/394 MB, throughput unchanged (683/778 → 719/798 req/s); 32 KB cost ~20 % throughput (decision 043).
 */
export const SERVER_ENV = { MALLOC_ARENA_MAX: '2', MALLOC_MMAP_THRESHOLD_: '65536' };
