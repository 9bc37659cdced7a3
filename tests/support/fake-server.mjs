// A stand-in for server.mjs under the supervisor (tests/unit/supervise.test.ts): it says "ready" over the
// IPC channel unless FAKE_NEVER_READY is set, then exits as FAKE_PLAN says for this run (one entry per
// start, counted in FAKE_COUNT_FILE): "crash" (exit 3 after FAKE_SERVE_MS), "fail" (exit 2 before ready),
// "serve" (runs until SIGTERM, then exits 0).
import fs from 'node:fs';
import { READY_MESSAGE } from '../../scripts/supervise.mjs';

const countFile = process.env.FAKE_COUNT_FILE;
const run = fs.existsSync(countFile) ? Number(fs.readFileSync(countFile, 'utf8')) + 1 : 0;
fs.writeFileSync(countFile, String(run));
const plan = (process.env.FAKE_PLAN ?? 'serve').split(',');
const step = plan[Math.min(run, plan.length - 1)];
// A serving run takes SIGTERM before it says it started: the test stops it as soon as it reads that line.
if (step !== 'crash' && step !== 'fail') {
  const keepAlive = setInterval(() => {}, 1000);
  process.on('SIGTERM', () => {
    clearInterval(keepAlive);
    console.log(JSON.stringify({ fake: 'stopped', run }));
    process.exit(0);
  });
}
console.log(JSON.stringify({ fake: 'started', run, step, pid: process.pid }));

if (step === 'fail') {
  console.error('The fake server could not start.');
  process.exit(2);
}
process.channel?.unref();
process.send(READY_MESSAGE);
if (step === 'crash') setTimeout(() => process.exit(3), Number(process.env.FAKE_SERVE_MS ?? 50));
