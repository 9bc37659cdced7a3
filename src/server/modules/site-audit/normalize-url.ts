/**
 * The website address a requester typed, made into the one URL the audit crawls (issue 22): a missing
 * scheme becomes https, an international host name becomes punycode (the URL class does it), and anything
 * that is not a public web address is refused with a message the requester or an admin can act on. Which
 * addresses the server may reach (private ones, ports) is the safe fetch's call when the crawl runs.
 */
import net from 'node:net';

export type NormalizedAuditUrl = { ok: true; url: string } | { ok: false; message: string };

const MAX_LENGTH = 2048;
/** "mailto:", "javascript:", "https://": a scheme, unlike the "example.com:8080" of a host and port. */
const SCHEME = /^([a-z][a-z0-9+.-]*):/i;
const HOST_AND_PORT = /^[^:/?#]+:\d+(?:[/?#]|$)/;
const LABEL = /^[a-z0-9_](?:[a-z0-9_-]*[a-z0-9_])?$/;

const EXAMPLE = 'Enter it like example.com or https://www.example.com.';

const refuse = (message: string): NormalizedAuditUrl => ({ ok: false, message });

function withScheme(input: string): string {
  if (input.startsWith('//')) return `https:${input}`;
  return SCHEME.test(input) && !HOST_AND_PORT.test(input) ? input : `https://${input}`;
}

/** A host name with at least two labels, or an IP address. */
function isWebHost(hostname: string): boolean {
  const bare = hostname.replace(/^\[(.*)\]$/, '$1');
  if (net.isIP(bare)) return true;
  const labels = hostname.replace(/\.$/, '').split('.');
  return labels.length >= 2 && labels.every((label) => LABEL.test(label)) && !/^\d+$/.test(labels.at(-1)!);
}

export function normalizeAuditUrl(input: string): NormalizedAuditUrl {
  const typed = input.trim();
  if (!typed) return refuse(`Enter the website's address. ${EXAMPLE}`);
  if (typed.length > MAX_LENGTH) return refuse(`That address is longer than ${MAX_LENGTH} characters. ${EXAMPLE}`);
  const candidate = withScheme(typed);
  const scheme = SCHEME.exec(candidate)![1]!.toLowerCase();
  if (scheme !== 'http' && scheme !== 'https') {
    return refuse(`Only website addresses (http:// or https://) can be audited, not a "${scheme}:" address. ${EXAMPLE}`);
  }
  let url: URL;
  try {
    url = new URL(candidate);
  } catch {
    return refuse(`That does not look like a website address. ${EXAMPLE}`);
  }
  if (url.username || url.password) return refuse('Remove the user name and password from the address: the audit only looks at public pages.');
  if (!isWebHost(url.hostname)) return refuse(`"${url.hostname}" is not a website's host name. ${EXAMPLE}`);
  // The fragment never reaches the server.
  url.hash = '';
  return { ok: true, url: url.href };
}
