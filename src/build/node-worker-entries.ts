/**
 * `import workerUrl from './worker.ts?node-worker'`: the URL of a module to start as a Node worker thread
 * (the website audit's, decision 042). In the server build the module becomes an entry chunk of its own
 * (`workers/<name>.mjs`, with the chunks it shares) and the URL points at it from wherever the importing
 * code ends up; in dev and under Vitest it is the TypeScript file itself, which the caller starts with
 * tsx's loader.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Plugin } from 'vite';

const SUFFIX = '?node-worker';
const PREFIX = '\0node-worker:';
const placeholder = (ref: string) => `__AGENCY_NODE_WORKER_${ref}__`;
const PLACEHOLDER = /__AGENCY_NODE_WORKER_([A-Za-z0-9_$-]+?)__/g;

export function nodeWorkerEntries(): Plugin {
  let building = false;
  return {
    name: 'agency:node-worker-entries',
    // Before Vite's own resolver, which would take the query for an ordinary import of the file.
    enforce: 'pre',
    configResolved(config) {
      building = config.command === 'build';
    },
    async resolveId(source, importer) {
      if (!source.endsWith(SUFFIX)) return null;
      const resolved = await this.resolve(source.slice(0, -SUFFIX.length), importer, { skipSelf: true });
      if (!resolved) this.error(`node-worker: cannot resolve ${source}`);
      return PREFIX + resolved.id;
    },
    load(id) {
      if (!id.startsWith(PREFIX)) return null;
      const file = id.slice(PREFIX.length);
      if (!building) return `export default new URL(${JSON.stringify(pathToFileURL(file).href)});`;
      const ref = this.emitFile({ type: 'chunk', id: file, fileName: `workers/${path.basename(file).replace(/\.[cm]?[jt]s$/, '')}.mjs` });
      return `export default new URL(${JSON.stringify(placeholder(ref))}, import.meta.url);`;
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
