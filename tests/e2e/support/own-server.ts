/**
 * A built server of a spec's own (its own settings, data folder and database), started the way production
 * starts it (a migrated database, then server.mjs with the production Node flags), for specs that stop,
 * signal or starve it. Its output is kept for assertions.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from '@playwright/test';
import { SERVER_ENV, SERVER_NODE_ARGS } from '../../../scripts/server-process.mjs';
import { freePort } from './free-port';

const root = path.resolve(import.meta.dirname, '../../..');

export interface OwnServer {
  url: string;
  /** Its data folder (the mail outbox is its `outbox/`); removed when it exits. */
  dataDir: string;
  child: ChildProcess;
  /** Everything it printed so far (stdout and stderr). */
  output(): string;
  /** Resolves with its exit code (or signal) when it exits. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stop(): Promise<void>;
}

/** A port for a spec's own server: next to the suite's E2E_PORT when one is given (a range kept for this run). */
export async function ownPort(offset: number): Promise<number> {
  return process.env.E2E_PORT ? Number(process.env.E2E_PORT) + offset : freePort();
}

/**
 * Leaves env's database as `npm start`'s migration step leaves it. On the embedded database with the demo
 * content, DATA_DIR becomes a copy of the run's migrated template (E2E_TEMPLATE_DIR, as every worker's
 * server starts from): a migration of its own costs about 8 s of a core, a tenth of the browser tests' CPU
 * when every such spec ran one. Otherwise (PostgreSQL, an empty site) `scripts/migrate.ts` runs.
 */
export function prepareData(env: NodeJS.ProcessEnv): void {
  const template = process.env.E2E_TEMPLATE_DIR;
  if (!env.DATABASE_URL && env.SEED_DEMO_CONTENT !== 'false' && template && fs.existsSync(template)) {
    fs.cpSync(template, env.DATA_DIR!, { recursive: true });
    return;
  }
  const migrate = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/migrate.ts'], { cwd: root, env, encoding: 'utf8' });
  expect(migrate.status, migrate.stderr).toBe(0);
}

export async function startOwnServer(port: number, settings: NodeJS.ProcessEnv = {}): Promise<OwnServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agency-own-server-'));
  const url = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', SITE_URL: url, LOG_LEVEL: 'warn', ASTRO_TELEMETRY_DISABLED: '1', ...settings };
  if (!settings.DATABASE_URL) delete env.DATABASE_URL;
  prepareData(env);
  const child = spawn(process.execPath, SERVER_NODE_ARGS, { cwd: root, env: { ...env, ...SERVER_ENV }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  void exited.then(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  await expect
    .poll(async () => (await fetch(`${url}/readyz`).catch(() => undefined))?.status, { timeout: 90_000, message: output })
    .toBe(200);
  return {
    url,
    dataDir,
    child,
    output: () => output,
    exited,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** The value of one sample in a Prometheus text exposition (the sum when several label sets match). */
export function metricValue(text: string, name: string, labels: Record<string, string> = {}): number {
  let sum = 0;
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(\{[^}]*\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const set = match[2] ?? '';
    if (Object.entries(labels).every(([k, v]) => set.includes(`${k}="${v}"`))) sum += Number(match[3]);
  }
  return sum;
}
