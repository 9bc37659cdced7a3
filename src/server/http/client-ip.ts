/** The client's address: from the proxy's header when one is configured (TRUSTED_PROXY_IP_HEADER), else the socket's. */
export function clientIpOf(request: Request, socketAddress: string | undefined, trustedHeader: string | undefined): string | undefined {
  if (trustedHeader) {
    // A proxy appends the address it saw: the last entry is the one our own proxy vouches for.
    const value = request.headers.get(trustedHeader)?.split(',').pop()?.trim();
    if (value) return value;
  }
  return socketAddress;
}
