// Whether a build folder is older than the sources it was built from (npm start and the benchmark
// rebuild only then).
import fs from 'node:fs';
import path from 'node:path';

const SOURCES = ['src', 'public', 'astro.config.ts', 'package.json'];

function newestMtime(target) {
  if (!fs.existsSync(target)) return 0;
  const stat = fs.statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of fs.readdirSync(target)) newest = Math.max(newest, newestMtime(path.join(target, entry)));
  return newest;
}

/** True when `stampFile` (written after each build) is missing or older than any source file. */
export function isBuildStale(root, stampFile) {
  return newestMtime(stampFile) < Math.max(...SOURCES.map((p) => newestMtime(path.join(root, p))));
}
