/**
 * Who a request comes from, for per-address limits and counts: the proxy's header when one is configured
 * (TRUSTED_PROXY_IP_HEADER), else the socket's address; then bucketed the way addresses are handed out. An
 * IPv6 host is given a whole /64 (and can pick any address in it), so IPv6 addresses count per /64; an
 * IPv4-mapped IPv6 address is its IPv4 address.
 */
import ipaddr from 'ipaddr.js';
import { isIP } from 'node:net';
import { logger } from '../logger';

/** The address as per-address limits count it: IPv4 as is, IPv6 as its /64 (`2001:0db8:0001:0002::/64`). */
export function addressBucket(address: string): string {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  if (isIP(bare) !== 6) return bare;
  const ip = ipaddr.IPv6.parse(bare);
  if (ip.isIPv4MappedAddress()) return ip.toIPv4Address().toString();
  // The network half, written in full so every spelling of one /64 is the same key.
  return `${ip.parts.slice(0, 4).map((part) => part.toString(16).padStart(4, '0')).join(':')}::/64`;
}

const MISSING_HEADER_LOG_INTERVAL_MS = 10 * 60_000;
let missingHeaderLoggedAt = -Infinity;
let missingHeaderCount = 0;

/**
 * A request without the configured header came straight to the server or through a proxy that does not set
 * it: every such visitor shares the connection's address (the proxy's), so one busy visitor could use up
 * everybody's limits. Said in the log (at most every 10 minutes, with a count), never silently.
 */
function reportMissingHeader(header: string, socketAddress: string | undefined, now = Date.now()) {
  missingHeaderCount++;
  if (now - missingHeaderLoggedAt < MISSING_HEADER_LOG_INTERVAL_MS) return;
  logger.warn(
    { header, socketAddress, requestsWithoutHeader: missingHeaderCount },
    `TRUSTED_PROXY_IP_HEADER is ${header}, but requests arrive without it: their limits are counted per connection address (${socketAddress ?? 'unknown'}), which may be your proxy's and shared by every visitor. Make the proxy set ${header}, or unset TRUSTED_PROXY_IP_HEADER if there is no proxy.`,
  );
  missingHeaderLoggedAt = now;
  missingHeaderCount = 0;
}

/** The client's address as the proxy or the socket says it, before bucketing (better-auth buckets its own). */
export function clientAddressOf(request: Request, socketAddress: string | undefined, trustedHeader: string | undefined): string | undefined {
  if (trustedHeader) {
    // A proxy appends the address it saw: the last entry is the one our own proxy vouches for.
    const value = request.headers.get(trustedHeader)?.split(',').pop()?.trim();
    if (value) return value;
    reportMissingHeader(trustedHeader, socketAddress);
  }
  return socketAddress;
}

/** The key per-address limits and counts use for this request's client (see addressBucket). */
export function clientIpOf(request: Request, socketAddress: string | undefined, trustedHeader: string | undefined): string | undefined {
  const address = clientAddressOf(request, socketAddress, trustedHeader);
  return address === undefined ? undefined : addressBucket(address);
}
