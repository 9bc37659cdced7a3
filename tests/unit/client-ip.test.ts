/** Who a request comes from, for per-address limits (src/server/http/client-ip.ts). */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { addressBucket, clientIpOf } from '../../src/server/http/client-ip';
import { logger } from '../../src/server/logger';

afterEach(() => vi.restoreAllMocks());

const request = (headers: Record<string, string> = {}) => new Request('http://x/', { headers });

describe('client addresses', () => {
  it('counts IPv4 as it is and IPv6 per /64, whatever its spelling', () => {
    expect(addressBucket('203.0.113.7')).toBe('203.0.113.7');
    expect(addressBucket('2001:db8:1:2:3:4:5:6')).toBe('2001:0db8:0001:0002::/64');
    expect(addressBucket('2001:DB8:1:2::9')).toBe('2001:0db8:0001:0002::/64');
    expect(addressBucket('[2001:db8:1:2::9]')).toBe('2001:0db8:0001:0002::/64');
    expect(addressBucket('fe80::1%eth0')).toBe('fe80:0000:0000:0000::/64');
    expect(addressBucket('2001:db8:1:3::1')).not.toBe(addressBucket('2001:db8:1:2::1'));
    // An IPv4 client on a dual-stack socket is the IPv4 address.
    expect(addressBucket('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(addressBucket('not an address')).toBe('not an address');
  });

  it('takes the last entry of the trusted header, bucketed', () => {
    expect(clientIpOf(request({ 'x-real-ip': '198.51.100.1, 2001:db8::5' }), '10.0.0.1', 'x-real-ip')).toBe('2001:0db8:0000:0000::/64');
    expect(clientIpOf(request({ 'x-real-ip': '6.6.6.6' }), '10.0.0.1', undefined)).toBe('10.0.0.1');
  });

  it('says in the log when the trusted header is missing, at most every ten minutes, and counts the socket address', () => {
    const warn = vi.spyOn(logger, 'warn').mockImplementation(() => undefined);
    expect(clientIpOf(request(), '10.0.0.1', 'x-real-ip')).toBe('10.0.0.1');
    expect(clientIpOf(request(), '10.0.0.1', 'x-real-ip')).toBe('10.0.0.1');
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]![1])).toContain('TRUSTED_PROXY_IP_HEADER is x-real-ip, but requests arrive without it');
  });
});
