/**
 * The website check's own process runs only on CPU time nothing else wants (decision 051): SCHED_IDLE
 * where the machine has chrt (util-linux, on every Debian), on top of the lower nice value the server
 * gives it. A visitor's request then takes a core from a check at once. Nothing here touches the
 * database: it runs once, on the PGlite pass.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestNetwork } from '../../src/server/http/safe-fetch';
import { auditSiteInOwnProcess } from '../../src/server/modules/site-audit/audit-process';

const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
const hasChrt = spawnSync('chrt', ['--help']).error === undefined;
/** sched(7): the policy numbers /proc/PID/stat reports. */
const SCHED_OTHER = 0;
const SCHED_IDLE = 5;

let site: http.Server;
beforeAll(async () => {
  site = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<!doctype html><html lang="en"><title>Calm Clinic</title><h1>Calm Clinic</h1>'));
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  useTestNetwork({ hosts: { 'calm.test': '127.0.0.1' } });
});
afterAll(async () => {
  useTestNetwork(undefined);
  await new Promise((resolve) => site.close(resolve));
});

/** This process's children that are website-check processes, with their nice value and policy. */
function checkProcesses(): { pid: number; nice: number; policy: number }[] {
  const children = fs
    .readdirSync(`/proc/${process.pid}/task`)
    .flatMap((tid) => fs.readFileSync(`/proc/${process.pid}/task/${tid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number));
  return children
    .filter((pid) => fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('site-audit/worker'))
    .map((pid) => {
      const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      // After "pid (comm) ": state is field 3, nice field 19, policy field 41.
      return { pid, nice: Number(fields[16]), policy: Number(fields[38]) };
    });
}

describe.skipIf(onPostgres)('the website check process', () => {
  it('runs at the lowest priority: nice 10 and, with chrt, SCHED_IDLE', async () => {
    const port = (site.address() as AddressInfo).port;
    const { findings } = await auditSiteInOwnProcess(`http://calm.test:${port}/`, { userAgent: 'Test audit', allowedPorts: [port] });
    expect(findings.checks.length).toBeGreaterThan(0);
    // The process is kept for the next check: it is still there to look at.
    const [check] = checkProcesses();
    expect(check).toBeDefined();
    expect(check!.nice).toBe(10);
    expect(check!.policy).toBe(hasChrt ? SCHED_IDLE : SCHED_OTHER);
  });
});
