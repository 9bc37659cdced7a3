/**
 * Mail to addresses nobody confirmed (decision 057). Anyone can type a stranger's address into the audit
 * form or the chat, so what the site mails there on its own must neither relay the visitor's words nor
 * flood the inbox:
 * - automatic mails carry the person's own placeholders ({{name}}, {{business}}) only once the address is
 *   confirmed (isConfirmedAddress says how);
 * - the automatic mails a form causes (CAPPED_MAIL_KINDS) are at most UNCONFIRMED_MAILS_PER_DAY per address
 *   in 24 hours until it is confirmed.
 * Mail a person of the team writes and sends (a lead mail, a report, a chat reply) and the account mails
 * (better-auth's own rate limits) are not capped here: someone chose to send each of them.
 */
import { config } from '../../config';
import { db } from '../../db';
import { queuedMailTimes } from '../../mail/queue';
import { normalizeEmail } from '../../../shared/lead-people';
import { automaticMailValues, DAY_MS, roomIn, type Room } from '../../../shared/mail-limits';
import * as repo from './repository';

/** The mail queue's kinds a visitor's form causes without anyone of the team in between. */
export const CAPPED_MAIL_KINDS = ['audit-confirmation', 'lead-sequence'] as const;

export const isConfirmedAddress = (email: string, ex: Parameters<typeof repo.isConfirmedAddress>[1] = db()) => repo.isConfirmedAddress(normalizeEmail(email), ex);

/** The person's placeholder values as an automatic mail to `email` may use them (read outside a transaction). */
export async function automaticValuesFor<T extends { name: string; first_name: string; business: string }>(email: string, values: T): Promise<T> {
  return automaticMailValues(values, await isConfirmedAddress(email));
}

/**
 * Whether one more capped mail may go to `email` at `now`, in the caller's transaction (which then queues
 * it): always to a confirmed address; otherwise within the day's cap, the address locked so that two forms
 * sent at once are counted one after the other. When not, `freesAt` says when one may.
 */
export async function roomForAutomaticMail(tx: Parameters<typeof repo.lockAddress>[0] & Parameters<typeof repo.isConfirmedAddress>[1], email: string, now: Date): Promise<Room> {
  const key = normalizeEmail(email);
  if (await repo.isConfirmedAddress(key, tx)) return { ok: true };
  await repo.lockAddress(tx, key);
  const sent = await queuedMailTimes(key, CAPPED_MAIL_KINDS, new Date(now.getTime() - DAY_MS), tx);
  return roomIn(sent, config().UNCONFIRMED_MAILS_PER_DAY, now, DAY_MS);
}
