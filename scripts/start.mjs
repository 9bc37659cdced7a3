// `npm start`: build when the sources are newer than the last build, prepare the database in its own
// process, then run the server. Each step's failure stops the chain with its own message.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { SERVER_ENV, SERVER_NODE_ARGS } from './server-process.mjs';

const root = path.resolve(import.meta.dirname, '..');
const env = { ...process.env, ASTRO_TELEMETRY_DISABLED: '1' };

function newestMtime(target) {
  if (!fs.existsSync(target)) return 0;
  const stat = fs.statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of fs.readdirSync(target)) newest = Math.max(newest, newestMtime(path.join(target, entry)));
  return newest;
}

function run(args, extraEnv = {}) {
  const result = spawnSync(process.execPath, args, { cwd: root, env: { ...env, ...extraEnv }, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

const stamp = path.join(root, 'dist', '.build-stamp');
const sources = ['src', 'public', 'astro.config.ts', 'package.json'].map((p) => newestMtime(path.join(root, p)));
if (newestMtime(stamp) < Math.max(...sources)) {
  console.log('Building the site…');
  run([path.join(root, 'node_modules', 'astro', 'bin', 'astro.mjs'), 'build']);
  fs.writeFileSync(stamp, new Date().toISOString());
}
run(['--import', 'tsx', path.join(root, 'scripts', 'migrate.ts')]);
run(SERVER_NODE_ARGS, SERVER_ENV);
