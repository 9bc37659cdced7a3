/**
 * Writing to a lead from their page (issue 23): the team's templates, and the mail itself, sent through the
 * durable queue (so it survives restarts and shows on the person's timeline) with the sending admin as its
 * Reply-To. The subject and text are what the admin wrote with the placeholders filled; the HTML part is
 * that text escaped, paragraphs kept and addresses made links, so nothing typed becomes markup.
 */
import { asc, eq, sql } from 'drizzle-orm';
import { db } from '../../db';
import { leadMailTemplates } from '../../db/schema';
import { enqueueMail } from '../../mail/queue';
import { mailbox } from '../../../shared/mail-address';
import { escapeHtml } from '../../mail/templates';
import { normalizeEmail } from '../../../shared/lead-people';
import { fieldErrorsByPath } from '../../../shared/schemas/catalog';
import { AUDIT_LINK_PREVIEW, fillPlaceholders, firstNameOf, leadMailSchema, leadMailTemplateSchema, placeholdersIn, type LeadMailValues } from '../../../shared/schemas/lead-mail';
import { insertActivity } from '../activity/repository';
import { latestReportSentTo } from '../audit-report/repository';
import { newLinkToLatestReport } from '../audit-report/service';
import { getSiteContent } from '../site/service';
import { announceTodayChange } from '../today/live';
import { requireAdmin } from '../users/service';
import { LeadError } from './errors';
import { auditRequestsOf, findLatestName } from './people-repository';
import * as workRepo from './work-repository';

/** The mail queue's kind of a mail an admin wrote to a lead (the timeline labels it). */
export const LEAD_MAIL_KIND = 'lead-mail';
/** The most templates the team keeps: a few, as the issue asks; a list, not a library. */
export const LEAD_MAIL_TEMPLATES_MAX = 20;

const invalid = (error: { issues: Parameters<typeof fieldErrorsByPath>[0] }, message: string) => new LeadError('INVALID', message, fieldErrorsByPath(error.issues));

export const listMailTemplates = () => db().select().from(leadMailTemplates).orderBy(asc(leadMailTemplates.position), asc(leadMailTemplates.name));

/** Creates (no id) or updates a template; admin only, in the activity log. */
export async function saveMailTemplate(actorId: string | undefined, id: string | null, input: unknown) {
  const parsed = leadMailTemplateSchema.safeParse(input);
  if (!parsed.success) throw invalid(parsed.error, 'Please correct the template.');
  return db().transaction(async (tx) => {
    const actor = await requireAdmin(actorId, tx);
    const [before] = id ? await tx.select().from(leadMailTemplates).where(eq(leadMailTemplates.id, id)).for('update') : [];
    if (id && !before) throw new LeadError('NOT_FOUND', 'This template no longer exists.');
    let saved;
    if (before) {
      [saved] = await tx.update(leadMailTemplates).set({ ...parsed.data, updatedAt: new Date() }).where(eq(leadMailTemplates.id, before.id)).returning();
    } else {
      const [{ n, last } = { n: 0, last: -1 }] = await tx.select({ n: sql<number>`count(*)::int`, last: sql<number>`coalesce(max(${leadMailTemplates.position}), -1)::int` }).from(leadMailTemplates);
      if (Number(n) >= LEAD_MAIL_TEMPLATES_MAX) throw new LeadError('INVALID', `Keep at most ${LEAD_MAIL_TEMPLATES_MAX} templates: delete one first.`);
      [saved] = await tx.insert(leadMailTemplates).values({ id: crypto.randomUUID(), ...parsed.data, position: Number(last) + 1 }).returning();
    }
    await insertActivity(tx, {
      actorId: actor.id,
      actorEmail: actor.email,
      action: before ? 'update' : 'create',
      entityType: 'lead-mail-template',
      entityId: saved!.id,
      summary: `Mail template “${saved!.name}”`,
      before: before ? { name: before.name, subject: before.subject, body: before.body } : null,
      after: { name: saved!.name, subject: saved!.subject, body: saved!.body },
    });
    return saved!;
  });
}

