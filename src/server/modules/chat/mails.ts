/**
 * The admins' notification of a chat lead: every detail the visitor left and a link to the conversation.
 * Everything a stranger typed is escaped in the HTML part; the plain-text part carries it as text. Bidi
 * controls are removed from it (the schema refuses them in names; an older name or a message may carry
 * them), each value is isolated in the HTML (dir="auto"), and the subject, a header, keeps one clean line.
 * The visitor gets no mail: their address is unconfirmed, and a mail repeating their words to it would relay
 * whatever a phisher typed (the rule of src/server/modules/audit/mails.ts).
 */
import type { Attribution } from '../../db/schema';
import { escapeHtml, type MailMessage } from '../../mail/templates';
import { attributionFacts } from '../../../shared/lead-events';
import { cleanLine, withoutBidiControls } from '../../../shared/text-controls';

export interface NotifiedLead {
  conversationId: string;
  name: string;
  email: string;
  message: string;
  memberEmail?: string | undefined;
  attribution: Attribution;
}

/** Label/value pairs, empty ones left out. */
export function chatLeadFacts(lead: NotifiedLead): [string, string][] {
  const a = lead.attribution;
  const facts: [string, string][] = [
    ['Name', lead.name],
    ['Email', lead.email],
    ['Message', lead.message],
    ['Member account', lead.memberEmail ?? ''],
    ...attributionFacts(a),
  ];
  return facts.filter(([, v]) => v !== '').map(([k, v]) => [k, withoutBidiControls(v)]);
}

export function chatLeadEmail(to: string, lead: NotifiedLead, adminUrl: string, siteName: string): MailMessage {
  const facts = chatLeadFacts(lead);
  const intro = `A visitor left their contact details in the chat on ${siteName}.`;
  const text = [intro, '', ...facts.map(([k, v]) => `${k}: ${v}`), '', `Open the conversation: ${adminUrl}`, ''].join('\n');
  const html = [
    `<p>${escapeHtml(intro)}</p>`,
    `<table>${facts.map(([k, v]) => `<tr><th align="left" valign="top">${escapeHtml(k)}</th><td dir="auto" style="white-space:pre-wrap">${escapeHtml(v)}</td></tr>`).join('')}</table>`,
    `<p><a href="${escapeHtml(adminUrl)}">Open the conversation</a></p>`,
  ].join('\n');
  // The subject is a header and a line in every inbox: no line break, control or text-direction character.
  const subject = Array.from(`New chat lead: ${cleanLine(lead.name.replace(/\s+/g, ' '))}`).slice(0, 200).join('');
  return { to, subject, text, html };
}
