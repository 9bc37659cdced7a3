// `npm start`: check the port, build when the sources are newer than the last build, prepare the database
// in its own process, then run the server under the supervisor (restarted after a crash). Each step's
// failure stops the chain with its own message.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { isBuildStale } from './build-freshness.mjs';
import { exitUnlessListenable } from './listen-address.mjs';
import { SERVER_ENV, SERVER_NODE_ARGS } from './server-process.mjs';
import { supervise } from './supervise.mjs';
import { workersOrExit } from './workers.mjs';

const root = path.resolve(import.meta.dirname, '..');
const env = { ...process.env, ASTRO_TELEMETRY_DISABLED: '1' };

function run(args, extraEnv = {}) {
  const result = spawnSync(process.execPath, args, { cwd: root, env: { ...env, ...extraEnv }, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

workersOrExit(); // WORKERS > 1 without PostgreSQL: one line, before anything is built or opened
await exitUnlessListenable();

const stamp = path.join(root, 'dist', '.build-stamp');
if (isBuildStale(root, stamp)) {
  console.log('Building the site…');
  run([path.join(root, 'node_modules', 'astro', 'bin', 'astro.mjs'), 'build']);
  fs.writeFileSync(stamp, new Date().toISOString());
}
run(['--import', 'tsx', path.join(root, 'scripts', 'migrate.ts')]);
supervise({ args: SERVER_NODE_ARGS, env: { ...env, ...SERVER_ENV }, cwd: root });
