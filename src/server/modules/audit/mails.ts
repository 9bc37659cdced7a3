/**
 * The two emails of a free-audit request: the requester's confirmation (what happens next) and each
 * admin's notification (every field, a link to the request). Everything a stranger typed is escaped in the
 * HTML part of the admins' mail; the plain-text part carries it as text.
 */
import { escapeHtml, type MailMessage } from '../../mail/templates';
import { attributionFacts } from '../../../shared/lead-events';
import {
  AUDIT_GOAL_LABELS,
  AUDIT_NEXT_STEPS,
  BUSINESS_TYPE_LABELS,
  type AuditGoal,
  type AuditRequestFields,
  type AuditAttribution,
  type BusinessType,
} from '../../../shared/schemas/audit';

export const goalLabels = (goals: readonly string[]) => goals.map((g) => AUDIT_GOAL_LABELS[g as AuditGoal] ?? g);
export const businessTypeLabel = (type: string) => BUSINESS_TYPE_LABELS[type as BusinessType] ?? type;

const paragraphsHtml = (lines: readonly string[]) => lines.map((l) => `<p>${escapeHtml(l)}</p>`).join('\n');

/**
 * The requester's confirmation goes to an address nobody has confirmed: anyone can type a stranger's. So
 * it carries none of the visitor's own text (name, business, website, message), only what the site itself
 * words — the business type and goals as our labels — or it would relay whatever a phisher typed, links
 * included, to any inbox.
 */
export function auditConfirmationEmail(request: Pick<AuditRequestFields, 'email' | 'businessType' | 'goals'>, siteName: string): MailMessage {
  const greeting = 'Hello,';
  const intro = `Thank you for requesting a free online presence audit on ${siteName}. Here is what happens next:`;
  const received = [`Business type: ${businessTypeLabel(request.businessType)}`, `Goals: ${goalLabels(request.goals).join(', ')}`];
  const closing = `If you did not send this request, you can ignore this email. — ${siteName}`;
  const text = [greeting, '', intro, '', ...AUDIT_NEXT_STEPS.map((s, i) => `${i + 1}. ${s}`), '', 'What we received:', ...received, '', closing, ''].join('\n');
  const html = [
    `<p>${escapeHtml(greeting)}</p>`,
    `<p>${escapeHtml(intro)}</p>`,
    `<ol>${AUDIT_NEXT_STEPS.map((s) => `<li>${escapeHtml(s)}</li>`).join('')}</ol>`,
    `<p>${escapeHtml('What we received:')}</p>`,
    `<ul>${received.map((r) => `<li>${escapeHtml(r)}</li>`).join('')}</ul>`,
    `<p>${escapeHtml(closing)}</p>`,
  ].join('\n');
  return { to: request.email, subject: `Your free audit request — ${siteName}`, text, html };
}

export interface NotifiedRequest extends AuditRequestFields {
  id: string;
  memberEmail?: string | undefined;
  attribution: AuditAttribution;
  /** No confirmation went to the requester: their unconfirmed address had its automatic mails of the day. */
  confirmationHeld?: boolean;
}

export const CONFIRMATION_HELD_NOTE = 'No confirmation was emailed to the requester: nobody has confirmed this address, and it already got its automatic emails for today.';

export interface RequestFacts {
  fullName: string;
  email: string;
  businessName: string;
  website?: string | undefined;
  phone?: string | undefined;
  businessType: string;
  goals: readonly string[];
  message: string;
  memberEmail?: string | undefined;
  attribution: AuditAttribution;
}

/** Every field as label/value pairs (also what the admin detail page shows). */
export function auditRequestFacts(r: RequestFacts): [string, string][] {
  const a = r.attribution;
  const facts: [string, string][] = [
    ['Full name', r.fullName],
    ['Email', r.email],
    ['Business name', r.businessName],
    ['Website', r.website ?? ''],
    ['Phone', r.phone ?? ''],
    ['Business type', businessTypeLabel(r.businessType)],
    ['Goals', goalLabels(r.goals).join(', ')],
    ['Message', r.message],
    ['Member account', r.memberEmail ?? ''],
    ...attributionFacts(a),
  ];
  return facts;
}

export function auditNotificationEmail(to: string, request: NotifiedRequest, adminUrl: string, siteName: string): MailMessage {
  const facts = auditRequestFacts(request).filter(([, v]) => v !== '');
  const intro = `A new free audit request arrived on ${siteName}.`;
  const held = request.confirmationHeld ? [CONFIRMATION_HELD_NOTE] : [];
  const text = [intro, '', ...facts.map(([k, v]) => `${k}: ${v}`), '', ...held.flatMap((h) => [h, '']), `Open it: ${adminUrl}`, ''].join('\n');
  const html = [
    paragraphsHtml([intro]),
    `<table>${facts.map(([k, v]) => `<tr><th align="left" valign="top">${escapeHtml(k)}</th><td style="white-space:pre-wrap">${escapeHtml(v)}</td></tr>`).join('')}</table>`,
    ...(held.length ? [paragraphsHtml(held)] : []),
    `<p><a href="${escapeHtml(adminUrl)}">Open the request</a></p>`,
  ].join('\n');
  // The subject is a header: no line breaks can reach it (the schema refuses them in names already).
  const subject = `New audit request: ${request.businessName}`.replace(/[\r\n]+/g, ' ').slice(0, 200);
  return { to, subject, text, html };
}
