/**
 * Whether the site is a newcomer's local install: SITE_URL unset, or on localhost, 127.0.0.0/8 or ::1.
 * Only then does the outbox log print its sign-in and reset links; a deployed site's logs never hold them.
 */
import net from 'node:net';

export function isLocalSiteUrl(siteUrl: string | undefined): boolean {
  if (!siteUrl) return true;
  let host: string;
  try {
    // The URL parser normalises what matters here: "127.1" → "127.0.0.1", "[0::1]" → "[::1]", case.
    host = new URL(siteUrl).hostname;
  } catch {
    return false;
  }
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (net.isIPv4(host)) return host.startsWith('127.');
  return host === '[::1]';
}
