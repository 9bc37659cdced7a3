/**
 * Astro's CSP support hashes the page's inline styles and scripts on every request (`createResult`:
 * `await generateCspDigest(style.children, …)`, a WebCrypto digest each): ~3 % of an uncached landing
 * render's CPU in the profile (issue 21), for texts fixed by the build. Those two calls are rewritten to
 * keep each text's digest. Other digests (server islands' per-request content) are left as they are.
 */
import type { Plugin } from 'vite';

/** The two per-request loops over the route's inline styles and scripts. */
const ROUTE_DIGEST = /await generateCspDigest\(((?:style|script)\.children), (cspAlgorithm)\)/g;

/** Kept per algorithm and text; the texts come from the build's manifest, so the map stays small. */
const HELPER = `
var __agencyCspDigests = new Map();
function __agencyCspDigestOnce(data, algorithm) {
	const key = algorithm + "\\0" + data;
	let digest = __agencyCspDigests.get(key);
	if (!digest) {
		digest = generateCspDigest(data, algorithm);
		__agencyCspDigests.set(key, digest);
		digest.catch(() => __agencyCspDigests.delete(key));
	}
	return digest;
}
`;

/** Astro's runtime chunk with the route digests kept; other code unchanged. */
export function keepRouteCspDigests(code: string): { code: string; rewritten: number } {
  let rewritten = 0;
  const replaced = code.replace(ROUTE_DIGEST, (_, data: string, algorithm: string) => {
    rewritten += 1;
    return `await __agencyCspDigestOnce(${data}, ${algorithm})`;
  });
  return rewritten ? { code: replaced + HELPER, rewritten } : { code, rewritten };
}

export function cspDigestsOnce(): Plugin {
  return {
    name: 'agency:csp-digests-once',
    apply: 'build',
    renderChunk(code) {
      if (!code.includes('async function generateCspDigest(')) return null;
      const { code: replaced, rewritten } = keepRouteCspDigests(code);
      // Astro's code changed under us: fail loudly rather than hash per request again unnoticed.
      if (rewritten !== 2) this.error(`csp-digests-once: rewrote ${rewritten} of the 2 per-request digest calls`);
      return { code: replaced, map: null };
    },
  };
}
