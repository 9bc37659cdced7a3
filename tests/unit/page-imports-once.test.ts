import { describe, expect, it } from 'vitest';
import { importPagesOnce } from '../../src/build/page-imports-once';

const entry = [
  'var _page0 = () => import("./node_k7.mjs").then((n) => n.t);',
  'var _page1 = () => import("./index_Dg.mjs");',
  'var pageMap = /* @__PURE__ */ new Map([["src/pages/index.astro", _page1]]);',
].join('\n');

describe('page loaders of the server build', () => {
  it('are rewritten to keep their first import, so Node resolves each page module once', async () => {
    const { code, loaders } = importPagesOnce(entry);
    expect(loaders).toBe(2);
    expect(code).not.toMatch(/= \(\) => import/);
    expect(code).toContain('var pageMap = ');

    // Run the rewritten loaders with a counting import in place of the real one.
    let imports = 0;
    const fakeImport = (spec: string) => (imports++, Promise.resolve({ spec, t: `picked from ${spec}` }));
    const body = code.replaceAll('import(', 'fakeImport(').replace(/var pageMap[^\n]*/, 'return [_page0, _page1];');
    const [first, second] = new Function('fakeImport', body)(fakeImport) as (() => Promise<unknown>)[];
    const a = await second!();
    const b = await second!();
    expect(a).toBe(b);
    expect(await first!()).toBe('picked from ./node_k7.mjs');
    await first!();
    expect(imports).toBe(2);
  });

  it('leave other code alone', () => {
    const other = 'const x = () => import("./lazy.mjs");\nvar _pageX = 1;';
    expect(importPagesOnce(other)).toEqual({ code: other, loaders: 0 });
  });
});
