/**
 * One unsubscribe link per address (decision 049): the token is an HMAC of the address under the site's
 * signing secret, so every sequence mail to it carries the same link without storing the token itself; the
 * database keeps its SHA-256 to find the address. A changed or cut token finds nothing; a used one finds an
 * address already unsubscribed, and says so. Opening the link (GET) only asks; the unsubscribe is a POST:
 * the page's button, or the mail client's one-click POST of RFC 8058.
 */
import { createHash, createHmac } from 'node:crypto';
import { config } from '../../config';
import { db } from '../../db';
import { resolveAuthSecret } from '../../auth/secret';
import { logger } from '../../logger';
import { ONE_CLICK_BODY, unsubscribePath } from '../../../shared/schemas/lead-sequences';
import { insertActivity } from '../activity/repository';
import { LEAD_ENTITY } from '../leads/work-repository';
import * as repo from './repository';

const TOKEN = /^[A-Za-z0-9_-]{43}$/;
const log = logger.child({ module: 'unsubscribe' });

let secret: string | undefined;
const signingSecret = () => (secret ??= resolveAuthSecret(config()));

export const unsubscribeTokenOf = (email: string) => createHmac('sha256', signingSecret()).update(`lead-unsubscribe:${email}`).digest('base64url');
const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');
export const isUnsubscribeToken = (token: string | undefined): token is string => token !== undefined && TOKEN.test(token);

/** The address's link (absolute), as its mails carry it; nothing stored (a preview). */
export const unsubscribeUrlOf = (email: string) => new URL(unsubscribePath(unsubscribeTokenOf(email)), config().SITE_URL).toString();

/** The address's link (absolute), stored for lookup in the caller's transaction. */
export async function unsubscribeUrlFor(tx: repo.Executor, email: string): Promise<string> {
  await repo.saveUnsubscribeLink(tx, email, hashOf(unsubscribeTokenOf(email)));
  return unsubscribeUrlOf(email);
}

/** The headers of RFC 8058's one-click unsubscribe, for a mail carrying the address's link. */
export const unsubscribeHeaders = (url: string) => ({ 'List-Unsubscribe': `<${url}>`, 'List-Unsubscribe-Post': ONE_CLICK_BODY });

/** The visible end of such a mail: why they get it, and the link. */
export const unsubscribeFooter = (siteName: string, why: string, what: string, url: string) => `\n\n--\nYou get this email from ${siteName} because ${why}. To get no more ${what}, unsubscribe: ${url}`;

export type UnsubscribeState = { status: 'invalid' } | { status: 'subscribed' | 'unsubscribed'; email: string; at: Date | null };

/** What the link stands for, without changing anything (the page a GET shows). */
export async function unsubscribeStateOf(token: string | undefined): Promise<UnsubscribeState> {
  if (!isUnsubscribeToken(token)) return { status: 'invalid' };
  const row = await repo.findUnsubscribeByHash(hashOf(token));
  if (!row) return { status: 'invalid' };
  return { status: row.unsubscribedAt ? 'unsubscribed' : 'subscribed', email: row.email, at: row.unsubscribedAt };
}

/**
 * Unsubscribes the link's address: no sequence mail to it again, every running sequence of the person
 * stopped, the person's timeline told (the activity log, by the person). Using the link again changes
 * nothing. `via`: 'one-click' (the mail client) or 'page' (the button).
 */
export async function unsubscribe(token: string | undefined, via: 'one-click' | 'page', now = new Date()): Promise<UnsubscribeState> {
  if (!isUnsubscribeToken(token)) return { status: 'invalid' };
  const hash = hashOf(token);
  const result = await db().transaction(async (tx): Promise<UnsubscribeState> => {
    const row = await repo.findUnsubscribeByHash(hash, tx);
    if (!row) return { status: 'invalid' };
    if (!(await repo.markUnsubscribed(tx, row.email, now))) return { status: 'unsubscribed', email: row.email, at: row.unsubscribedAt };
    const stopped = await repo.stopEnrollments(tx, { email: row.email }, 'unsubscribed', now);
    await insertActivity(tx, {
      actorId: null,
      actorEmail: row.email,
      entityType: LEAD_ENTITY,
      entityId: row.email,
      action: 'unsubscribed',
      summary: `${row.email} unsubscribed from follow-up emails`,
      before: null,
      after: { via, sequencesStopped: stopped },
    });
    return { status: 'unsubscribed', email: row.email, at: now };
  });
  if (result.status === 'invalid') log.info({ via }, 'unsubscribe link not known');
  else log.info({ via }, 'unsubscribed');
  return result;
}