export async function deleteMailTemplate(actorId: string | undefined, id: string) {
  return db().transaction(async (tx) => {
    const actor = await requireAdmin(actorId, tx);
    const [gone] = await tx.delete(leadMailTemplates).where(eq(leadMailTemplates.id, id)).returning();
    if (!gone) throw new LeadError('NOT_FOUND', 'This template no longer exists.');
    await insertActivity(tx, { actorId: actor.id, actorEmail: actor.email, action: 'delete', entityType: 'lead-mail-template', entityId: id, summary: `Mail template “${gone.name}” deleted`, before: { name: gone.name, subject: gone.subject, body: gone.body }, after: null });
  });
}

/** What the placeholders stand for, for this person (not the sender, nor the audit link, which is made when sent). */
export async function mailValuesOf(email: string): Promise<Omit<LeadMailValues, 'audit_link' | 'sender_name'>> {
  const key = normalizeEmail(email);
  const [name, requests, { siteName, bookingUrl }] = await Promise.all([findLatestName(key), auditRequestsOf(key), getSiteContent()]);
  return {
    name: name || key,
    first_name: firstNameOf(name),
    // Newest first.
    business: requests[0]?.businessName || 'your business',
    booking_link: bookingUrl,
    site_name: siteName,
  };
}

/** What the person page's composer needs: the templates, this person's values for the preview, whether a report was sent. */
export async function mailComposerOf(email: string, sender: { name: string; email: string }) {
  const key = normalizeEmail(email);
  const [templates, values, report] = await Promise.all([listMailTemplates(), mailValuesOf(key), latestReportSentTo(key)]);
  return {
    templates: templates.map((t) => ({ id: t.id, name: t.name, subject: t.subject, body: t.body })),
    values: { ...values, sender_name: sender.name.trim() || sender.email, audit_link: report ? AUDIT_LINK_PREVIEW : '{{audit_link}}' } satisfies LeadMailValues,
    hasReport: Boolean(report),
  };
}

/** Plain text → HTML that shows the same: escaped, blank lines as paragraphs, line breaks kept, http(s) addresses as links. */
export function textToHtml(text: string): string {
  return text
    .split(/\n{2,}/)
    .map((p) => `<p>${escapeHtml(p).replace(/https?:\/\/[^\s<]+/g, (url) => `<a href="${url}">${url}</a>`).replace(/\n/g, '<br>')}</p>`)
    .join('\n');
}

/** Sends the admin's mail to a lead: placeholders filled, through the queue, Reply-To the admin, in the activity log. */
export async function sendLeadMail(actorId: string | undefined, email: string, input: unknown) {
  const parsed = leadMailSchema.safeParse(input);
  if (!parsed.success) throw invalid(parsed.error, 'Please correct the email.');
  const key = normalizeEmail(email);
  // Read before the transaction: PGlite has one connection, which the transaction holds.
  const personValues = await mailValuesOf(key);
  const sent = await db().transaction(async (tx) => {
    const actor = await requireAdmin(actorId, tx);
    if (!(await workRepo.isLead(key, tx))) throw new LeadError('NOT_FOUND', 'No lead has this email address.');
    const values: Partial<LeadMailValues> = { ...personValues, sender_name: actor.name.trim() || actor.email };
    const used = placeholdersIn(`${parsed.data.subject}\n${parsed.data.body}`);
    if (used.includes('audit_link')) {
      values.audit_link = await newLinkToLatestReport(tx, key, actor.id);
      if (!values.audit_link) throw new LeadError('INVALID', 'Please correct the email.', { body: 'No audit report was sent to this lead yet: take out {{audit_link}}, or send their report first' });
    }
    const subject = fillPlaceholders(parsed.data.subject, values);
    const text = fillPlaceholders(parsed.data.body, values);
    await enqueueMail(tx, { kind: LEAD_MAIL_KIND, to: key, subject, text, html: textToHtml(text), replyTo: mailbox(actor.name, actor.email) });
    await insertActivity(tx, { actorId: actor.id, actorEmail: actor.email, entityType: workRepo.LEAD_ENTITY, entityId: key, action: 'mail', summary: `Email to ${key}: ${subject}`, before: null, after: { subject } });
    return { to: key, subject };
  });
  // A mail to them is a reply: they leave Today's "reports opened without a reply".
  await announceTodayChange();
  return sent;
}
