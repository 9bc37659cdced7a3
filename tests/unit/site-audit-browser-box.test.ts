/**
 * The website check's browser box (decision 056), its rules without a browser: which environment the check
 * process and the browser get, how /proc is read, what the reader is told at a bound, and where a cgroup
 * v2 is made (against a made-up cgroup tree in a temporary folder; the machines here have cgroup v1).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { browserStopMessage, type BrowserBounds } from '../../src/server/modules/site-audit/browser/bounds';
import { createBrowserCgroup, delegatedParent, oomKills, type CgroupHost } from '../../src/server/modules/site-audit/browser/cgroup';
import { browserEnv, checkProcessEnv } from '../../src/server/modules/site-audit/browser/environment';
import { parseOwnMemory, parseStat } from '../../src/server/modules/site-audit/browser/processes';
import { dropTo } from '../../src/server/modules/site-audit/browser/user';

/** What the check process runs on: passed on as it is. */
const RUNS_ON = {
  PATH: '/usr/local/bin:/usr/bin:/bin',
  HOME: '/var/lib/agency-site',
  TMPDIR: '/tmp/agency',
  NODE_ENV: 'production',
  LOG_LEVEL: 'info',
  NODE_EXTRA_CA_CERTS: '/etc/ssl/internal-ca.pem',
};
const LOCALE = { LANG: 'en_GB.UTF-8', LC_TIME: 'de_DE.UTF-8', TZ: 'Europe/Berlin' };
/** The server's settings and secrets: never passed on. */
const SETTINGS = {
  AUTH_SECRET: 'auth-secret',
  DATABASE_URL: 'postgres://site:password@db/site',
  SMTP_URL: 'smtps://user:password@mail',
  LLM_API_KEY: 'sk-key',
  BOOKING_WEBHOOK_SECRET: 'whsec_x',
  BOOKING_WEBHOOK_SECRET_CALCOM: 'calcom',
  METRICS_TOKEN: 'metrics',
  CDN_PURGE_TOKEN: 'cdn',
  AUDIT_CHROMIUM_PATH: '/usr/bin/chromium',
  NODE_OPTIONS: '--require /opt/apm/agent.js',
};
const SERVER_ENV = { ...RUNS_ON, ...LOCALE, ...SETTINGS };

describe('the check process’s environment', () => {
  it('holds what it runs on and none of the server’s settings or secrets', () => {
    expect(checkProcessEnv(SERVER_ENV)).toEqual({ ...RUNS_ON, ...LOCALE });
  });
});

describe('the browser’s environment', () => {
  it('is the system’s PATH, its profile folder as home and for its files, and the locale; nothing else of the server’s', () => {
    const profile = '/tmp/site-check-browsers/12.34-ab';
    expect(browserEnv(SERVER_ENV, profile)).toEqual({
      PATH: '/usr/local/bin:/usr/bin:/bin',
      HOME: profile,
      TMPDIR: profile,
      XDG_CONFIG_HOME: `${profile}/.config`,
      XDG_CACHE_HOME: `${profile}/.cache`,
      ...LOCALE,
    });
  });
});

describe('reading /proc', () => {
  it('takes state, parent, group, processor time and start from a stat line, whatever the process is called', () => {
    const line = '4242 (chromium (renderer) x) S 4200 4100 4100 0 -1 4194560 1500 0 0 0 250 130 0 0 39 19 12 0 987654 300000000 20000 18446744073709551615';
    expect(parseStat(4242, line)).toEqual({ pid: 4242, state: 'S', ppid: 4200, pgid: 4100, cpuMs: 3800, startTicks: 987654 });
    expect(parseStat(1, '1 (init) S')).toBeUndefined();
  });

  it('counts a process’s anonymous and shared memory, not the program files it maps', () => {
    const status = 'Name:\tchromium\nVmRSS:\t  300000 kB\nRssAnon:\t  120000 kB\nRssFile:\t  170000 kB\nRssShmem:\t   10000 kB\n';
    expect(parseOwnMemory(status)).toBe(130_000 * 1024);
    expect(parseOwnMemory('Name:\tgone\n')).toBe(0);
  });
});

