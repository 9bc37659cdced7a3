/** Trusted origins (issue 7 "A newcomer is not locked out of their own site") and the operator's log line. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseConfig, siteOrigins } from '../../src/server/config';
import { logger } from '../../src/server/logger';
import { isRefusedOrigin, refusedOriginAdvice } from '../../src/server/request-origin';

afterEach(() => vi.restoreAllMocks());

describe('siteOrigins', () => {
  it('without SITE_URL the origin follows PORT and HOST, and localhost and 127.0.0.1 are both trusted', () => {
    expect(siteOrigins({ PORT: 4500, HOST: 'localhost' })).toEqual({
      SITE_URL: 'http://localhost:4500',
      siteUrlIsExplicit: false,
      trustedOrigins: ['http://localhost:4500', 'http://127.0.0.1:4500', 'http://[::1]:4500'],
    });
    expect(siteOrigins({ PORT: 4321, HOST: '127.0.0.1' }).trustedOrigins).toEqual(['http://127.0.0.1:4321', 'http://localhost:4321', 'http://[::1]:4321']);
    expect(siteOrigins({ PORT: 8080, HOST: '0.0.0.0' }).SITE_URL).toBe('http://localhost:8080');
    expect(siteOrigins({ PORT: 80, HOST: 'localhost' }).SITE_URL).toBe('http://localhost');
    expect(siteOrigins({ PORT: 4321, HOST: 'shop.internal' })).toMatchObject({ SITE_URL: 'http://shop.internal:4321', trustedOrigins: ['http://shop.internal:4321'] });
  });

  it('with SITE_URL set, it is the one trusted origin', () => {
    expect(siteOrigins({ SITE_URL: 'https://agency.example', PORT: 4321, HOST: 'localhost' })).toEqual({
      SITE_URL: 'https://agency.example',
      siteUrlIsExplicit: true,
      trustedOrigins: ['https://agency.example'],
    });
  });

  it('the parsed config carries them (PORT=4500 without SITE_URL no longer trusts :4321)', () => {
    const cfg = parseConfig({ PORT: '4500' });
    expect(cfg.SITE_URL).toBe('http://localhost:4500');
    expect(cfg.trustedOrigins).toContain('http://127.0.0.1:4500');
    expect(cfg.trustedOrigins).not.toContain('http://localhost:4321');
    expect(parseConfig({ SITE_URL: '' }).siteUrlIsExplicit).toBe(false);
  });
});

describe('isRefusedOrigin', () => {
  const policy = { trustedOrigins: ['https://agency.example'], siteUrlIsExplicit: true };
  const post = (origin: string | null, method = 'POST') =>
    new Request('https://agency.example/api/auth/sign-in/email', { method, headers: origin ? { origin } : {} });

  it('refuses a foreign origin on a write and logs, once per origin, which setting would accept it', () => {
    const warn = vi.spyOn(logger, 'warn').mockImplementation(() => undefined);
    expect(isRefusedOrigin(post('http://192.168.1.20:4321'), policy)).toBe(true);
    expect(isRefusedOrigin(post('http://192.168.1.20:4321'), policy)).toBe(true);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]![1]).toBe(
      'Refused a request from http://192.168.1.20:4321: SITE_URL is https://agency.example. If visitors open the site at http://192.168.1.20:4321, set SITE_URL=http://192.168.1.20:4321.',
    );
  });

  it('lets the site itself, reads, and non-browser clients (no Origin) through', () => {
    expect(isRefusedOrigin(post('https://agency.example'), policy)).toBe(false);
    expect(isRefusedOrigin(post('http://evil.example', 'GET'), policy)).toBe(false);
    expect(isRefusedOrigin(post(null), policy)).toBe(false);
    expect(isRefusedOrigin(post('null'), policy)).toBe(true);
  });

  it('without SITE_URL the advice names the origins it trusts', () => {
    expect(refusedOriginAdvice('http://10.0.0.5:4321', { trustedOrigins: ['http://localhost:4321', 'http://127.0.0.1:4321'], siteUrlIsExplicit: false })).toBe(
      'Refused a request from http://10.0.0.5:4321: without SITE_URL this site trusts http://localhost:4321, http://127.0.0.1:4321. If visitors open the site at http://10.0.0.5:4321, set SITE_URL=http://10.0.0.5:4321.',
    );
  });
});
