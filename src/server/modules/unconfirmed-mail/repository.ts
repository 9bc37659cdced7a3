/** Mail to addresses nobody confirmed (decision 057): data access only (Drizzle). */
import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { auditReports, mailUnsubscribes, users } from '../../db/schema';

type Reader = Pick<Database, 'select'>;
type Locker = Pick<Database, 'execute'>;

/**
 * Whether the owner of `email` (lower-cased) showed that the address is theirs: a member account verified
 * by its link, an audit report sent to it and opened, or the unsubscribe link mailed to it used. Each is a
 * click on a link only that inbox was sent; a form, a chat or a booking proves nothing of the address.
 */
export async function isConfirmedAddress(email: string, ex: Reader): Promise<boolean> {
  const [row] = await ex
    .select({
      confirmed: sql<boolean>`(
        exists (select 1 from ${users} where ${users.email} = ${email} and ${users.emailVerified})
        or exists (select 1 from ${auditReports} where lower(${auditReports.sentTo}) = ${email} and ${auditReports.firstOpenedAt} is not null)
        or exists (select 1 from ${mailUnsubscribes} where ${mailUnsubscribes.email} = ${email} and ${mailUnsubscribes.unsubscribedAt} is not null)
      )`,
    })
    .from(sql`(select 1) as one`);
  return Boolean(row?.confirmed);
}

/** Serialises the capped mails to one address within the caller's transaction (two forms at once count both). */
export async function lockAddress(tx: Locker, email: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`unconfirmed-mail:${email}`}))`);
}
