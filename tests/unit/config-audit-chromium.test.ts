import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/server/config';

describe('AUDIT_CHROMIUM_PATH', () => {
  it('is optional, and empty means unset (the website check then skips Lighthouse)', () => {
    expect(parseConfig({}).AUDIT_CHROMIUM_PATH).toBeUndefined();
    expect(parseConfig({ AUDIT_CHROMIUM_PATH: '  ' }).AUDIT_CHROMIUM_PATH).toBeUndefined();
  });

  it('is a program the server can run, named by its absolute path', () => {
    expect(parseConfig({ AUDIT_CHROMIUM_PATH: ` ${process.execPath} ` }).AUDIT_CHROMIUM_PATH).toBe(process.execPath);
  });

  it.each([
    ['chromium', /AUDIT_CHROMIUM_PATH: must be an absolute path, such as \/usr\/bin\/chromium/],
    ['/nowhere/chromium', /AUDIT_CHROMIUM_PATH: no program this server may run is at \/nowhere\/chromium/],
    ['/etc/passwd', /AUDIT_CHROMIUM_PATH: no program this server may run is at \/etc\/passwd/],
    ['/usr/bin', /AUDIT_CHROMIUM_PATH: no program this server may run is at \/usr\/bin/],
  ])('refuses %s at start-up', (value, message) => {
    expect(() => parseConfig({ AUDIT_CHROMIUM_PATH: value })).toThrow(message);
  });
});
