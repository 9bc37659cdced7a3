import { describe, expect, it } from 'vitest';
import { keepRouteCspDigests } from '../../src/build/csp-digests-once';

// The shape of Astro's runtime chunk around the two per-request loops (createResult).
const runtime = [
  'async function generateCspDigest(data, algorithm) { return digestNow(data, algorithm); }',
  'async function createResult(styles, scripts, cspAlgorithm) {',
  '  const extraStyleHashes = [], extraScriptHashes = [];',
  '  for (const style of styles) extraStyleHashes.push(await generateCspDigest(style.children, cspAlgorithm));',
  '  for (const script of scripts) extraScriptHashes.push(await generateCspDigest(script.children, cspAlgorithm));',
  '  const island = await generateCspDigest(content, cspAlgorithm);',
  '  return [extraStyleHashes, extraScriptHashes, island];',
  '}',
].join('\n');

describe('CSP digests of the server build', () => {
  it('are computed once per inline style or script, however many requests render the route', async () => {
    const { code, rewritten } = keepRouteCspDigests(runtime);
    expect(rewritten).toBe(2);
    const hashed: string[] = [];
    const digestNow = async (data: string, algorithm: string) => (hashed.push(data), `${algorithm}-${data.length}`);
    const createResult = new Function('digestNow', 'content', `${code}\nreturn createResult;`)(digestNow, 'per request') as (
      styles: { children: string }[],
      scripts: { children: string }[],
      algorithm: string,
    ) => Promise<[string[], string[], string]>;
    const styles = [{ children: 'body{margin:0}' }];
    const scripts = [{ children: 'console.log(1)' }];
    const first = await createResult(styles, scripts, 'SHA-256');
    const second = await createResult(styles, scripts, 'SHA-256');
    expect(second).toEqual(first);
    expect(first).toEqual([['SHA-256-14'], ['SHA-256-14'], 'SHA-256-11']);
    // The route's texts once; the per-request content (server islands) every time.
    expect(hashed).toEqual(['body{margin:0}', 'console.log(1)', 'per request', 'per request']);
    await createResult(styles, scripts, 'SHA-512');
    expect(hashed.filter((d) => d === 'body{margin:0}')).toHaveLength(2);
  });

  it('leave other code alone', () => {
    const other = 'async function generateCspDigest(data, algorithm) {}\nconst x = await generateCspDigest(content, cspAlgorithm);';
    expect(keepRouteCspDigests(other)).toEqual({ code: other, rewritten: 0 });
  });
});
