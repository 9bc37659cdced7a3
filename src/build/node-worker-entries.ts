/**
 * Modules the server starts as processes or threads of their own (the website audit's process, decision 042,
 * and its browser's watchdog thread, decision 056). Source code
 * names one as `/* node-worker *\/ new URL('./worker.ts', import.meta.url)`: run as it is (tsx, Vitest,
 * dev), that is the TypeScript file, which the caller starts with tsx's loader. In the build, this plugin
 * makes the file an entry chunk of its own (`workers/<name>.mjs`, sharing chunks with the rest) and points
 * the URL at it from wherever the calling code ends up.
 */
import path from 'node:path';
import type { Plugin } from 'vite';

const MARKED = /\/\* node-worker \*\/ new URL\((['"])(\.{1,2}\/[^'"]+)\1, import\.meta\.url\)/g;
const placeholder = (ref: string) => `__AGENCY_NODE_WORKER_${ref}__`;
const PLACEHOLDER = /__AGENCY_NODE_WORKER_([A-Za-z0-9_$-]+?)__/g;

export function nodeWorkerEntries(): Plugin {
  return {
    name: 'agency:node-worker-entries',
    apply: 'build',
    // Before Vite's own handling of `new URL(…, import.meta.url)`, which would copy the file as an asset.
    enforce: 'pre',
    async transform(code, id) {
      if (!code.includes('/* node-worker */')) return null;
      const found = [...code.matchAll(MARKED)];
      let rewritten = code;
      for (const [whole, , specifier] of found) {
        const resolved = await this.resolve(specifier!, id);
        if (!resolved) this.error(`node-worker: cannot resolve ${specifier} from ${id}`);
        const name = path.basename(resolved.id).replace(/\.[cm]?[jt]s$/, '');
        const ref = this.emitFile({ type: 'chunk', id: resolved.id, fileName: `workers/${name}.mjs` });
        rewritten = rewritten.replace(whole, `new URL(${JSON.stringify(placeholder(ref))}, import.meta.url)`);
      }
      return { code: rewritten, map: null };
    },
    renderChunk(code, chunk) {
      if (!code.includes('__AGENCY_NODE_WORKER_')) return null;
      const from = path.posix.dirname(chunk.fileName);
      const rewritten = code.replace(PLACEHOLDER, (_, ref: string) => {
        const relative = path.posix.relative(from, this.getFileName(ref));
        return relative.startsWith('.') ? relative : `./${relative}`;
      });
      return { code: rewritten, map: null };
    },
  };
}
