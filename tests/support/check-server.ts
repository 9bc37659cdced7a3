/**
 * A stand-in for the server in the website check's tests (site-audit-browser-box.test.ts): it runs one
 * check in a check process of its own, as the server's job does, and stops on SIGTERM through the server's
 * own shutdown (src/server/shutdown.ts: drain, close the database, process.exit), with a database that has
 * nothing to close. It prints "checking" once the check is under way.
 *
 *   node --import tsx tests/support/check-server.ts <url> <host.test> <port> <chromium>
 */
import type { DatabaseHandle } from '../../src/server/db/client';
import { useTestNetwork } from '../../src/server/http/safe-fetch';
import { auditSiteInOwnProcess } from '../../src/server/modules/site-audit/audit-process';
import { stopOnSignals } from '../../src/server/shutdown';

const [url, host, port, chromiumPath] = process.argv.slice(2);
useTestNetwork({ hosts: { [host!]: '127.0.0.1' } });
stopOnSignals({ close: async () => undefined } as unknown as DatabaseHandle, 5_000);
const check = auditSiteInOwnProcess(url!, { userAgent: 'Test audit', allowedPorts: [Number(port)], chromiumPath });
console.log('checking');
await check.then(
  () => console.log('checked'),
  (err: unknown) => console.log(`failed: ${String(err)}`),
);
