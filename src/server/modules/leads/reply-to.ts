/**
 * Who reads a prospect's reply (issue 35). A mail to a lead is answerable by a person: its Reply-To is the
 * lead's owner (an enabled admin), else the team address of the general settings, else the site's public
 * contact email, named as the business. An admin's notice about a lead replies to the lead.
 *
 * Read through the caller's executor: mails are queued inside the transaction that records what they are
 * about, and the embedded database has one connection, which that transaction holds.
 */
import { and, eq, inArray, ne } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { appConfig, leadPeople, users } from '../../db/schema';
import { mailbox } from '../../../shared/mail-address';
import { GENERAL_SETTINGS_KEY, resolveGeneralSettings } from '../../../shared/general-settings';
import { normalizeEmail } from '../../../shared/lead-people';
import { resolveSiteContent } from '../../../shared/site-content';
import { SITE_CONTENT_KEY } from '../site/service';

type Reader = Pick<Database, 'select'>;

/** The team's own address for replies when a lead has no owner: the general setting, else the footer's contact email. */
export async function teamReplyTo(ex: Reader): Promise<string> {
  const rows = await ex.select({ key: appConfig.key, value: appConfig.value }).from(appConfig).where(inArray(appConfig.key, [GENERAL_SETTINGS_KEY, SITE_CONTENT_KEY]));
  const stored = (key: string) => rows.find((r) => r.key === key)?.value;
  const site = resolveSiteContent(stored(SITE_CONTENT_KEY));
  const address = resolveGeneralSettings(stored(GENERAL_SETTINGS_KEY)).replyTo || site.footer.contactEmail;
  return mailbox(site.siteName, address);
}

/** The Reply-To of a mail to the lead `email`: their owner when one is set and still an enabled admin, else the team's. */
export async function prospectReplyTo(ex: Reader, email: string): Promise<string> {
  const [owner] = await ex
    .select({ name: users.name, email: users.email })
    .from(leadPeople)
    .innerJoin(users, eq(users.id, leadPeople.ownerId))
    .where(and(eq(leadPeople.email, normalizeEmail(email)), eq(users.role, 'admin'), ne(users.banned, true)))
    .limit(1);
  return owner ? mailbox(owner.name, owner.email) : teamReplyTo(ex);
}

/** The Reply-To of an admin's notice about a lead: the lead, as they named themselves. */
export const leadReplyTo = (lead: { name: string; email: string }) => mailbox(lead.name, lead.email);
