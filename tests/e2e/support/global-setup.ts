/**
 * Once per run, before any worker: a data folder migrated and seeded with the demo content, which every
 * worker's server starts from as a copy (start-server.mjs, E2E_TEMPLATE_DIR) instead of creating a database
 * of its own (about ten seconds of a core each time). Environment set here reaches the workers.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../../..');

export default function globalSetup() {
  const template = fs.mkdtempSync(path.join(os.tmpdir(), 'agency-e2e-template-'));
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: template, ASTRO_TELEMETRY_DISABLED: '1', LOG_LEVEL: 'warn' };
  delete env.DATABASE_URL;
  const migrate = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/migrate.ts'], { cwd: root, env, stdio: 'inherit' });
  if (migrate.status !== 0) throw new Error(`the e2e data folder could not be made (migrate exited ${migrate.status})`);
  process.env.E2E_TEMPLATE_DIR = template;
  return () => fs.rmSync(template, { recursive: true, force: true });
}