describe('what the check says at a bound', () => {
  const bounds: BrowserBounds = { memoryBytes: 1024 * 1024 * 1024, cpuMs: 45_000, wallMs: 50_000 };
  it.each([
    ['memory', 'Lighthouse stopped: the page used too much memory (more than 1024 MB).'],
    ['cpu', 'Lighthouse stopped: the page used too much processor time (more than 45 seconds).'],
    ['time', 'Lighthouse stopped: the page used too much time (more than 50 seconds).'],
  ] as const)('%s', (stop, message) => {
    expect(browserStopMessage(stop, bounds)).toBe(message);
  });
});

describe('dropping privileges (setpriv)', () => {
  it('switches a root server’s browser to the unprivileged user, with no way back, and ties it to its check process', () => {
    expect(dropTo({ name: 'nobody', uid: 65534, gid: 65534 })).toEqual(['--reuid', '65534', '--regid', '65534', '--clear-groups', '--no-new-privs', '--pdeathsig', 'KILL']);
    expect(dropTo(undefined)).toEqual(['--no-new-privs', '--pdeathsig', 'KILL']);
  });
});

describe('a cgroup v2 of the browser’s own', () => {
  let root: string;
  const host = (own: string, uid = 1000): CgroupHost => ({ root, ownCgroups: `0::${own}\n`, uid });
  const unit = () => path.join(root, 'system.slice/agency-site.service');

  /** The site's user, who owns its delegated cgroup (a made-up one when the test runs as root). */
  const siteUid = process.getuid!() === 0 ? 4321 : process.getuid!();

  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'cgroup-v2-'));
    fs.writeFileSync(path.join(root, 'cgroup.controllers'), 'cpuset cpu io memory pids');
    fs.mkdirSync(path.join(unit(), 'server'), { recursive: true });
    fs.writeFileSync(path.join(unit(), 'cgroup.subtree_control'), 'memory pids');
    if (siteUid !== process.getuid!()) fs.chownSync(unit(), siteUid, siteUid);
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  it('is made beside the server’s, in the cgroup systemd delegated to the site’s user (DelegateSubgroup=server)', () => {
    const uid = siteUid;
    expect(delegatedParent(host('/system.slice/agency-site.service/server', uid))).toBe(unit());
    const cgroup = createBrowserCgroup('site-check-12.34-ab', 1024 * 1024 * 1024, host('/system.slice/agency-site.service/server', uid))!;
    expect(cgroup.dir).toBe(path.join(unit(), 'site-check-12.34-ab'));
    expect(fs.readFileSync(path.join(cgroup.dir, 'memory.max'), 'utf8')).toBe(String(1024 * 1024 * 1024));
    expect(fs.readFileSync(path.join(cgroup.dir, 'memory.oom.group'), 'utf8')).toBe('1');
    expect(cgroup.procsFile).toBe(path.join(cgroup.dir, 'cgroup.procs'));
    expect(cgroup.ranOutOfMemory()).toBe(false);
    fs.writeFileSync(path.join(cgroup.dir, 'memory.events'), 'low 0\nhigh 0\nmax 12\noom 1\noom_kill 1\noom_group_kill 1\n');
    expect(cgroup.ranOutOfMemory()).toBe(true);
  });

  it('is not made where nothing was delegated: cgroup v1, the root cgroup, root’s own, another owner’s, no memory controller', () => {
    const uid = siteUid;
    const server = '/system.slice/agency-site.service/server';
    expect(delegatedParent({ ...host(server, uid), root: path.join(root, 'nowhere') })).toBeUndefined();
    expect(delegatedParent(host('/', uid))).toBeUndefined();
    expect(delegatedParent(host(server, 0))).toBeUndefined();
    expect(delegatedParent(host(server, uid + 1))).toBeUndefined();
    fs.writeFileSync(path.join(unit(), 'cgroup.subtree_control'), 'pids');
    expect(delegatedParent(host(server, uid))).toBeUndefined();
    expect(createBrowserCgroup('site-check-x', 1, host(server, uid))).toBeUndefined();
  });

  it('reads the kernel’s out-of-memory kills from memory.events', () => {
    expect(oomKills('low 0\nhigh 0\nmax 0\noom 0\noom_kill 0\n')).toBe(0);
    expect(oomKills('oom 3\noom_kill 2\noom_group_kill 1\n')).toBe(2);
    expect(oomKills(undefined)).toBe(0);
  });
});
