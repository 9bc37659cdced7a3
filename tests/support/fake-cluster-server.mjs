// A stand-in for server.mjs with WORKERS=2 (tests/unit/workers-primary.test.ts): the primary is the real
// scripts/workers.mjs; each worker says "ready" to it, then does what FAKE_WORKER_<n> says: "serve" (until
// SIGTERM, then exit 0), "crash-once" (exit 3 soon after ready on its first start only; FAKE_DIR keeps the
// marker), or "fail" (exit 2 before ready).
import cluster from 'node:cluster';
import fs from 'node:fs';
import path from 'node:path';
import { READY_MESSAGE } from '../../scripts/supervise.mjs';
import { runWorkers } from '../../scripts/workers.mjs';

if (cluster.isPrimary) {
  await runWorkers({ count: 2, policy: JSON.parse(process.env.FAKE_POLICY ?? '{}') });
}
const index = process.env.WORKER_INDEX;
const step = process.env[`FAKE_WORKER_${index}`] ?? 'serve';
if (step === 'fail') {
  console.error(`worker ${index} could not start`);
  process.exit(2);
}
process.send(READY_MESSAGE);
const marker = path.join(process.env.FAKE_DIR ?? '.', `crashed-${index}`);
if (step === 'crash-once' && !fs.existsSync(marker)) {
  fs.writeFileSync(marker, '');
  setTimeout(() => process.exit(3), 100);
} else {
  process.on('SIGTERM', () => {
    console.log(JSON.stringify({ fake: 'stopped', worker: index }));
    process.exit(0);
  });
}
