import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/server/config';

const asRoot = process.getuid?.() === 0;

describe('the website check’s browser settings (decision 056)', () => {
  it('default to 1024 MB of memory, 45 seconds of processor time and the user nobody; empty means the default', () => {
    const config = parseConfig({ AUDIT_BROWSER_MEMORY_MB: '', AUDIT_BROWSER_CPU_SECONDS: ' ', AUDIT_BROWSER_USER: '' });
    expect(config.AUDIT_BROWSER_MEMORY_MB).toBe(1024);
    expect(config.AUDIT_BROWSER_CPU_SECONDS).toBe(45);
    expect(config.AUDIT_BROWSER_USER).toBe('nobody');
  });

  it('take whole numbers within their bounds', () => {
    const config = parseConfig({ AUDIT_BROWSER_MEMORY_MB: '2048', AUDIT_BROWSER_CPU_SECONDS: '90', AUDIT_BROWSER_USER: ' daemon ' });
    expect(config).toMatchObject({ AUDIT_BROWSER_MEMORY_MB: 2048, AUDIT_BROWSER_CPU_SECONDS: 90, AUDIT_BROWSER_USER: 'daemon' });
  });

  it.each([
    [{ AUDIT_BROWSER_MEMORY_MB: '128' }, /AUDIT_BROWSER_MEMORY_MB: must be at least 256/],
    [{ AUDIT_BROWSER_MEMORY_MB: '1.5' }, /AUDIT_BROWSER_MEMORY_MB: must be a whole number of megabytes/],
    [{ AUDIT_BROWSER_MEMORY_MB: '1GB' }, /AUDIT_BROWSER_MEMORY_MB: must be a number of megabytes/],
    [{ AUDIT_BROWSER_CPU_SECONDS: '0' }, /AUDIT_BROWSER_CPU_SECONDS: must be at least 5/],
    [{ AUDIT_BROWSER_CPU_SECONDS: '86400' }, /AUDIT_BROWSER_CPU_SECONDS: must be at most 3600/],
    [{ AUDIT_BROWSER_USER: 'no body' }, /AUDIT_BROWSER_USER: must be a user name or number, such as nobody/],
  ])('refuses %o at start-up', (env, message) => {
    expect(() => parseConfig(env)).toThrow(message);
  });

  it.skipIf(!asRoot)('as root, with a browser to run: the browser’s user must exist and must not be root', () => {
    expect(() => parseConfig({ AUDIT_CHROMIUM_PATH: process.execPath, AUDIT_BROWSER_USER: 'no-such-user-here' })).toThrow(
      /AUDIT_BROWSER_USER: no user no-such-user-here on this machine \(the server runs as root, so the browser runs as this user\)/,
    );
    expect(() => parseConfig({ AUDIT_CHROMIUM_PATH: process.execPath, AUDIT_BROWSER_USER: 'root' })).toThrow(/AUDIT_BROWSER_USER: root is root; the browser must run as an unprivileged user/);
    expect(() => parseConfig({ AUDIT_CHROMIUM_PATH: process.execPath, AUDIT_BROWSER_USER: '0' })).toThrow(/AUDIT_BROWSER_USER: 0 is root/);
    expect(parseConfig({ AUDIT_CHROMIUM_PATH: process.execPath }).AUDIT_BROWSER_USER).toBe('nobody');
  });

  it('without a browser to run, the user is not looked up', () => {
    expect(parseConfig({ AUDIT_BROWSER_USER: 'no-such-user-here' }).AUDIT_BROWSER_USER).toBe('no-such-user-here');
  });
});
