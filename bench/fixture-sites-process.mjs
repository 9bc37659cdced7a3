// The website check's fixture sites (tests/support/audit-fixture-sites.ts) in a process of their own, so
// serving them does not share an event loop with the load generator measuring the server. Prints
// {"port": N} once listening; stops on SIGTERM.
import { startAuditFixtureSites } from '../tests/support/audit-fixture-sites.ts';

const sites = await startAuditFixtureSites();
process.stdout.write(`${JSON.stringify({ port: Number(new URL(sites.url('good.test')).port) })}\n`);
process.once('SIGTERM', () => void sites.close().then(() => process.exit(0)));
