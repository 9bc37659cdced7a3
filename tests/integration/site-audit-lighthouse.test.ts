/**
 * Lighthouse in the website audit (issue 22) with the machine's real Chromium (CHROMIUM_PATH, which the
 * test machines have): an audit run in its own process, as the server runs it, scores the page in the
 * browser, and the page's requests to loopback addresses never arrive (the browser only reaches the site
 * through the safe proxy). Nothing here touches the database: it runs once, on the PGlite pass.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestNetwork } from '../../src/server/http/safe-fetch';
import { auditSiteInOwnProcess } from '../../src/server/modules/site-audit/audit-process';
import { crawlSite } from '../../src/server/modules/site-audit/crawl';
import type { CheckResult } from '../../src/server/modules/site-audit/findings';
import { lighthouseRunner } from '../../src/server/modules/site-audit/lighthouse';
import { checkBrowserProcesses } from '../support/browser-processes';

const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const hasChromium = fs.existsSync(chromiumPath);
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
const USER_AGENT = 'Acme website audit (+https://acme.example)';

let trapHits = 0;
let trap: http.Server;
let site: http.Server;
const siteRequests: { path: string; userAgent: string | undefined }[] = [];
const url = (path = '/') => `http://lh.test:${(site.address() as AddressInfo).port}${path}`;

function page(trapPort: number): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Smile Dental</title></head><body><main><h1>Smile Dental</h1><p>Family dentistry in town.</p>
<img src="http://127.0.0.1:${trapPort}/a.png" alt="Trap one" width="10" height="10">
<img src="http://localhost:${trapPort}/b.png" alt="Trap two" width="10" height="10">
<script>fetch('http://127.0.0.1:${trapPort}/c').catch(() => {});</script></main></body></html>`;
}

beforeAll(async () => {
  trap = http.createServer((_req, res) => {
    trapHits++;
    res.end('x');
  });
  await new Promise<void>((resolve) => trap.listen(0, '127.0.0.1', resolve));
  const trapPort = (trap.address() as AddressInfo).port;
  site = http.createServer((req, res) => {
    siteRequests.push({ path: req.url ?? '', userAgent: req.headers['user-agent'] });
    if (req.url === '/') res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page(trapPort));
    else if (req.url === '/hangs') res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html><html lang="en"><title>Slow</title><h1>Slow</h1><img src="/never.png" alt="Never">`);
    else if (req.url === '/never.png') res.writeHead(200, { 'content-type': 'image/png' }).write(Buffer.alloc(10));
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  useTestNetwork({ hosts: { 'lh.test': '127.0.0.1' } });
});
afterAll(async () => {
  useTestNetwork(undefined);
  site.closeAllConnections();
  await new Promise((resolve) => site.close(resolve));
  await new Promise((resolve) => trap.close(resolve));
});

const byId = (checks: CheckResult[], id: string) => checks.find((check) => check.id === id)!;

/** Processes of the audit's Chromium that this test started, still alive (other test files run browsers too). */
const auditBrowsers = () => checkBrowserProcesses().length;

describe.skipIf(!hasChromium || onPostgres)(`Lighthouse in a real Chromium${hasChromium ? '' : ` (skipped: no Chromium at ${chromiumPath})`}`, () => {
  it('scores the page in the browser, which never reaches a loopback address the page asks for', async () => {
    const { findings } = await auditSiteInOwnProcess(url(), { userAgent: USER_AGENT, chromiumPath });
    const speed = byId(findings.checks, 'lighthouse');
    expect(speed.status).not.toBe('skipped');
    expect(speed.evidence[0]).toMatch(/^Performance \d{1,3} of 100 on a phone/);
    expect(speed.evidence[1]).toMatch(/^Core Web Vitals: largest content shown after [\d.]+ (ms|s), layout shift \d\.\d\d/);
    const accessibility = byId(findings.checks, 'lighthouse-accessibility');
    expect(accessibility.status).not.toBe('skipped');
    expect(accessibility.evidence[0]).toMatch(/^Accessibility \d{1,3} of 100/);
    expect(findings.categories.find((category) => category.category === 'mobile')?.score).toBeDefined();
    // The browser asked for the page itself, naming who asked, on top of the phone it plays.
    expect(siteRequests.filter((request) => request.path === '/' && /moto g power.*Acme website audit/.test(request.userAgent ?? '')).length).toBeGreaterThan(0);
    expect(trapHits).toBe(0);
    expect(auditBrowsers()).toBe(0);
  }, 90_000);

  it('gives up Lighthouse when the audit’s time runs out, and ends the browser', async () => {
    const started = Date.now();
    const snapshot = await crawlSite(url('/hangs'), {
      userAgent: USER_AGENT,
      auditTimeoutMs: 6_000,
      lighthouse: lighthouseRunner({ chromiumPath, allowedPorts: [80, 443], userAgent: USER_AGENT }),
    });
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(snapshot.lighthouse).toBeUndefined();
    expect(snapshot.skipped.find((item) => item.check === 'Lighthouse')?.reason).toMatch(/^Lighthouse did not finish: /);
    // The kill is a signal; give the processes a moment to go.
    await expect.poll(auditBrowsers, { timeout: 5_000 }).toBe(0);
  }, 60_000);
});
