// `npm test`: type check and lint, unit + integration tests, then build and run the browser tests.
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const env = { ...process.env, ASTRO_TELEMETRY_DISABLED: '1' };
const bin = (name) => path.join(root, 'node_modules', '.bin', name);

const pgUrl = process.env.TEST_DATABASE_URL;
delete env.TEST_DATABASE_URL; // the main run is on embedded PGlite, like `npm start`

const steps = [
  ['type check', bin('astro'), ['check']],
  ['lint', bin('eslint'), ['.']],
  ['unit and integration tests (PGlite)', bin('vitest'), ['run']],
  // The same data-layer suite again on PostgreSQL, the production engine, when one is available.
  ...(pgUrl
    ? [['integration tests (PostgreSQL)', bin('vitest'), ['run', 'tests/integration'], { TEST_DATABASE_URL: pgUrl }]]
    : []),
  ['build', bin('astro'), ['build']],
  // The admin specs change the content the public specs count on: they run last (playwright.config.ts).
  // The shared server stays on PGlite; specs that run several processes on PostgreSQL (several-instances,
  // workers) create their own database on this server and are skipped without one.
  ['browser tests', bin('playwright'), ['test'], { E2E_ADMIN_LAST: '1', ...(pgUrl ? { TEST_DATABASE_URL: pgUrl } : {}) }],
];

for (const [label, command, args, extraEnv = {}] of steps) {
  console.log(`\n▶ ${label}`);
  const started = Date.now();
  const result = spawnSync(command, args, { cwd: root, env: { ...env, ...extraEnv }, stdio: 'inherit' });
  if (result.status !== 0) {
    console.error(`\n✖ ${label} failed`);
    process.exit(result.status ?? 1);
  }
  console.log(`✔ ${label} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
}
