/**
 * Astro's server build maps every route to a loader, `var _page7 = () => import("./services_x.mjs")`, and
 * calls it on every request. The module itself is loaded once, but Node resolves the specifier again on
 * each call (the ESM loader's resolve, a package.json lookup): about 3 % of an uncached render's CPU in the
 * profile (issue 21). The loaders are rewritten to keep their first import's promise.
 */
import type { Plugin } from 'vite';

/** `var _page7 = () => import("./x.mjs");`, or with a `.then(…)` picking an export. */
const PAGE_LOADER = /\bvar (_page\d+) = \(\) => (import\("[^"\\]+"\)(?:\.then\([^;\n]*\))?);/g;

/** The server entry's page loaders, each importing once; other code unchanged. */
export function importPagesOnce(code: string): { code: string; loaders: number } {
  let loaders = 0;
  const rewritten = code.replace(PAGE_LOADER, (_, name: string, load: string) => {
    loaders += 1;
    return `var ${name} = ((loaded) => () => (loaded ??= ${load}))();`;
  });
  return { code: rewritten, loaders };
}

export function pageImportsOnce(): Plugin {
  return {
    name: 'agency:page-imports-once',
    apply: 'build',
    renderChunk(code) {
      if (!code.includes('var pageMap = ')) return null;
      const { code: rewritten, loaders } = importPagesOnce(code);
      // The build's shape changed under us: fail loudly rather than ship the per-request resolve again. (The
      // prerender pass has an entry with an empty page map: nothing to rewrite there.)
      const defined = code.match(/\bvar _page\d+ = /g)?.length ?? 0;
      if (loaders !== defined) this.error(`page-imports-once: rewrote ${loaders} of the server entry's ${defined} page loaders`);
      return loaders ? { code: rewritten, map: null } : null;
    },
  };
}
