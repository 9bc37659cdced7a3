import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { alias: { '@': new URL('./src', import.meta.url).pathname } },
  test: {
    // Playwright's *.spec.ts files live in tests/e2e and are never collected here.
    include: ['tests/unit/**/*.test.ts', 'tests/integration/**/*.test.ts'],
    globalSetup: ['tests/support/global-setup.ts'],
    setupFiles: ['tests/support/setup.ts'],
    env: { NODE_ENV: 'test', LOG_LEVEL: 'silent' },
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // expect.poll awaits a condition (another instance's notice, a claim by a second pool); its own default
    // of 1 s is shorter than one step can take when the PostgreSQL pass runs at a lower priority beside the
    // browser tests (a mail claim failed that way). A condition that never comes still fails, after 15 s.
    expect: { poll: { timeout: 15_000 } },
    // Each PGlite instance holds its own WebAssembly heap; two workers suit a 2-core, memory-bound run.
    maxWorkers: 2,
  },
});
