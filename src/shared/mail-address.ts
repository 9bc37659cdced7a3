/**
 * Mail addresses as headers carry them (pure: the overview's rules use them too). A display name is one clean line (no control, line-break or
 * text-direction character: nodemailer would fold a line break, but the name would still show broken),
 * quoted so a comma or an angle bracket in it stays part of the name.
 */
import { cleanName } from './text-controls';

const MAX_NAME = 100;

/** `"Maya Stone" <maya@example.com>`, or the bare address when there is no name. */
export function mailbox(name: string | null | undefined, address: string): string {
  const clean = cleanName(name ?? '', MAX_NAME);
  return clean ? `"${clean.replace(/["\\]/g, '\\$&')}" <${address}>` : address;
}

/**
 * The sender's address when MAIL_FROM is not set: no-reply at the site's own host, or at localhost while the
 * site runs on a loopback or bare IP address (an address at an IP is not a mailbox a client accepts).
 */
export function defaultSenderAddress(siteUrl: string): string {
  const host = new URL(siteUrl).hostname.replace(/\.$/, '');
  const named = /[a-z]/i.test(host) && !host.includes(':') && host !== 'localhost' && !/^\[/.test(host);
  return `no-reply@${named ? host : 'localhost'}`;
}

/** The address part of `"Name" <a@b>` or `a@b`, lower-cased. */
export function addressOf(mailboxText: string): string {
  const angle = /<([^<>]+)>\s*$/.exec(mailboxText);
  return (angle ? angle[1]! : mailboxText).trim().toLowerCase();
}

/** A sender the site's owner should change: on localhost, or a no-reply address (replies to it are lost). */
export function isUnanswerableSender(mailboxText: string): boolean {
  const address = addressOf(mailboxText);
  const [local = '', domain = ''] = address.split('@');
  return domain === 'localhost' || domain.endsWith('.localhost') || /^(no-?reply|do-?not-?reply)$/.test(local.replace(/[._]/g, '-').replace(/-+/g, '-'));
}
