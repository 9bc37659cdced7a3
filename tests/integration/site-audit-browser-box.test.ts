/**
 * The website check's browser in its box (issue 36, decision 056), attacked as the outside review did,
 * with the machine's real Chromium (CHROMIUM_PATH) and checks run in their own process as the server runs
 * them: a page that allocates memory without end, or keeps every core busy; a check process killed mid-run;
 * the server stopped (SIGTERM, as at every deploy) or killed mid-check, with the browser's processes looked
 * for afterwards; the environment, user and ports of the check process and the browser read from /proc
 * while a check runs; and the leftovers of an earlier run at start-up. Nothing here touches the database:
 * it runs once, on the PGlite pass.
 */
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestNetwork } from '../../src/server/http/safe-fetch';
import { auditSiteInOwnProcess, removeLeftoverBrowsers } from '../../src/server/modules/site-audit/audit-process';
import type { CheckResult } from '../../src/server/modules/site-audit/findings';
import { AUDIT_FIXTURE_HOSTS, HOG_CAP_MB, startAuditFixtureSites, type AuditFixtureSites } from '../support/audit-fixture-sites';
import {
  browserLeader,
  checkBrowserProcesses,
  checkProcessOf,
  environmentOf,
  isGone,
  listeningPorts,
  processesNaming,
  sampleBrowserMemory,
  untilAllGone,
  waitForCheckBrowser,
  type SeenProcess,
} from '../support/browser-processes';

const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const hasChromium = fs.existsSync(chromiumPath);
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
const USER_AGENT = 'Acme website audit (+https://acme.example)';
const MB = 1024 * 1024;
const root = path.resolve(import.meta.dirname, '../..');

/** What the server's environment holds (made-up values): none of it may reach the check or its browser. */
const SECRETS = {
  AUTH_SECRET: 'auth-secret-7f3c9a1e5b2d4c6e8a0f1b3d5e7c9a2b',
  DATABASE_URL: 'postgres://site:db-password-4d2a9c@db.internal:5432/site',
  SMTP_URL: 'smtps://mailer:smtp-password-81bf@mail.internal:465',
  LLM_API_KEY: 'sk-llm-key-5e1d0c7b9a3f',
  BOOKING_WEBHOOK_SECRET: 'whsec_Ym9va2luZy13ZWJob29rLXNlY3JldC0xMjM0NTY3OA==',
  METRICS_TOKEN: 'metrics-token-0a9b8c7d6e5f4a3b2c1d0e9f8a7b6c5d',
  CDN_PURGE_TOKEN: 'cdn-token-3c4d5e6f7a8b',
};

