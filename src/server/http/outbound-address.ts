/**
 * Which IP addresses an outbound request may connect to: public unicast only. Everything that reaches
 * this machine, the local network or the cloud's metadata service is refused: loopback, private (RFC 1918),
 * carrier-grade NAT (100.64/10), unique-local (fc00::/7), link-local (169.254/16 with 169.254.169.254,
 * fe80::/10), unspecified, broadcast, multicast, reserved and documentation ranges, and every IPv6 form
 * that carries an IPv4 address (mapped ::ffff:0:0/96, translated, NAT64, 6to4, Teredo) unless the IPv4
 * address inside is itself public. An allow-list (ipaddr.js's `unicast` range, and for IPv6 only the
 * global unicast block 2000::/3), so a range nobody thought of is refused rather than let through.
 */
import ipaddr from 'ipaddr.js';

export interface AddressVerdict {
  allowed: boolean;
  /** ipaddr.js's range name ("loopback", "private", "linkLocal", "unicast"…), or "invalid". */
  range: string;
}

/** 2000::/3: the only IPv6 block handed out for the public internet. */
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');

export function classifyAddress(address: string): AddressVerdict {
  const bare = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  if (!ipaddr.isValid(bare)) return { allowed: false, range: 'invalid' };
  // ::ffff:127.0.0.1 is 127.0.0.1 to the kernel: judge the IPv4 address it carries.
  const ip = ipaddr.process(bare);
  const range = ip.range();
  if (range !== 'unicast') return { allowed: false, range };
  if (ip.kind() === 'ipv6' && !ip.match(GLOBAL_UNICAST_V6)) return { allowed: false, range: 'reserved' };
  return { allowed: true, range };
}

export const isPublicAddress = (address: string): boolean => classifyAddress(address).allowed;
