// How every launcher (npm start, npm run serve, the e2e suite, the benchmark) runs server.mjs, so the
// memory settings measured in the benchmark are the ones production gets.
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');

/** A small young generation: V8's default semi-spaces hold ~100 MB the server never needs (measured). */
export const SERVER_NODE_ARGS = ['--max-semi-space-size=16', path.join(root, 'server.mjs')];

/** Fewer glibc malloc arenas on a 2-core machine: ~55 MB less RSS under load, no throughput cost. */
export const SERVER_ENV = { MALLOC_ARENA_MAX: '2' };
