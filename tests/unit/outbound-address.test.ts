/** The outbound address rules (decision 018): public unicast only, IPv4 carried in IPv6 judged as IPv4. */
import { describe, expect, it } from 'vitest';
import { classifyAddress, isPublicAddress } from '../../src/server/http/outbound-address';

describe('addresses an outbound request may not reach', () => {
  it.each([
    // IPv4
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['10.0.0.1', 'private'],
    ['10.255.255.255', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'carrierGradeNat'],
    ['100.127.255.255', 'carrierGradeNat'],
    ['169.254.169.254', 'linkLocal'],
    ['169.254.0.1', 'linkLocal'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['255.255.255.255', 'broadcast'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['192.0.2.1', 'reserved'],
    ['198.18.0.1', 'reserved'],
    ['240.0.0.1', 'reserved'],
    // IPv6
    ['::1', 'loopback'],
    ['[::1]', 'loopback'],
    ['::', 'unspecified'],
    ['fe80::1', 'linkLocal'],
    ['febf:ffff::1', 'linkLocal'],
    ['fc00::1', 'uniqueLocal'],
    ['fd12:3456:789a::1', 'uniqueLocal'],
    ['fec0::1', 'deprecatedSiteLocal'],
    ['ff02::1', 'multicast'],
    ['2001:db8::1', 'reserved'],
    // IPv4 in IPv6 clothing: judged by the IPv4 address inside, or refused as a translation range.
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:192.168.0.1', 'private'],
    ['::ffff:169.254.169.254', 'linkLocal'],
    ['::ffff:a9fe:a9fe', 'linkLocal'],
    ['::ffff:100.64.0.1', 'carrierGradeNat'],
    ['::ffff:0.0.0.0', 'unspecified'],
    ['0:0:0:0:0:ffff:127.0.0.1', 'loopback'],
    ['::ffff:0:7f00:1', 'rfc6145'],
    ['64:ff9b::7f00:1', 'rfc6052'],
    ['64:ff9b:1::a9fe:a9fe', 'rfc6052'],
    ['2002:7f00:1::', '6to4'],
    ['2001::1', 'teredo'],
    // IPv4-compatible (deprecated): outside 2000::/3.
    ['::127.0.0.1', 'loopback'],
    ['::a9fe:a9fe', 'reserved'],
    ['not-an-address', 'invalid'],
    ['', 'invalid'],
  ])('%s (%s)', (address, range) => {
    expect(classifyAddress(address)).toEqual({ allowed: false, range });
    expect(isPublicAddress(address)).toBe(false);
  });
});

describe('public addresses', () => {
  it.each(['8.8.8.8', '1.1.1.1', '93.184.216.34', '100.63.255.255', '100.128.0.0', '172.15.255.255', '172.32.0.1', '169.253.255.255', '11.0.0.1', '2606:4700:4700::1111', '2a00:1450:4001:81b::200e', '::ffff:8.8.8.8'])(
    '%s is allowed',
    (address) => {
      expect(classifyAddress(address)).toEqual({ allowed: true, range: 'unicast' });
    },
  );
});
