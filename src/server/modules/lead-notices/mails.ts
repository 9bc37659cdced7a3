/**
 * The digest of an admin's lead notices (decision 057): one mail listing the leads of the hour that did not
 * get a notice of their own. It goes to a member of the team: what the visitors typed is shown as their
 * words (one clean line each, escaped in the HTML part); the site's From, as it is about several people.
 */
import { escapeHtml, type MailMessage } from '../../mail/templates';
import { cleanName } from '../../../shared/text-controls';

export interface HeldNotice {
  kind: string;
  name: string;
  email: string;
  detail: string;
  url: string;
}

const KIND_LABELS: Record<string, string> = { 'audit-request': 'Audit request', 'chat-lead': 'Chat lead' };

/** "Audit request: Ada Lovelace <ada@example.com> (Analytical Clinic)". */
export function heldNoticeLine(n: HeldNotice): string {
  const name = cleanName(n.name, 100);
  const detail = cleanName(n.detail, 100);
  return `${KIND_LABELS[n.kind] ?? n.kind}: ${name ? `${name} <${n.email}>` : n.email}${detail ? ` (${detail})` : ''}`;
}

export function leadNoticeDigestEmail(to: string, notices: readonly HeldNotice[], site: { siteName: string; leadsUrl: string; perHour: number }): MailMessage {
  const count = notices.length;
  const subject = `${count} more new lead${count === 1 ? '' : 's'} in the last hour — ${site.siteName}`;
  const intro = `More leads arrived on ${site.siteName} than the ${site.perHour} notices an hour you get one by one. These came after them:`;
  const outro = `Every lead is in the leads list too: ${site.leadsUrl}`;
  const text = [intro, '', ...notices.flatMap((n) => [`- ${heldNoticeLine(n)}`, `  ${n.url}`]), '', outro, ''].join('\n');
  const html = [
    `<p>${escapeHtml(intro)}</p>`,
    `<ul>${notices.map((n) => `<li dir="auto">${escapeHtml(heldNoticeLine(n))} — <a href="${escapeHtml(n.url)}">open</a></li>`).join('')}</ul>`,
    `<p><a href="${escapeHtml(site.leadsUrl)}">Open the leads list</a></p>`,
  ].join('\n');
  return { to, subject, text, html };
}
