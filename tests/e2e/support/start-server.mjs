// Starts the built site for the e2e suite on a fresh data folder with the demo content.
import { spawnSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SERVER_ENV, SERVER_NODE_ARGS } from '../../../scripts/server-process.mjs';

const root = path.resolve(import.meta.dirname, '../../..');
const dataDir = process.env.E2E_DATA_DIR ?? path.join(os.tmpdir(), 'agency-e2e');
fs.rmSync(dataDir, { recursive: true, force: true });
fs.mkdirSync(dataDir, { recursive: true });
const port = process.env.E2E_PORT ?? '4390';
const env = {
  ...process.env,
  DATA_DIR: dataDir,
  PORT: port,
  HOST: '127.0.0.1',
  SITE_URL: `http://127.0.0.1:${port}`,
  ASTRO_TELEMETRY_DISABLED: '1',
  LOG_LEVEL: 'warn',
  // Lets the rate-limit specs act as distinct clients; requests without the header use the socket address.
  TRUSTED_PROXY_IP_HEADER: 'x-real-ip',
  // The website check's fixture sites (tests/support/audit-fixture-sites.ts), which specs start on ports of
  // their own: these .test names reach 127.0.0.1 (tests only; the server warns at start).
  AUDIT_FIXTURE_HOSTS: 'good.test,bad.test,redirect.test,slow.test,bomb.test,big.test,pdf.test,error.test,missing.test,evil.test,hog.test',
  // The booking webhooks' secrets, as tests/support/booking-webhooks.ts signs with them.
  BOOKING_WEBHOOK_SECRET_CALCOM: 'calcom-test-secret-0123456789',
  // A chat reply the visitor was not there for is emailed after this many seconds (60 in production).
  CHAT_REPLY_MAIL_DELAY_SECONDS: '2',
};
// The checks add Lighthouse in the test machines' Chromium, as a server configured with one does.
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (fs.existsSync(chromium)) env.AUDIT_CHROMIUM_PATH = chromium;
delete env.DATABASE_URL;

// A copy of the run's migrated, seeded data folder (tests/e2e/support/global-setup.ts) when there is one;
// otherwise the database is made here.
const template = process.env.E2E_TEMPLATE_DIR;
if (template && fs.existsSync(template)) {
  fs.cpSync(template, dataDir, { recursive: true });
} else {
  const migrate = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/migrate.ts'], { cwd: root, env, stdio: 'inherit' });
  if (migrate.status !== 0) process.exit(migrate.status ?? 1);
}
const server = spawn(process.execPath, SERVER_NODE_ARGS, { cwd: root, env: { ...env, ...SERVER_ENV }, stdio: 'inherit' });
const stop = () => server.kill('SIGTERM');
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
server.on('exit', (code) => {
  fs.rmSync(dataDir, { recursive: true, force: true });
  process.exit(code ?? 0);
});
