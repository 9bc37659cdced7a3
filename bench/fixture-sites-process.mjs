// The website check's fixture sites (tests/support/audit-fixture-sites.ts) in a process of their own, so
// serving them does not share an event loop with the load generator measuring the server. Prints
// {"port": N} once listening; stops on SIGTERM.
import { runOnIdleCpuOnly } from '../src/server/modules/site-audit/idle-priority.ts';
import { startAuditFixtureSites } from '../tests/support/audit-fixture-sites.ts';

// The sites stand for other machines: only CPU time the server and the load generator leave.
runOnIdleCpuOnly();
const sites = await startAuditFixtureSites();
process.stdout.write(`${JSON.stringify({ port: Number(new URL(sites.url('good.test')).port) })}\n`);
process.once('SIGTERM', () => void sites.close().then(() => process.exit(0)));