let sites: AuditFixtureSites;
const saved: Record<string, string | undefined> = {};
beforeAll(async () => {
  // Before any check process is started in this file: they are forked with the environment of the moment.
  for (const [name, value] of Object.entries(SECRETS)) {
    saved[name] = process.env[name];
    process.env[name] = value;
  }
  sites = await startAuditFixtureSites();
  useTestNetwork({ hosts: Object.fromEntries(AUDIT_FIXTURE_HOSTS.map((host) => [host, '127.0.0.1'])) });
});
afterAll(async () => {
  useTestNetwork(undefined);
  await sites.close();
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

const byId = (checks: CheckResult[], id: string) => checks.find((check) => check.id === id)!;
const check = (url: string, options: Partial<Parameters<typeof auditSiteInOwnProcess>[1]> = {}) =>
  auditSiteInOwnProcess(url, { userAgent: USER_AGENT, allowedPorts: [sites.port], chromiumPath, ...options });
/** The profile folder the browser was started with. */
const profileOf = (browser: SeenProcess[]) => /--user-data-dir=(\S+)/.exec(browserLeader(browser).cmdline)![1]!;

/**
 * A stand-in server (tests/support/check-server.ts) running one check of `url`; resolves once its browser
 * is up, with the browser's processes, its check process and its profile folder.
 */
async function serverMidCheck(url: string) {
  const server = spawn(process.execPath, ['--import', 'tsx', 'tests/support/check-server.ts', url, 'good.test', String(sites.port), chromiumPath], {
    cwd: root,
    env: process.env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const [line] = await once(readline.createInterface({ input: server.stdout! }), 'line');
  expect(line).toBe('checking');
  const browser = await waitForCheckBrowser(server.pid!);
  return { server, browser, checkProcess: { pid: checkProcessOf(browser) }, profile: profileOf(browser) };
}

describe.skipIf(!hasChromium || onPostgres)(`the website check's browser, attacked${hasChromium ? '' : ` (skipped: no Chromium at ${chromiumPath})`}`, () => {
  it('a page that allocates memory without end: the browser is stopped at the memory bound (1 GB by default), and the other checks stand', async () => {
    const sampler = sampleBrowserMemory();
    const { findings } = await check(sites.url('hog.test'));
    const peak = sampler.stop();
    for (const id of ['lighthouse', 'lighthouse-accessibility']) {
      expect(byId(findings.checks, id).status).toBe('skipped');
      expect(byId(findings.checks, id).evidence[0]).toBe('Lighthouse stopped: the page used too much memory (more than 1024 MB).');
    }
    // The crawl judged the page as ever.
    expect(byId(findings.checks, 'title').status).toBe('pass');
    expect(byId(findings.checks, 'viewport').status).toBe('pass');
    expect(findings.overall).toBeDefined();
    // The attack did happen (the page held most of a gigabyte), and never much past the bound: the watchdog
    // looks every 100 ms, and the page allocates as fast as it can (about 100 MB past it on this machine).
    expect(peak).toBeGreaterThan(600 * MB);
    expect(peak).toBeLessThan(1024 * MB + 300 * MB);
    expect(peak).toBeLessThan(HOG_CAP_MB * MB);
    expect(checkBrowserProcesses()).toEqual([]);
  }, 120_000);

  it('a page that keeps every core busy: the browser is stopped at the processor-time bound', async () => {
    const started = Date.now();
    const { findings } = await check(sites.url('hog.test', '/spin'), { browser: { memoryMb: 1024, cpuSeconds: 5, user: 'nobody' } });
    expect(byId(findings.checks, 'lighthouse').evidence[0]).toBe('Lighthouse stopped: the page used too much processor time (more than 5 seconds).');
    expect(byId(findings.checks, 'title').status).toBe('pass');
    // Well before the audit's own 45 seconds: the bound, not the audit's time, ended it.
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(checkBrowserProcesses()).toEqual([]);
  }, 120_000);

  it('the check process killed mid-run (kill -9): every process of its browser dies with it, and its profile is removed', async () => {
    const running = check(sites.url('good.test'));
    running.catch(() => undefined);
    const browser = await waitForCheckBrowser();
    const profile = profileOf(browser);
    process.kill(checkProcessOf(browser), 'SIGKILL');
    await expect(running).rejects.toThrow('the check stopped unexpectedly (SIGKILL)');
    await expect.poll(untilAllGone(browser), { timeout: 5_000 }).toEqual([]);
    await expect.poll(() => fs.existsSync(profile), { timeout: 5_000 }).toBe(false);
  }, 120_000);

  it('the server stopped mid-check (SIGTERM, as at every deploy): the check process and its browser end with it', async () => {
    const { server, browser, checkProcess, profile } = await serverMidCheck(sites.url('good.test'));
    server.kill('SIGTERM');
    const [code] = await once(server, 'exit');
    expect(code).toBe(0);
    await expect.poll(untilAllGone([...browser, checkProcess]), { timeout: 5_000 }).toEqual([]);
    await expect.poll(() => fs.existsSync(profile), { timeout: 5_000 }).toBe(false);
  }, 120_000);

  it('the server killed mid-check (kill -9): the check process ends its browser and itself', async () => {
    const { server, browser, checkProcess, profile } = await serverMidCheck(sites.url('good.test'));
    server.kill('SIGKILL');
    await once(server, 'exit');
    await expect.poll(untilAllGone([...browser, checkProcess]), { timeout: 10_000 }).toEqual([]);
    await expect.poll(() => fs.existsSync(profile), { timeout: 5_000 }).toBe(false);
  }, 120_000);

  describe('a renderer exploit, on the page it was sent to check, reads what its processes can', () => {
    const seen: { browser: SeenProcess[]; environments: [string, string][]; ports: number[]; status: string[] } = { browser: [], environments: [], ports: [], status: [] };
    beforeAll(async () => {
      const running = check(sites.url('good.test'));
      // All its processes, once Lighthouse has the page open (the renderer that runs the page's script).
      const browser = await waitForCheckBrowser(process.pid, 30_000, 5);
      seen.browser = browser;
      seen.environments = [
        ['the check process', environmentOf(checkProcessOf(browser))],
        ['the browser', environmentOf(browserLeader(browser).pid)],
        ...browser.map((process): [string, string] => [`browser process ${process.pid}`, environmentOf(process.pid)]),
      ];
      seen.ports = listeningPorts(browser);
      seen.status = browser.map((process) => fs.readFileSync(`/proc/${process.pid}/status`, 'utf8'));
      await running;
    }, 120_000);

    it('finds none of the server’s secrets in the environment of the check process or of any browser process', () => {
      for (const [whose, environment] of seen.environments) {
        for (const [name, value] of Object.entries(SECRETS)) {
          expect(environment, `${whose}: ${name}`).not.toContain(value);
          expect(environment, `${whose}: ${name}`).not.toMatch(new RegExp(`^${name}=`, 'm'));
        }
      }
      // They were read, and hold what they need: the check process its PATH, the browser its own home.
      expect(seen.environments[0]![1]).toMatch(/^PATH=/m);
      expect(seen.environments[1]![1]).toMatch(/^HOME=.*site-check-browsers/m);
    });

    it('is not root, cannot gain privileges, and is in Chromium’s sandbox where the kernel gives the browser’s user namespaces', () => {
      const asRoot = process.getuid?.() === 0;
      for (const [i, process] of seen.browser.entries()) {
        if (asRoot) expect(process.uid, process.cmdline.slice(0, 80)).not.toBe(0);
        expect(seen.status[i]).toMatch(/^NoNewPrivs:\s+1$/m);
      }
      const user = asRoot ? ['--reuid', 'nobody', '--regid', 'nogroup', '--clear-groups'] : [];
      const namespaces = spawnSync('setpriv', [...user, '--', 'unshare', '--user', '--pid', '--net', '--fork', 'true']).status === 0;
      if (namespaces) expect(seen.browser.filter((process) => process.cmdline.includes('--no-sandbox'))).toEqual([]);
    });

    it('finds no DevTools port to drive the browser through (the protocol runs over a pipe)', () => {
      expect(browserLeader(seen.browser).cmdline).toContain('--remote-debugging-pipe');
      expect(seen.browser.filter((process) => process.cmdline.includes('--remote-debugging-port'))).toEqual([]);
      expect(seen.ports).toEqual([]);
    });
  });

  it('a browser and profiles left over by an earlier run (its check process gone) are removed at start-up; a running check’s are kept', async () => {
    const profiles = path.join(os.tmpdir(), 'site-check-browsers');
    fs.mkdirSync(profiles, { recursive: true, mode: 0o711 });
    // Named after a check process that no longer runs (PID 4194305 is past Linux's highest).
    const orphanProfile = fs.mkdtempSync(path.join(profiles, '4194305.1-'));
    const staleProfile = fs.mkdtempSync(path.join(profiles, '4194305.1-'));
    // As the review found it: a browser with its DevTools port, in a process group of its own.
    const orphan = spawn(chromiumPath, ['--headless=new', '--no-sandbox', '--disable-gpu', '--remote-debugging-port=0', `--user-data-dir=${orphanProfile}`, 'about:blank'], {
      detached: true,
      stdio: 'ignore',
    });
    orphan.unref();
    const running = check(sites.url('good.test'));
    const live = await waitForCheckBrowser();
    await expect.poll(() => processesNaming(orphanProfile).length).toBeGreaterThan(2);

    removeLeftoverBrowsers();

    await expect.poll(() => isGone(orphan.pid!), { timeout: 5_000 }).toBe(true);
    await expect.poll(() => processesNaming(orphanProfile), { timeout: 5_000 }).toEqual([]);
    expect(fs.existsSync(orphanProfile)).toBe(false);
    expect(fs.existsSync(staleProfile)).toBe(false);
    // The check under way kept its browser and its profile.
    expect(live.filter((process) => isGone(process.pid))).toEqual([]);
    expect(fs.existsSync(profileOf(live))).toBe(true);
    const { findings } = await running;
    expect(byId(findings.checks, 'lighthouse').status).not.toBe('skipped');
  }, 120_000);
});
