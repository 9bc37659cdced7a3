// `npm test`: type check, lint and build, then the browser tests with the unit + integration tests beside
// them; at the end, how long each phase took and which browser tests needed their retry (issue 37).
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const env = { ...process.env, ASTRO_TELEMETRY_DISABLED: '1' };
const bin = (name) => path.join(root, 'node_modules', '.bin', name);

const pgUrl = process.env.TEST_DATABASE_URL;
delete env.TEST_DATABASE_URL; // the main run is on embedded PGlite, like `npm start`

const steps = [
  ['type check', bin('astro'), ['check']],
  ['lint', bin('eslint'), ['.']],
  ['build', bin('astro'), ['build']],
];

/**
 * The Vitest passes run beside the browser tests, which are the longest phase and leave part of the two
 * cores idle while pages and timers are awaited (decision 062): the unit and integration tests on PGlite,
 * and the data-layer suite again on PostgreSQL, the production engine, when one is available (one worker).
 * They run at a lower priority (nice 10), so the browser tests' timing is what they would be alone; each
 * one's output is kept and printed when it ends, so the reports do not interleave.
 */
const alongside = [
  ['unit and integration tests (PGlite)', bin('vitest'), ['run']],
  ...(pgUrl ? [['integration tests (PostgreSQL)', bin('vitest'), ['run', 'tests/integration', '--maxWorkers=1'], { TEST_DATABASE_URL: pgUrl }]] : []),
];

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

for (const [label, command, args, extraEnv = {}] of steps) {
  console.log(`\n▶ ${label}`);
  const started = Date.now();
  const result = spawnSync(command, args, { cwd: root, env: { ...env, ...extraEnv }, stdio: 'inherit' });
  timings.push([label, seconds(started), result.status === 0 ? 'passed' : 'FAILED']);
  if (result.status !== 0) {
    console.error(`\n✖ ${label} failed`);
    printSummary();
    process.exit(result.status ?? 1);
  }
  console.log(`✔ ${label} (${seconds(started).toFixed(1)} s)`);
}

/** The ends of failed background reports, printed again after everything. */
const backgroundTails = [];
const lastLines = (text, n) => text.trimEnd().split('\n').slice(-n).join('\n');

const niceAvailable = spawnSync('nice', ['true']).status === 0;

/** Runs a step in the background with its output kept; resolves with its exit code, printing the output. */
function inBackground([label, command, args, extraEnv = {}]) {
  console.log(`\n▶ ${label} (alongside the browser tests; its report follows when it ends)`);
  const started = Date.now();
  const lowered = niceAvailable ? ['nice', ['-n', '10', command, ...args]] : [command, args];
  const child = spawn(lowered[0], lowered[1], { cwd: root, env: { ...env, ...extraEnv }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  return new Promise((resolve) => {
    child.on('close', (code) => {
      console.log(`\n── ${label} ──\n${output}`);
      console.log(code === 0 ? `✔ ${label} (${seconds(started).toFixed(1)} s)` : `\n✖ ${label} failed`);
      timings.push([label, seconds(started), code === 0 ? 'passed' : 'FAILED']);
      if (code !== 0) backgroundTails.push(`── ${label} ──\n${lastLines(output, 60)}`);
      resolve(code ?? 1);
    });
  });
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

const codes = await Promise.all([...alongside.map(inBackground), inForeground(browser)]);
const failed = codes.find((code) => code !== 0);
if (failed !== undefined) {
  // A report printed mid-run scrolls away under the browser tests': the verdict is repeated last.
  const labels = [...alongside, browser].filter((_, i) => codes[i] !== 0).map(([label]) => label);
  if (backgroundTails.length) console.log(`\n── the end of each failed background report again ──\n${backgroundTails.join('\n')}`);
  printSummary();
  console.error(`\n✖ failed: ${labels.join(', ')}`);
  process.exit(failed);
}
printSummary();
