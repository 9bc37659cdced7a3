import { defineConfig, devices } from '@playwright/test';
import { BROWSER_ARGS, BROWSER_PATH } from './tests/e2e/support/browsers';

const ADMIN_SPECS = /\/admin-[^/]*\.spec\.ts$/;

/**
 * Browser specs run side by side (issue 37): each worker process has a built server of its own, with its
 * own data folder, port and accounts (tests/e2e/support/fixtures.ts), so specs that write never meet. The
 * build is made once before (scripts/test.mjs, or `npx astro build`). E2E_WORKERS sets how many run at
 * once; the default is what measured fastest on a two-core machine (README, "Tests").
 */
const workers = Number(process.env.E2E_WORKERS ?? 2);

export default defineConfig({
  testDir: 'tests/e2e',
  testMatch: '**/*.spec.ts',
  // One migrated, seeded data folder that every worker's server starts from as a copy.
  globalSetup: './tests/e2e/support/global-setup.ts',
  // A spec file's tests run in order in one worker; files are spread over the workers.
  fullyParallel: false,
  workers,
  // One retry in CI; a test that needed it is listed at the end of the run as one to fix (scripts/test.mjs).
  retries: process.env.CI ? 1 : 0,
  reporter: process.env.CI
    ? [['list'], ['json', { outputFile: 'test-results/e2e-results.json' }]]
    : [['list'], ['html', { open: 'never' }], ['json', { outputFile: 'test-results/e2e-results.json' }]],
  timeout: 30_000,
  use: {
    // Recording a trace costs every test a screencast and DOM snapshots (a fifth of the browser run's CPU,
    // even when kept for failures only); in CI the retry of a failed test records one, locally a failure keeps its.
    trace: process.env.CI ? 'on-first-retry' : 'retain-on-failure',
    // Chromium's headless shell where the machine has it (tests/e2e/support/browsers.ts).
    launchOptions: { executablePath: BROWSER_PATH, args: BROWSER_ARGS },
  },
  // Two projects so that a worker runs either the admin studio's specs (which change the site's content
  // and settings, each putting back what it changed) or the public ones, never both on one server.
  projects: [
    { name: 'public', use: { ...devices['Desktop Chrome'] }, testIgnore: ADMIN_SPECS },
    { name: 'admin', use: { ...devices['Desktop Chrome'] }, testMatch: ADMIN_SPECS },
  ],
});
