// `npm test`: type check, lint and build with the unit + integration tests beside them, then the browser
// tests with the PostgreSQL pass beside them; at the end, how long each phase took and which browser tests
// needed their retry (issue 37).
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const env = { ...process.env, ASTRO_TELEMETRY_DISABLED: '1' };
const bin = (name) => path.join(root, 'node_modules', '.bin', name);

const pgUrl = process.env.TEST_DATABASE_URL;
delete env.TEST_DATABASE_URL; // the main run is on embedded PGlite, like `npm start`

// Phase 1: the checks that need no build, one after the other, and the build the browser tests need.
const steps = [
  ['type check', bin('astro'), ['check']],
  ['lint', bin('eslint'), ['.']],
  ['build', bin('astro'), ['build']],
];

/**
 * Two phases keep both cores busy (decision 062). Beside phase 1 (mostly one core) runs the unit and
 * integration suite on PGlite (two workers); beside the browser tests (phase 2, the longest, with idle time
 * while pages and timers are awaited) the data-layer suite again on PostgreSQL, the production engine, when
 * one is available: one worker, at a lower priority (nice 10), so the timing-sensitive browser specs get
 * the CPU first. A background pass's output is kept and printed when it ends, so reports do not interleave.
 */
const besidePhase1 = [['unit and integration tests (PGlite)', bin('vitest'), ['run']]];
/**
 * Integration tests whose subject is not the database engine, so a second run on PostgreSQL tests nothing
 * new: the outbound fetch and proxy, the crawl of the fixture sites, the Firebase emulators' fixture, the mail
 * outbox, a port in use, and the embedded engine's own data folder and lock (they set no DATABASE_URL).
 */
const ENGINE_AGNOSTIC = [
  'safe-fetch',
  'safe-fetch-fixture-hosts',
  'safe-proxy',
  'site-audit-crawl',
  'firebase-emulators',
  'auth-outbox',
  'port-in-use',
  'data-dir-permissions',
  'db-lock',
].flatMap((name) => ['--exclude', `tests/integration/${name}.test.ts`]);
const besideBrowser = pgUrl
  ? [['integration tests (PostgreSQL)', bin('vitest'), ['run', 'tests/integration', '--maxWorkers=1', ...ENGINE_AGNOSTIC], { TEST_DATABASE_URL: pgUrl }, { lowered: true }]]
  : [];

// Every worker starts a server of its own (tests/e2e/support/fixtures.ts). Specs that run several processes
// on PostgreSQL (several-instances, workers) create their own database on this server and are skipped without one.
const browser = ['browser tests', bin('playwright'), ['test'], pgUrl ? { TEST_DATABASE_URL: pgUrl } : {}];
const E2E_RESULTS = path.join(root, 'test-results', 'e2e-results.json');

/** [label, seconds, outcome] of each phase, for the table at the end. */
const timings = [];
const seconds = (started) => (Date.now() - started) / 1000;

function printSummary() {
  const width = Math.max(...timings.map(([label]) => label.length));
  console.log('\nPhase times');
  for (const [label, secs, outcome] of timings) console.log(`  ${label.padEnd(width)}  ${secs.toFixed(1).padStart(7)} s  ${outcome}`);
  const flaky = flakyBrowserTests();
  if (flaky.length) {
    console.log(`\n✖ ${flaky.length} browser ${flaky.length === 1 ? 'test' : 'tests'} passed only on the retry. A flaky test is a defect: find its cause and fix it.`);
    for (const title of flaky) console.log(`  - ${title}`);
  }
}

/** Titles of the browser tests that failed and then passed on their retry, from Playwright's JSON report. */
function flakyBrowserTests() {
  if (!fs.existsSync(E2E_RESULTS)) return [];
  const report = JSON.parse(fs.readFileSync(E2E_RESULTS, 'utf8'));
  const titles = [];
  const walk = (suite, trail) => {
    for (const spec of suite.specs ?? []) {
      for (const t of spec.tests ?? []) if (t.status === 'flaky') titles.push(`[${t.projectName}] ${[...trail, spec.title].filter(Boolean).join(' › ')} (${spec.file}:${spec.line})`);
    }
    for (const child of suite.suites ?? []) walk(child, [...trail, child.title === child.file ? '' : child.title]);
  };
  for (const suite of report.suites ?? []) walk(suite, []);
  return titles;
}

/** The ends of failed background reports, printed again after everything. */
const backgroundTails = [];
const lastLines = (text, n) => text.trimEnd().split('\n').slice(-n).join('\n');

const niceAvailable = spawnSync('nice', ['true']).status === 0;

/** Runs a step in the background with its output kept; resolves with its exit code, printing the output. */
function inBackground([label, command, args, extraEnv = {}, { lowered = false } = {}], beside) {
  console.log(`\n▶ ${label} (beside ${beside}; its report follows when it ends)`);
  const started = Date.now();
  const [file, argv] = lowered && niceAvailable ? ['nice', ['-n', '10', command, ...args]] : [command, args];
  const child = spawn(file, argv, { cwd: root, env: { ...env, ...extraEnv }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const done = new Promise((resolve) => {
    child.on('close', (code) => {
      console.log(`\n── ${label} ──\n${output}`);
      console.log(code === 0 ? `✔ ${label} (${seconds(started).toFixed(1)} s)` : `\n✖ ${label} failed`);
      timings.push([label, seconds(started), code === 0 ? 'passed' : 'FAILED']);
      if (code !== 0) backgroundTails.push(`── ${label} ──\n${lastLines(output, 60)}`);
      resolve(code ?? 1);
    });
  });
  return { label, done, stop: () => child.kill('SIGTERM') };
}

function inForeground([label, command, args, extraEnv = {}]) {
  console.log(`\n▶ ${label}`);
  const started = Date.now();
  const child = spawn(command, args, { cwd: root, env: { ...env, ...extraEnv }, stdio: 'inherit' });
  return new Promise((resolve) => {
    child.on('close', (code) => {
      console.log(code === 0 ? `✔ ${label} (${seconds(started).toFixed(1)} s)` : `\n✖ ${label} failed`);
      timings.push([label, seconds(started), code === 0 ? 'passed' : 'FAILED']);
      resolve(code ?? 1);
    });
  });
}

/** Ends the run: the failed background reports' ends again, the table, and the verdict last. */
function finish(results) {
  const failed = results.filter(({ code }) => code !== 0);
  if (failed.length) {
    // A report printed mid-run scrolls away under the browser tests': the verdict is repeated last.
    if (backgroundTails.length) console.log(`\n── the end of each failed background report again ──\n${backgroundTails.join('\n')}`);
    printSummary();
    console.error(`\n✖ failed: ${failed.map(({ label }) => label).join(', ')}`);
    process.exit(failed[0].code);
  }
  printSummary();
}

const results = [];
const phase1 = besidePhase1.map((step) => inBackground(step, 'the type check, lint and build'));
for (const step of steps) {
  const code = await inForeground(step);
  if (code !== 0) {
    // Without a build there are no browser tests: stop here.
    for (const pass of phase1) pass.stop();
    await Promise.all(phase1.map((pass) => pass.done));
    finish([{ label: step[0], code }]);
  }
}
// The browser tests start once phase 1's own pass has ended: both at once overloaded two cores (the
// website check's Lighthouse, at the lowest priority, then missed its time).
for (const pass of phase1) results.push({ label: pass.label, code: await pass.done });
const phase2 = besideBrowser.map((step) => inBackground(step, 'the browser tests'));
results.push({ label: browser[0], code: await inForeground(browser) });
for (const pass of phase2) results.push({ label: pass.label, code: await pass.done });
finish(results);
