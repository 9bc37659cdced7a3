import os from 'node:os';
import path from 'node:path';
import { defineConfig, devices } from '@playwright/test';

const port = Number(process.env.E2E_PORT ?? 4390);
// The server's data folder: specs read the mail outbox (DATA_DIR/outbox) from here.
export const E2E_DATA_DIR = process.env.E2E_DATA_DIR ?? path.join(os.tmpdir(), `agency-e2e-${port}`);
process.env.E2E_DATA_DIR = E2E_DATA_DIR;
const ADMIN_SPECS = /\/admin-[^/]*\.spec\.ts$/;
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export default defineConfig({
  testDir: 'tests/e2e',
  testMatch: '**/*.spec.ts',
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  reporter: process.env.CI ? [['list']] : [['list'], ['html', { open: 'never' }]],
  timeout: 30_000,
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: chromium,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--no-first-run',
        '--disable-sync',
        '--disable-quic',
      ],
    },
  },
  projects: [
    // Signs up the first user (who becomes admin) and a member, verified through the outbox, and saves
    // their sessions for the specs that need them.
    { name: 'accounts', testMatch: /accounts\.setup\.ts$/, use: { ...devices['Desktop Chrome'] } },
    { name: 'chromium', use: { ...devices['Desktop Chrome'] }, dependencies: ['accounts'], testIgnore: ADMIN_SPECS },
    // The admin studio's specs change the content every public spec counts on (services, order, texts):
    // they run after all of those, one file at a time, each restoring what it changes for the next.
    // `npm test` sets E2E_ADMIN_LAST=1 to make that an order; without it, running one admin spec does not
    // run every public spec first (Playwright runs a dependency project in full).
    {
      name: 'admin',
      use: { ...devices['Desktop Chrome'] },
      dependencies: process.env.E2E_ADMIN_LAST ? ['chromium'] : ['accounts'],
      testMatch: ADMIN_SPECS,
    },
  ],
  // The built server on its own throw-away data folder, seeded with the demo content.
  webServer: {
    command: 'node tests/e2e/support/start-server.mjs',
    url: `http://127.0.0.1:${port}/readyz`,
    timeout: 180_000,
    reuseExistingServer: false,
    env: { E2E_PORT: String(port), E2E_DATA_DIR },
  },
});
